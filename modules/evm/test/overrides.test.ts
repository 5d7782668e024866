/**
 * State overrides (geth's StateOverride) on eth_call, eth_estimateGas and traceCall: balance, nonce, code,
 * state (the whole storage) and stateDiff (single slots), applied to a throwaway branch only; bad overrides
 * are INVALID_ARGUMENT with a clear message.
 */
import { expect } from 'chai';
import { keccak256 } from '@chain/crypto';
import { bigIntToBytes, bytesToHex, generateAddress, toChecksumAddress } from '@ethereumjs/util';
import { parseStateOverride, traceCall } from '../src/index.js';
import type { CallFrameJSON, StructLogResult } from '../src/index.js';
import { EvmTestChain, ethKey } from './helpers.js';
import { calldata, concat, contracts, encodeArgs, word } from './contracts.js';

/** runtime code returning the caller's balance: CALLER BALANCE PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN */
const BALANCE_CODE = '0x333160005260206000f3';
const EMPTY = '0x00000000000000000000000000000000000c0de5';

describe('state overrides (eth_call, eth_estimateGas, traceCall)', function () {
  this.timeout(60_000);
  let chain: EvmTestChain;
  const alice = ethKey(0);
  const bob = ethKey(1);
  const poor = ethKey(9);
  let token: string;

  before(async () => {
    chain = await EvmTestChain.create();
    const res = await chain.deliver(chain.ethTx(alice, { data: concat(contracts().Token.bytecode, encodeArgs(1000n)), gasLimit: 1_500_000n }));
    expect(res.code, res.log).to.equal(0);
    token = bytesToHex(generateAddress(alice.addr, bigIntToBytes(0n)));
  });

  after(async () => {
    await chain?.close();
  });

  /** eth_call through the query service with overrides (JSON text in `overrides`). */
  async function call(req: { from?: string; to?: string; data?: Uint8Array; value?: bigint }, overrides: unknown) {
    return chain.query<{ ret: Uint8Array; vm_error: string; contract_address: string }>('EthCall', {
      from: req.from ?? '', to: req.to ?? '', data: req.data ?? new Uint8Array(), value: (req.value ?? 0n).toString(), gas: 0n, gas_price: '',
      overrides: overrides === undefined ? '' : JSON.stringify(overrides),
    });
  }

  /** the storage slot of balanceOf[addr]: keccak256(pad(addr) . pad(0)) */
  const slotOf = (addr: Uint8Array): string => bytesToHex(keccak256(concat(encodeArgs(addr), encodeArgs(0n))));

  it('code and balance: a contract put at an empty address reads an overridden balance', async () => {
    const r = await call({ from: poor.hex, to: EMPTY }, { [EMPTY]: { code: BALANCE_CODE }, [poor.hex]: { balance: '0x1234' } });
    expect(r.vm_error).to.equal('');
    expect(word(r.ret)).to.equal(0x1234n);
    // nothing persisted
    expect(chain.balance(poor.addr)).to.equal(0n);
    expect((await call({ from: poor.hex, to: EMPTY }, undefined)).ret.length).to.equal(0);
  });

  it('stateDiff changes single slots, state replaces the whole storage', async () => {
    const data = calldata('balanceOf(address)', bob.addr);
    const diff = await call({ to: token, data }, { [token]: { stateDiff: { [slotOf(bob.addr)]: '0x2a' } } });
    expect(word(diff.ret)).to.equal(42n);
    const supply = await call({ to: token, data: calldata('totalSupply()') }, { [token]: { stateDiff: { [slotOf(bob.addr)]: '0x2a' } } });
    expect(word(supply.ret)).to.equal(1000n);
    const full = await call({ to: token, data: calldata('totalSupply()') }, { [token]: { state: { [slotOf(bob.addr)]: '0x2a' } } });
    expect(word(full.ret)).to.equal(0n);
    expect(word((await call({ to: token, data: calldata('balanceOf(address)', alice.addr) }, { [token]: { state: {} } })).ret)).to.equal(0n);
    expect(word((await call({ to: token, data: calldata('balanceOf(address)', alice.addr) }, undefined)).ret)).to.equal(1000n);
  });

  it('nonce: the address of a contract created by the call follows the overridden nonce', async () => {
    const r = await call({ from: bob.hex, data: contracts().Child.bytecode }, { [bob.hex]: { nonce: '0x7' } });
    expect(r.vm_error).to.equal('');
    expect(r.contract_address.toLowerCase()).to.equal(bytesToHex(generateAddress(bob.addr, bigIntToBytes(7n))));
  });

  it('eth_estimateGas runs on the overrides', async () => {
    const req = { from: poor.hex, to: bob.hex, data: new Uint8Array(), value: '1000', gas: 0n, gas_price: '' };
    const without = await chain.query<{ gas: bigint; vm_error: string }>('EstimateGas', { ...req, overrides: '' });
    expect(without.vm_error).to.match(/insufficient balance/);
    const withBalance = await chain.query<{ gas: bigint; vm_error: string }>('EstimateGas', { ...req, overrides: JSON.stringify({ [poor.hex]: { balance: '0xffffff' } }) });
    expect(withBalance.vm_error).to.equal('');
    expect(withBalance.gas).to.equal(21_000n);
  });

  it('rejects bad overrides with INVALID_ARGUMENT and a clear message', async () => {
    const bad: [unknown, RegExp][] = [
      [{ '0x1234': { balance: '0x1' } }, /not a 20-byte 0x address/],
      [{ [token]: { balance: '12' } }, /invalid balance override .* hex quantity/],
      [{ [token]: { nonce: '0x1' + '0'.repeat(20) } }, /nonce override .* too large/],
      [{ [token]: { code: '0xabc' } }, /invalid code override/],
      [{ [token]: { stateDiff: { '0xzz': '0x1' } } }, /stateDiff override .* slot 0xzz/],
      [{ [token]: { movePrecompileToAddress: '0x12' } }, /invalid movePrecompileToAddress of .*20-byte 0x address/],
      [{ [token]: { moveTo: EMPTY } }, /unsupported field "moveTo"/],
      [[1, 2], /expected an object of address/],
      [{ [token]: 5 }, /expected an object/],
    ];
    for (const [o, msg] of bad) {
      let err: unknown;
      try { await call({ to: token }, o); } catch (e) { err = e; }
      expect(String(err), JSON.stringify(o)).to.match(/InvalidArgument/);
      expect(String(err), JSON.stringify(o)).to.match(msg);
      expect(() => parseStateOverride(o)).to.throw(msg);
    }
    let err: unknown;
    try { await chain.query('EthCall', { from: '', to: token, data: new Uint8Array(), value: '', gas: 0n, gas_price: '', overrides: '{nope' }); } catch (e) { err = e; }
    expect(String(err)).to.match(/invalid state override: .*JSON/);
  });

  it('movePrecompileToAddress as geth: the precompile runs at the new address, not at its own; an overridden precompile address runs its code', async () => {
    const SHA256 = '0x0000000000000000000000000000000000000002';
    const abc = new TextEncoder().encode('abc');
    const digest = '0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    const moved = await call({ to: EMPTY, data: abc }, { [SHA256]: { movePrecompileToAddress: EMPTY } });
    expect(moved.vm_error).to.equal('');
    expect(bytesToHex(moved.ret)).to.equal(digest);
    // its own address is an empty account now
    expect((await call({ to: SHA256, data: abc }, { [SHA256]: { movePrecompileToAddress: EMPTY } })).ret.length).to.equal(0);
    expect(bytesToHex((await call({ to: SHA256, data: abc }, undefined)).ret)).to.equal(digest);
    // any override of a precompile's address removes it there: code put there runs
    const code = await call({ from: poor.hex, to: SHA256 }, { [SHA256]: { code: BALANCE_CODE }, [poor.hex]: { balance: '0x77' } });
    expect(word(code.ret)).to.equal(0x77n);
    // moved twice in one request: a precompile may also land on another precompile's address
    const RIPEMD = '0x0000000000000000000000000000000000000003';
    const swapped = await call({ to: RIPEMD, data: abc }, { [SHA256]: { movePrecompileToAddress: RIPEMD } });
    expect(bytesToHex(swapped.ret)).to.equal(digest);
  });

  it('movePrecompileToAddress: geth\'s errors, and the warm addresses stay the hardfork\'s precompiles', async () => {
    const SHA256 = '0x0000000000000000000000000000000000000002';
    const errorOf = async (o: unknown): Promise<string> => {
      try { await call({ to: EMPTY }, o); } catch (e) { return String(e); }
      return '';
    };
    expect(await errorOf({ [token]: { movePrecompileToAddress: EMPTY } })).to.include(`account ${toChecksumAddress(token)} is not a precompile`);
    // geth refuses state with stateDiff when it applies the override (a plain error, not a malformed request)
    expect(await errorOf({ [token]: { state: {}, stateDiff: {} } })).to.include(`rpc error: code = Unknown desc = account ${toChecksumAddress(token)} has both 'state' and 'stateDiff'`);
    expect(await errorOf({ [SHA256]: { movePrecompileToAddress: EMPTY }, [EMPTY]: { balance: '0x1' } }))
      .to.include(`account ${toChecksumAddress(EMPTY)} is already overridden`);
    // a contract CALLing an address: 0x02 is warm (100) even when its precompile moved away, the new address is cold (2600)
    const caller = '0x00000000000000000000000000000000000ca11e';
    const callCode = (target: string): string => '0x' + ['6000', '6000', '6000', '6000', '6000', '73' + target.slice(2), '61ffff', 'f1', '50', '00'].join('');
    const gasOf = async (target: string, o: Record<string, unknown>): Promise<bigint> => {
      const r = await chain.query<{ gas: bigint; vm_error: string }>('EstimateGas', {
        from: '', to: caller, data: new Uint8Array(), value: '', gas: 0n, gas_price: '', overrides: JSON.stringify({ [caller]: { code: callCode(target) }, ...o }),
      });
      expect(r.vm_error).to.equal('');
      return r.gas;
    };
    const warm = await gasOf(SHA256, {});
    const cold = await gasOf(EMPTY, { [SHA256]: { movePrecompileToAddress: EMPTY } });
    expect(cold - warm).to.equal(2500n);
    // 0x02 without its precompile: still warm, no code
    const stillWarm = await gasOf(SHA256, { [SHA256]: { movePrecompileToAddress: EMPTY } });
    expect(stillWarm).to.equal(warm - 60n); // sha256 of nothing costs 60
  });

  it('traceCall: tracers on a call with overrides, nothing persisted', async () => {
    const overrides = JSON.stringify({ [EMPTY]: { code: BALANCE_CODE }, [poor.hex]: { balance: '0x99' } });
    const req = { from: poor.hex, to: EMPTY, data: new Uint8Array(), value: '', gas: 100_000n, gas_price: '', overrides };
    const s = await chain.app.atHeight(undefined, (ctx) => traceCall(chain.evm, ctx, req)) as StructLogResult;
    expect(s.failed).to.equal(false);
    expect(BigInt(s.returnValue)).to.equal(0x99n);
    expect(s.structLogs.map((l) => l.op)).to.deep.equal(['CALLER', 'BALANCE', 'PUSH1', 'MSTORE', 'PUSH1', 'PUSH1', 'RETURN']);
    expect(s.structLogs[1]!.stack).to.deep.equal([poor.hex.toLowerCase().replace(/^0x0*/, '0x')]);
    expect(s.gas).to.equal(21_000 + s.structLogs.reduce((n, l) => n + l.gasCost, 0));
    const c = await chain.app.atHeight(undefined, (ctx) => traceCall(chain.evm, ctx, req, { tracer: 'callTracer' })) as CallFrameJSON;
    expect(c).to.include({ type: 'CALL', from: poor.hex.toLowerCase(), to: EMPTY, gas: '0x186a0', output: '0x' + (0x99n).toString(16).padStart(64, '0') });
    expect(chain.balance(poor.addr)).to.equal(0n);
    expect(chain.store.openViews).to.equal(0);
  });
});
