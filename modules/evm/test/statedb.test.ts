/** The state adapter: nested checkpoints on store branches, precompiles, SELFDESTRUCT, genesis of code and storage. */
import { expect } from 'chai';
import { Context, EventManager, InfiniteGasMeter } from '@chain/app';
import { keccak256, sha256, toHex } from '@chain/crypto';
import { branch } from '@chain/store';
import { createFeeMarket1559Tx } from '@ethereumjs/tx';
import { Account, Address, bigIntToBytes, bytesToHex, generateAddress, setLengthLeft } from '@ethereumjs/util';
import { CodeCache, ContextStateManager, EVM_STORE_KEY, commonFor, hexAddress } from '../src/index.js';
import { CHAIN_ID, DENOM, ETH_CHAIN_ID, ETHER, EvmTestChain, GENESIS_TIME, GWEI, attrValues, ethKey } from './helpers.js';
import { addressWord, calldata, calldataBytes, contracts, encodeArgs, word } from './contracts.js';

describe('evm state adapter', () => {
  let chain: EvmTestChain;
  const alice = ethKey(0);
  beforeEach(async () => { chain = await EvmTestChain.create(); });
  afterEach(async () => { await chain.close(); });

  const slot = (n: bigint): Uint8Array => setLengthLeft(bigIntToBytes(n), 32);

  it('maps checkpoint / commit / revert onto nested store branches without copying state', async () => {
    const base = branch(chain.store.state);
    const ctx = new Context(base, { height: 9, time: GENESIS_TIME, chainId: CHAIN_ID, proposer: new Uint8Array() }, 'block', new InfiniteGasMeter(), new EventManager());
    const sm = new ContextStateManager({ ak: chain.ak, bank: chain.bk, feeCollector: 'fee_collector', codeCache: new CodeCache() });
    sm.bind(ctx, DENOM);
    const c = new Address(ethKey(8).addr);
    const bob = new Address(ethKey(1).addr);
    await sm.putStorage(c, slot(1n), Uint8Array.of(1));
    await sm.checkpoint();
    await sm.putStorage(c, slot(1n), Uint8Array.of(2));
    await sm.putStorage(c, slot(2n), Uint8Array.of(0, 0, 9));
    await sm.checkpoint();
    await sm.putStorage(c, slot(2n), new Uint8Array());
    await sm.putAccount(bob, new Account(5n, 7n));
    expect(sm.depth).to.equal(2);
    // nothing reaches the base store before the outer commit
    expect(chain.evm.getState(ctx, c.bytes, slot(1n))).to.deep.equal(slot(1n));
    expect((await sm.getAccount(bob))!.nonce).to.equal(5n);
    await sm.revert();
    expect((await sm.getAccount(bob))!.balance).to.equal(1000n * ETHER);
    expect(await sm.getStorage(c, slot(2n))).to.deep.equal(Uint8Array.of(9));
    expect(await sm.originalStorageCache.get(c, slot(1n))).to.deep.equal(Uint8Array.of(1));
    await sm.commit();
    expect(sm.depth).to.equal(0);
    expect(chain.evm.getState(ctx, c.bytes, slot(1n))).to.deep.equal(slot(2n));
    expect(chain.evm.getState(ctx, c.bytes, slot(2n))).to.deep.equal(slot(9n));
    expect(chain.bk.getBalance(ctx, bob.bytes, DENOM)).to.equal(1000n * ETHER);
    // the base branch holds exactly the two written slots: no copy of the state
    const prefix = new TextEncoder().encode(`${EVM_STORE_KEY}/`);
    expect(base.changes().map((ch) => toHex(ch.key.subarray(prefix.length)))).to.deep.equal([
      `03${toHex(c.bytes)}${toHex(slot(1n))}`, `03${toHex(c.bytes)}${toHex(slot(2n))}`,
    ]);
    sm.unbind();
  });

  it('commits and reverts nested calls of a contract (try/catch, then a failing outer call)', async () => {
    const { Parent } = contracts();
    const deploy = await chain.deliver(chain.ethTx(alice, { data: Parent.bytecode, gasLimit: 2_000_000n }));
    expect(deploy.code, deploy.log).to.equal(0);
    const parent = generateAddress(alice.addr, bigIntToBytes(0n));
    const child = generateAddress(parent, bigIntToBytes(1n));
    const read = async (to: Uint8Array, sig: string): Promise<bigint> => word((await chain.call({ to: hexAddress(to), data: calldata(sig) })).ret);
    expect(toHex(addressWord((await chain.call({ to: hexAddress(parent), data: calldata('child()') })).ret))).to.equal(toHex(child));
    expect((await chain.query<{ nonce: bigint }>('Account', { address: hexAddress(parent) })).nonce).to.equal(2n);

    const run = await chain.deliver(chain.ethTx(alice, { to: parent, data: calldata('run()'), gasLimit: 300_000n }));
    expect(attrValues(run.events, 'ethereum_tx', 'ethereumTxFailed')).to.deep.equal([]);
    expect([await read(parent, 'a()'), await read(parent, 'b()'), await read(child, 'value()')]).to.deep.equal([1n, 2n, 7n]);
    expect(attrValues(run.events, 'tx_log', 'txLog')).to.have.length(1);

    const fail = await chain.deliver(chain.ethTx(alice, { to: parent, data: calldata('runAndFail()'), gasLimit: 300_000n }));
    expect(fail.code).to.equal(0);
    expect(attrValues(fail.events, 'ethereum_tx', 'ethereumTxFailed')).to.deep.equal(['execution reverted: parent failed']);
    expect([await read(parent, 'a()'), await read(child, 'value()')]).to.deep.equal([1n, 7n]);
    expect(chain.nonce(alice.addr)).to.equal(3n);
  });

  it('runs the hardfork precompiles: sha256 (0x02) from a contract and directly, ecrecover (0x01)', async () => {
    const { Parent } = contracts();
    await chain.deliver(chain.ethTx(alice, { data: Parent.bytecode, gasLimit: 2_000_000n }));
    const parent = hexAddress(generateAddress(alice.addr, bigIntToBytes(0n)));
    const input = new TextEncoder().encode('hello precompile');
    const viaContract = await chain.call({ to: parent, data: calldataBytes('hashIt(bytes)', input) });
    expect(viaContract.vm_error).to.equal('');
    expect(toHex(viaContract.ret)).to.equal(toHex(sha256(input)));
    const direct = await chain.call({ to: '0x0000000000000000000000000000000000000002', data: input });
    expect(toHex(direct.ret)).to.equal(toHex(sha256(input)));

    const signed = createFeeMarket1559Tx({ chainId: ETH_CHAIN_ID, nonce: 0n, gasLimit: 21000n, maxFeePerGas: GWEI }, { common: commonFor(ETH_CHAIN_ID) }).sign(alice.priv);
    const data = encodeArgs(signed.getHashedMessageToSign(), 27n + signed.v!, bigIntToBytes(signed.r!), bigIntToBytes(signed.s!));
    const rec = await chain.call({ to: '0x0000000000000000000000000000000000000001', data });
    expect(toHex(addressWord(rec.ret))).to.equal(toHex(alice.addr));
    // in a tx: 21000 + calldata + 3000 for the precompile
    const res = await chain.deliver(chain.ethTx(alice, { to: '0x0000000000000000000000000000000000000001', data, gasLimit: 50_000n }));
    expect(res.code, res.log).to.equal(0);
    expect(attrValues(res.events, 'ethereum_tx', 'ethereumTxFailed')).to.deep.equal([]);
    expect(res.gasUsed).to.be.greaterThan(21000 + 3000);
    // 0x0a (KZG point evaluation) has no trusted setup here: it fails like an invalid proof, never throws
    const kzg = await chain.call({ to: '0x000000000000000000000000000000000000000a', data: new Uint8Array(192), gas: 100_000n });
    expect(kzg.vm_error).to.equal('kzg proof invalid');
    expect(kzg.gas_used).to.equal(100_000n);
  });

  it('removes a contract created and self-destructed in one tx (EIP-6780) and returns its balance', async () => {
    const { Boom } = contracts();
    const before = chain.balance(alice.addr);
    const baseFee = chain.baseFee();
    const res = await chain.deliver(chain.ethTx(alice, { data: Boom.bytecode, value: 12345n, gasLimit: 500_000n, maxFeePerGas: 2n * GWEI, maxPriorityFeePerGas: 0n }));
    expect(attrValues(res.events, 'ethereum_tx', 'ethereumTxFailed')).to.deep.equal([]);
    const boom = generateAddress(alice.addr, bigIntToBytes(0n));
    expect((await chain.query<{ code: Uint8Array }>('Code', { address: hexAddress(boom) })).code).to.have.length(0);
    expect((await chain.query<{ value: string }>('Storage', { address: hexAddress(boom), key: '0x00' })).value).to.equal(bytesToHex(new Uint8Array(32)));
    expect(chain.balance(boom)).to.equal(0n);
    const acc = await chain.query<{ nonce: bigint; balance: string }>('Account', { address: hexAddress(boom) });
    expect([acc.nonce, acc.balance]).to.deep.equal([0n, '0']);
    // the 12,345 wei came back to alice: she paid only the gas
    expect(before - chain.balance(alice.addr)).to.equal(BigInt(res.gasUsed) * baseFee);
  });

  it('keeps the bank supply consistent when the EVM burns value (SELFDESTRUCT to itself): the fee collector gets it', async () => {
    const { Burn } = contracts();
    const collector = chain.ak.getModuleAddress('fee_collector');
    const supply = chain.bk.getSupply(chain.ctx(), DENOM);
    const c0 = chain.balance(collector);
    const baseFee = chain.baseFee();
    const res = await chain.deliver(chain.ethTx(alice, { data: Burn.bytecode, value: 5000n, gasLimit: 500_000n, maxFeePerGas: 2n * GWEI, maxPriorityFeePerGas: 0n }));
    expect(attrValues(res.events, 'ethereum_tx', 'ethereumTxFailed')).to.deep.equal([]);
    expect(chain.balance(generateAddress(alice.addr, bigIntToBytes(0n)))).to.equal(0n);
    expect(chain.balance(collector) - c0).to.equal(BigInt(res.gasUsed) * baseFee + 5000n);
    expect(chain.bk.getSupply(chain.ctx(), DENOM)).to.equal(supply);
    let sum = 0n;
    for (const i of [0, 1, 2, 3, 4]) sum += chain.balance(ethKey(i).addr);
    expect(sum + chain.balance(collector)).to.equal(supply);
  });

  it('imports and exports contract code and storage through genesis', async () => {
    const addr = ethKey(6).hex;
    const code = '0x602a60005260206000f3'; // returns 42
    const g = await EvmTestChain.create({ evmGenesis: { accounts: [{ address: addr, code, storage: [{ key: bytesToHex(slot(3n)), value: bytesToHex(slot(77n)) }] }] } });
    try {
      const ret = await g.call({ to: addr, data: new Uint8Array() });
      expect(word(ret.ret)).to.equal(42n);
      expect((await g.query<{ value: string }>('Storage', { address: addr, key: '0x03' })).value).to.equal(bytesToHex(slot(77n)));
      const exported = g.app.exportGenesis().evm as { accounts: { address: string; code: string; storage: { key: string; value: string }[] }[]; base_fee: string };
      expect(exported.accounts).to.deep.equal([{ address: addr.toLowerCase(), code, storage: [{ key: bytesToHex(slot(3n)), value: bytesToHex(slot(77n)) }] }]);
      expect(exported.base_fee).to.equal(g.baseFee().toString());
      expect(keccak256(Buffer.from(code.slice(2), 'hex'))).to.deep.equal((g.evm.getCodeHash(g.ctx(), Buffer.from(addr.slice(2), 'hex'))));
    } finally {
      await g.close();
    }
  });

  it('exports the storage of an account without code (a constructor that wrote a slot and returned no code), in address order', async () => {
    // constructor: SSTORE(1, 7), then return nothing
    const initcode = Buffer.from('6007600155' + '00', 'hex');
    const res = await chain.deliver(chain.ethTx(alice, { data: initcode, gasLimit: 200_000n, maxFeePerGas: 2n * GWEI, maxPriorityFeePerGas: 0n }));
    expect(attrValues(res.events, 'ethereum_tx', 'ethereumTxFailed')).to.deep.equal([]);
    const created = generateAddress(alice.addr, bigIntToBytes(chain.ak.getAccount(chain.ctx(), alice.addr)!.base.sequence - 1n));
    expect((await chain.query<{ code: Uint8Array }>('Code', { address: hexAddress(created) })).code).to.have.length(0);
    const exported = chain.app.exportGenesis().evm as { accounts: { address: string; code: string; storage: { key: string; value: string }[] }[] };
    const mine = exported.accounts.find((a) => a.address === hexAddress(created).toLowerCase());
    expect(mine).to.deep.equal({ address: hexAddress(created).toLowerCase(), code: '0x', storage: [{ key: bytesToHex(slot(1n)), value: bytesToHex(slot(7n)) }] });
    const order = exported.accounts.map((a) => a.address);
    expect(order).to.deep.equal([...order].sort());
    // and it imports back
    const g = await EvmTestChain.create({ evmGenesis: { accounts: [mine!] } });
    try {
      expect((await g.query<{ value: string }>('Storage', { address: hexAddress(created), key: '0x01' })).value).to.equal(bytesToHex(slot(7n)));
      expect((g.app.exportGenesis().evm as { accounts: unknown[] }).accounts).to.deep.equal([mine]);
    } finally {
      await g.close();
    }
  });
});
