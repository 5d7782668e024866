/** The evm ante handler in CheckTx: every rejection with its code, routing, and the keeper contracts. */
import { expect } from 'chai';
import { Context } from '@chain/app';
import type { AnteHandler, ExecTxResult } from '@chain/app';
import type { AccountKeeper } from '@chain/auth';
import type { BankKeeper } from '@chain/bank';
import type { AnyMsg } from '@chain/codec';
import { keccak256, secp256k1PublicKey, signSecp256k1Digest } from '@chain/crypto';
import { ChainError } from '@chain/errors';
import { branch } from '@chain/store';
import { Common, Hardfork, Mainnet } from '@ethereumjs/common';
import { createLegacyTx } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { EXTENSION_OPTION_ETH_TX, EXTENSION_OPTION_ETH_TX_URL, MSG_ETHEREUM_TX, routeAnte } from '../src/index.js';
import type { EvmAccountKeeper, EvmBankKeeper } from '../src/index.js';
import { CHAIN_ID, DENOM, ETHER, EvmTestChain, GWEI, ethKey, signEthTx } from './helpers.js';
import type { EthKey } from './helpers.js';

// the concrete keepers satisfy the evm module's expected keepers (checked by tsc)
type Assert<T extends true> = T;
export type AuthSatisfies = Assert<AccountKeeper extends EvmAccountKeeper ? true : false>;
export type BankSatisfies = Assert<BankKeeper extends EvmBankKeeper ? true : false>;

interface WrapperParts { raw: Uint8Array; from: string; gas: bigint; fee: string; memo?: string; ext?: boolean; msgs?: AnyMsg[] }

/** A hand-built wrapper (for malformed cases wrapEthereumTx refuses to build). */
function wrapper(chain: EvmTestChain, p: WrapperParts): Uint8Array {
  const r = chain.registry;
  const msgs = p.msgs ?? [r.packAny(MSG_ETHEREUM_TX, { raw: p.raw, from: p.from })];
  const bodyBytes = r.encode('chain.tx.v1beta1.TxBody', { messages: msgs, memo: p.memo ?? '', extension_options: p.ext === false ? [] : [r.packAny(EXTENSION_OPTION_ETH_TX, {})] });
  const authInfoBytes = r.encode('chain.tx.v1beta1.AuthInfo', { signer_infos: [], fee: { amount: p.fee ? [{ denom: DENOM, amount: p.fee }] : [], gas_limit: p.gas, payer: '', granter: '' } });
  return r.encode('chain.tx.v1beta1.TxRaw', { body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, signatures: [] });
}

/** A Cosmos tx signed with an eth_secp256k1 key (SIGN_MODE_DIRECT over keccak256). */
function cosmosTx(chain: EvmTestChain, key: EthKey, msgs: AnyMsg[], sequence: bigint): Uint8Array {
  const r = chain.registry;
  const acc = chain.ak.getAccount(chain.ctx(), key.addr)!;
  const bodyBytes = r.encode('chain.tx.v1beta1.TxBody', { messages: msgs, memo: '' });
  const authInfoBytes = r.encode('chain.tx.v1beta1.AuthInfo', {
    signer_infos: [{ public_key: r.packAny('chain.crypto.ethsecp256k1.PubKey', { key: secp256k1PublicKey(key.priv) }), mode_info: { single: { mode: 1 } }, sequence }],
    fee: { amount: [{ denom: DENOM, amount: '1000' }], gas_limit: 200_000n, payer: '', granter: '' },
  });
  const signDoc = r.encode('chain.tx.v1beta1.SignDoc', { body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, chain_id: CHAIN_ID, account_number: acc.base.account_number });
  return r.encode('chain.tx.v1beta1.TxRaw', { body_bytes: bodyBytes, auth_info_bytes: authInfoBytes, signatures: [signSecp256k1Digest(key.priv, keccak256(signDoc))] });
}

function expectError(res: ExecTxResult, codespace: string, code: number, log?: RegExp): void {
  expect({ codespace: res.codespace, code: res.code }, res.log).to.deep.equal({ codespace, code });
  if (log) expect(res.log).to.match(log);
}

describe('evm ante handler', () => {
  let chain: EvmTestChain;
  const alice = ethKey(0);
  const bob = ethKey(1);
  const poor = ethKey(9);
  beforeEach(async () => { chain = await EvmTestChain.create({ evmGenesis: { accounts: [{ address: ethKey(4).hex, code: '0x6000', storage: [] }] } }); });
  afterEach(async () => { await chain.close(); });

  const check = (tx: Uint8Array): Promise<ExecTxResult> => chain.base.check(tx);

  it('rejects a wrong nonce (too low, too high) with evm/5', async () => {
    expectError(await check(chain.ethTx(alice, { to: bob.addr, nonce: 3n })), 'evm', 5, /nonce too high: address 0x[0-9a-fA-F]{40}, tx: 3 state: 0/);
    await chain.deliver(chain.ethTx(alice, { to: bob.addr }));
    expectError(await check(chain.ethTx(alice, { to: bob.addr, nonce: 0n })), 'evm', 5, /nonce too low: .* tx: 0 state: 1: invalid nonce$/);
  });

  it('rejects a wrong chain id (evm/3), an unprotected legacy tx (evm/12) and unsupported types (evm/11)', async () => {
    const foreign = signEthTx(alice, { nonce: 0n, to: bob.addr, chainId: 1n });
    expectError(await check(wrapper(chain, { raw: foreign, from: alice.address, gas: 100_000n, fee: (200_000n * GWEI).toString() })), 'evm', 3, /chain id 1 does not match the chain's 1337/);
    const legacy = createLegacyTx({ nonce: 0n, gasPrice: 2n * GWEI, gasLimit: 21000n, to: bob.addr }, { common: new Common({ chain: Mainnet, hardfork: Hardfork.TangerineWhistle }) }).sign(alice.priv);
    expect(legacy.v).to.be.oneOf([27n, 28n]);
    expectError(await check(wrapper(chain, { raw: legacy.serialize(), from: alice.address, gas: 21000n, fee: (21000n * 2n * GWEI).toString() })), 'evm', 12);
    expectError(await check(wrapper(chain, { raw: Uint8Array.of(3, 0xc0), from: alice.address, gas: 21000n, fee: '1' })), 'evm', 11, /blob/);
    expectError(await check(wrapper(chain, { raw: Uint8Array.of(2, 0x01, 0x02), from: alice.address, gas: 21000n, fee: '1' })), 'evm', 2);
  });

  it('rejects insufficient balance for gas × fee cap + value with evm/6', async () => {
    await chain.deliver(chain.ethTx(alice, { to: poor.addr, value: 21000n * 2n * GWEI }));
    // enough for the fee cap but not the value
    expectError(await check(chain.ethTx(poor, { to: bob.addr, value: 1n, gasLimit: 21000n })), 'evm', 6, /insufficient funds for gas \* price \+ value: address 0x.* have 42000000000000 want 42000000000001/);
    expect((await check(chain.ethTx(poor, { to: bob.addr, value: 0n, gasLimit: 21000n }))).code).to.equal(0);
  });

  it('rejects a gas limit below the intrinsic gas or the EIP-7623 calldata floor with evm/7, above the block gas limit with evm/8', async () => {
    expectError(await check(chain.ethTx(alice, { to: bob.addr, gasLimit: 20_999n })), 'evm', 7, /gas limit 20999 is below the intrinsic gas 21000/);
    // 1000 non-zero bytes: intrinsic 21000 + 16000 = 37000, floor 21000 + 10 × 4000 = 61000
    const data = new Uint8Array(1000).fill(1);
    expectError(await check(chain.ethTx(alice, { to: bob.addr, data, gasLimit: 60_999n })), 'evm', 7, /below the intrinsic gas 61000 \(EIP-7623 calldata floor; intrinsic 37000\)/);
    const ok = await chain.deliver(chain.ethTx(alice, { to: bob.addr, data, gasLimit: 61_000n }));
    expect(ok.code, ok.log).to.equal(0);
    expect(ok.gasUsed).to.equal(61000);
    expectError(await check(chain.ethTx(alice, { to: bob.addr, gasLimit: 30_000_001n })), 'evm', 8);
  });

  it('rejects a fee cap below the base fee (evm/9) and prices below the min gas price (floored base fee; node minimum sdk/13)', async () => {
    const baseFee = chain.baseFee();
    expectError(await check(chain.ethTx(alice, { to: bob.addr, maxFeePerGas: baseFee - 1n })), 'evm', 9, new RegExp(`maxFeePerGas: ${baseFee - 1n}, baseFee: ${baseFee}`));
    expectError(await check(chain.ethTx(alice, { type: 0, to: bob.addr, gasPrice: baseFee - 1n })), 'evm', 9);
    const strict = await EvmTestChain.create({ evmParams: { min_gas_price: (5n * GWEI).toString() }, minGasPrices: [{ denom: DENOM, amount: 7n * GWEI * 10n ** 18n }] });
    try {
      // the base fee is floored at the min gas price, so a price below it fails as a fee cap below the base fee
      expect(strict.baseFee()).to.equal(5n * GWEI);
      expectError(await strict.base.check(strict.ethTx(alice, { to: bob.addr, maxFeePerGas: 4n * GWEI, maxPriorityFeePerGas: 4n * GWEI })), 'evm', 9);
      expectError(await strict.base.check(strict.ethTx(alice, { to: bob.addr, maxFeePerGas: 6n * GWEI, maxPriorityFeePerGas: 6n * GWEI })), 'sdk', 13);
      expect((await strict.base.check(strict.ethTx(alice, { to: bob.addr, maxFeePerGas: 8n * GWEI, maxPriorityFeePerGas: 8n * GWEI }))).code).to.equal(0);
    } finally {
      await strict.close();
    }
  });

  it('rejects a sender with code (EIP-3607, evm/13) and a from that is not the signer (evm/14)', async () => {
    expectError(await check(chain.ethTx(ethKey(4), { to: bob.addr })), 'evm', 13);
    const raw = signEthTx(alice, { nonce: 0n, to: bob.addr, gasLimit: 21000n });
    expectError(await check(wrapper(chain, { raw, from: bob.address, gas: 21000n, fee: (21000n * 2n * GWEI).toString() })), 'evm', 14, new RegExp(alice.address));
  });

  it('checks the Cosmos wrapper: memo, fee, gas, extension option', async () => {
    const raw = signEthTx(alice, { nonce: 0n, to: bob.addr, gasLimit: 21000n });
    const fee = (21000n * 2n * GWEI).toString();
    expect((await check(wrapper(chain, { raw, from: alice.address, gas: 21000n, fee }))).code).to.equal(0);
    expectError(await check(wrapper(chain, { raw, from: alice.address, gas: 21000n, fee, memo: 'hi' })), 'evm', 15, /no memo/);
    expectError(await check(wrapper(chain, { raw, from: alice.address, gas: 21000n, fee: '1' })), 'evm', 15, /must be the sum of gas limit × max fee per gas/);
    expectError(await check(wrapper(chain, { raw, from: alice.address, gas: 21001n, fee })), 'sdk', 41);
    // without the extension option a MsgEthereumTx would skip the Ethereum checks: routeAnte refuses it
    expectError(await check(wrapper(chain, { raw, from: alice.address, gas: 21000n, fee, ext: false })), 'evm', 15, /extension option/);
    const send = chain.registry.packAny('chain.bank.v1beta1.MsgSend', { from_address: alice.address, to_address: bob.address, amount: [{ denom: DENOM, amount: '1' }] });
    expectError(await check(wrapper(chain, { raw, from: alice.address, gas: 21000n, fee, msgs: [send] })), 'evm', 15, /only chain.evm.v1.MsgEthereumTx/);
  });

  it('routes Cosmos txs to the auth ante: one sequence shared by Cosmos and Ethereum txs', async () => {
    expect((await chain.deliver(chain.ethTx(alice, { to: bob.addr, value: 1n }))).code).to.equal(0);
    const send = chain.registry.packAny('chain.bank.v1beta1.MsgSend', { from_address: alice.address, to_address: bob.address, amount: [{ denom: DENOM, amount: '5' }] });
    const res = await chain.deliver(cosmosTx(chain, alice, [send], 1n));
    expect(res.code, res.log).to.equal(0);
    expect(chain.nonce(alice.addr)).to.equal(2n);
    expectError(await check(chain.ethTx(alice, { to: bob.addr, nonce: 1n })), 'evm', 5, /nonce too low/);
    expect((await check(chain.ethTx(alice, { to: bob.addr, nonce: 2n }))).code).to.equal(0);
    expect(chain.balance(bob.addr)).to.equal(1000n * ETHER + 6n);
  });

  it('refuses to execute a MsgEthereumTx the evm ante handler did not verify (evm/16)', async () => {
    const route = chain.app.router.msgRoute(MSG_ETHEREUM_TX)!;
    const raw = signEthTx(alice, { nonce: 0n, to: bob.addr, value: 1n, gasLimit: 21000n });
    const ctx = new Context(branch(chain.store.state), { height: 2, time: new Date(), chainId: CHAIN_ID, proposer: new Uint8Array() }, 'deliver');
    let err: unknown;
    try {
      await route.handler(ctx, { raw, from: alice.address });
    } catch (e) {
      err = e;
    }
    expect(err).to.be.instanceOf(ChainError);
    expect((err as ChainError).codespace).to.equal('evm');
    expect((err as ChainError).code).to.equal(16);
  });

  it('re-checks in FinalizeBlock: a duplicate nonce in the same block fails without state changes', async () => {
    const tx = chain.ethTx(alice, { to: bob.addr, value: 1n });
    const res = await chain.block([tx, tx]);
    expect(res.txResults[0]!.code).to.equal(0);
    expectError(res.txResults[1]!, 'evm', 5);
    expect(chain.nonce(alice.addr)).to.equal(1n);
    expect(bytesToHex(bob.addr)).to.equal(bob.hex.toLowerCase());
  });
});

type DecodedTx = Parameters<AnteHandler>[1];

describe('evm: routeAnte keeps the routed handlers\' precheck', () => {
  // minimal decoded txs: routing looks at the extension options and the message names only
  const cosmosTx = { body: { extension_options: [] }, msgs: [] } as unknown as DecodedTx;
  const ethTx = { body: { extension_options: [{ type_url: EXTENSION_OPTION_ETH_TX_URL, value: new Uint8Array() }] }, msgs: [] } as unknown as DecodedTx;
  const ctx = {} as Context;

  it('a Cosmos tx is prechecked by the Cosmos handler, an Ethereum tx by the Ethereum one', async () => {
    const seen: string[] = [];
    const handler = (name: string, precheck: boolean): AnteHandler => {
      const h: AnteHandler = () => { seen.push(`${name} ante`); };
      if (precheck) h.precheck = async () => { seen.push(`${name} precheck`); };
      return h;
    };
    const routed = routeAnte(handler('eth', true), handler('cosmos', true));
    expect(routed.precheck, 'the node checks signatures ahead only through this').to.be.a('function');
    await routed.precheck!(ctx, cosmosTx);
    await routed.precheck!(ctx, ethTx);
    await routed(ctx, cosmosTx, false);
    expect(seen).to.deep.equal(['cosmos precheck', 'eth precheck', 'cosmos ante']);
    // one side without a precheck: nothing runs for its txs
    seen.length = 0;
    const half = routeAnte(handler('eth', false), handler('cosmos', true));
    await half.precheck!(ctx, ethTx);
    await half.precheck!(ctx, cosmosTx);
    expect(seen).to.deep.equal(['cosmos precheck']);
    expect(routeAnte(handler('eth', false), handler('cosmos', false)).precheck).to.equal(undefined);
  });
});
