/** Test contracts compiled with solc (standard JSON, evmVersion prague) and a minimal ABI encoder. */
import solc from 'solc';
import { keccak256 } from '@chain/crypto';
import { bigIntToBytes, bytesToBigInt, setLengthLeft } from '@ethereumjs/util';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Token {
  mapping(address => uint256) public balanceOf;
  uint256 public totalSupply;
  event Transfer(address indexed from, address indexed to, uint256 value);

  constructor(uint256 supply) {
    balanceOf[msg.sender] = supply;
    totalSupply = supply;
    emit Transfer(address(0), msg.sender, supply);
  }

  function transfer(address to, uint256 value) external returns (bool) {
    require(balanceOf[msg.sender] >= value, "insufficient balance");
    balanceOf[msg.sender] -= value;
    balanceOf[to] += value;
    emit Transfer(msg.sender, to, value);
    return true;
  }
}

contract Child {
  uint256 public value;
  function set(uint256 v) external { value = v; }
  function setAndRevert(uint256 v) external { value = v; revert("child reverted"); }
}

contract Parent {
  Child public child;
  uint256 public a;
  uint256 public b;
  event Ran(uint256 a, uint256 b);

  constructor() { child = new Child(); }

  /** nested frames: a committed write, a reverted child call caught, a committed child call */
  function run() external {
    a = 1;
    try child.setAndRevert(42) { } catch { b = 2; }
    child.set(7);
    emit Ran(a, b);
  }

  /** commits nested frames, then reverts the whole call */
  function runAndFail() external {
    a = 5;
    child.set(9);
    require(false, "parent failed");
  }

  function hashIt(bytes calldata data) external pure returns (bytes32) { return sha256(data); }

  function payAndKeep() external payable {}
}

/** created and destroyed in the same tx (EIP-6780): code, storage and balance go */
contract Boom {
  uint256 public x;
  constructor() payable { x = 1; selfdestruct(payable(msg.sender)); }
}

/** long-running calls, for the query budget */
contract Spin {
  uint256 public x = 1;
  function set(uint256 v) external { x = v; }
  function spin() external pure returns (uint256 s) { while (true) { s += 1; } }
  function spinThenRead(uint256 n) external view returns (uint256) {
    uint256 s;
    for (uint256 i; i < n; i++) s += i;
    return x + (s == type(uint256).max ? 1 : 0);
  }
}

/** SELFDESTRUCT to itself in the creating tx: Ethereum burns the value */
contract Burn {
  constructor() payable { selfdestruct(payable(address(this))); }
}
`;

export interface Compiled { readonly abi: unknown[]; readonly bytecode: Uint8Array }

let cache: Record<string, Compiled> | undefined;

/** Compiles the test contracts once per process. */
export function contracts(): Record<'Token' | 'Child' | 'Parent' | 'Boom' | 'Burn' | 'Spin', Compiled> {
  if (!cache) {
    const input = {
      language: 'Solidity',
      sources: { 'Test.sol': { content: SOURCE } },
      settings: { evmVersion: 'prague', optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
    };
    const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
      errors?: { severity: string; formattedMessage: string }[];
      contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
    };
    const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
    if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
    cache = {};
    for (const [name, c] of Object.entries(out.contracts['Test.sol']!)) cache[name] = { abi: c.abi, bytecode: Buffer.from(c.evm.bytecode.object, 'hex') };
  }
  return cache as Record<'Token' | 'Child' | 'Parent' | 'Boom' | 'Burn' | 'Spin', Compiled>;
}

export type AbiValue = bigint | Uint8Array;

/** 4-byte selector of a signature like `transfer(address,uint256)`. */
export function selector(signature: string): Uint8Array {
  return keccak256(new TextEncoder().encode(signature)).subarray(0, 4);
}

/** Head-only ABI encoding of static arguments (uint → bigint; address / bytes32 → bytes, left-padded). */
export function encodeArgs(...args: AbiValue[]): Uint8Array {
  const out = new Uint8Array(32 * args.length);
  args.forEach((a, i) => out.set(typeof a === 'bigint' ? setLengthLeft(bigIntToBytes(a), 32) : setLengthLeft(a, 32), 32 * i));
  return out;
}

/** Calldata: selector + static args. */
export function calldata(signature: string, ...args: AbiValue[]): Uint8Array {
  const sel = selector(signature);
  const body = encodeArgs(...args);
  const out = new Uint8Array(4 + body.length);
  out.set(sel);
  out.set(body, 4);
  return out;
}

/** Calldata of `f(bytes)` with one dynamic bytes argument. */
export function calldataBytes(signature: string, data: Uint8Array): Uint8Array {
  const padded = Math.ceil(data.length / 32) * 32;
  const out = new Uint8Array(4 + 64 + padded);
  out.set(selector(signature));
  out.set(encodeArgs(32n, BigInt(data.length)), 4);
  out.set(data, 68);
  return out;
}

export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** The i-th 32-byte word of return data as a bigint. */
export function word(ret: Uint8Array, i = 0): bigint {
  return bytesToBigInt(ret.subarray(32 * i, 32 * i + 32));
}

/** The i-th word as a 20-byte address. */
export function addressWord(ret: Uint8Array, i = 0): Uint8Array {
  return ret.subarray(32 * i + 12, 32 * i + 32);
}
