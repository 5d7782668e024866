/**
 * Crypto glue for ethereumjs: a Common for Prague with our chain id, a native ecrecover
 * (`common.customCrypto.ecrecover`, used by the tx library for senders and by the 0x01 precompile) and
 * a native keccak256 (`customCrypto.keccak256`: tx hashes and signing hashes, the KECCAK256 opcode).
 */
import { Common, createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { paramsTx } from '@ethereumjs/tx';
import { setLengthLeft } from '@ethereumjs/util';
import { keccak256, nativeSecp256k1, recoverSecp256k1 } from '@chain/crypto';
import { EvmErrors } from './errors.js';

/** The hardfork the EVM runs: Prague, fixed (see README). */
export const HARDFORK = Hardfork.Prague;

/** True when ecrecover runs on native libsecp256k1 (else on @noble/curves, through @chain/crypto). */
export const nativeEcrecover = nativeSecp256k1;

/** ethereumjs' ecrecover contract (64-byte public key without the 0x04 prefix) on native libsecp256k1. */
export function ecrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  const recovery = v === 0n || v === 1n ? v : chainId === undefined ? v - 27n : v - (chainId * 2n + 35n);
  if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid signature v value');
  const sig = new Uint8Array(64);
  sig.set(setLengthLeft(r, 32), 0);
  sig.set(setLengthLeft(s, 32), 32);
  return recoverSecp256k1(sig, Number(recovery), msgHash, false).subarray(1);
}

const commons = new Map<bigint, Common>();

/** The activated EIPs of a Common's `_activatedEIPsCache` array, as a set (built once per array). */
const eipSets = new WeakMap<readonly number[], ReadonlySet<number>>();

/**
 * `Common.isActivatedEIP` with a set: the interpreter asks it for nearly every opcode it runs (~400 times for an
 * ERC-20 transfer), and ethereumjs answers with `Array.includes` over the ~60 activated EIPs (2% of a loaded
 * node's main thread). The array is replaced, never changed, when the hardfork or the EIPs change.
 */
function isActivatedEIP(this: Common, eip: number): boolean {
  const active = (this as unknown as { _activatedEIPsCache: readonly number[] })._activatedEIPsCache;
  let set = eipSets.get(active);
  if (set === undefined) {
    set = new Set(active);
    eipSets.set(active, set);
  }
  return set.has(eip);
}

const realUpdateParams = Common.prototype.updateParams;

/**
 * A Prague Common for an EIP-155 chain id (cached; its hardfork and EIPs never change after creation).
 *
 * Every tx object ethereumjs constructs takes a shallow `copy()` of its Common and calls
 * `updateParams(paramsTx)` on it, which deep-copies the parameter tables through JSON and rebuilds the
 * parameter cache: about half a millisecond per decoded tx, the largest single cost of tx intake. The
 * tx parameters are therefore merged once here, and the copies (which share this Common's own
 * properties, `updateParams` included) skip that one dictionary; any other dictionary (the EVM's)
 * still goes through the real `updateParams`.
 */
export function commonFor(chainId: bigint): Common {
  let c = commons.get(chainId);
  if (!c) {
    c = createCustomCommon({ chainId: Number(chainId), name: `chain-${chainId}` }, Mainnet, { hardfork: HARDFORK, customCrypto: { ecrecover, keccak256 } });
    c.updateParams(paramsTx);
    c.updateParams = function (this: Common, params: Parameters<Common['updateParams']>[0]): void {
      if (params !== paramsTx) realUpdateParams.call(this, params);
    };
    c.isActivatedEIP = isActivatedEIP;
    commons.set(chainId, c);
  }
  return c;
}

const CHAIN_ID_RE = /^([a-z][a-z0-9]*)_([1-9][0-9]*)-([1-9][0-9]*)$/;

/** EIP-155 chain id from an Ethermint-style Cosmos chain id `<name>_<eip155>-<version>` (`chain_1337-1` → 1337). */
export function parseEip155ChainId(cosmosChainId: string): bigint {
  const m = CHAIN_ID_RE.exec(cosmosChainId);
  if (!m) throw EvmErrors.InvalidChainConfig.wrap(`chain id '${cosmosChainId}' is not of the form <name>_<eip155 id>-<version>`);
  return BigInt(m[2]!);
}
