/** Solidity for e2e tests: solc (npm, wasm, offline) with an explicit EVM version, and test contracts. */
import solc from 'solc';

export interface CompiledContract { readonly abi: any[]; readonly bytecode: string }

/** Compiles `source` (one file) for `evmVersion` (default prague, as the node runs); every contract by name. */
export function compileSolidity(source: string, evmVersion = 'prague'): Record<string, CompiledContract> {
  const input = {
    language: 'Solidity', sources: { 'C.sol': { content: source } },
    settings: { evmVersion, optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: any[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const result: Record<string, CompiledContract> = {};
  for (const [name, c] of Object.entries(out.contracts['C.sol']!)) result[name] = { abi: c.abi, bytecode: '0x' + c.evm.bytecode.object };
  return result;
}

/** A minimal ERC-20 (balances, transfer with a revert reason, Transfer events). */
export const TOKEN_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
contract Token {
  mapping(address => uint256) public balanceOf;
  uint256 public totalSupply;
  event Transfer(address indexed from, address indexed to, uint256 value);
  constructor(uint256 supply) { balanceOf[msg.sender] = supply; totalSupply = supply; emit Transfer(address(0), msg.sender, supply); }
  function transfer(address to, uint256 value) external returns (bool) {
    require(balanceOf[msg.sender] >= value, "insufficient balance");
    balanceOf[msg.sender] -= value; balanceOf[to] += value;
    emit Transfer(msg.sender, to, value);
    return true;
  }
}`;

let token: CompiledContract | undefined;

/** The ERC-20 of TOKEN_SOURCE, compiled once per process. */
export function compileToken(): CompiledContract {
  token ??= compileSolidity(TOKEN_SOURCE).Token!;
  return token;
}
