/**
 * evm store layout (module store key `evm`, i.e. the prefix `evm/` of the state tree):
 *   0x01 | address(20)             → code hash (32 bytes)
 *   0x02 | code hash(32)           → code
 *   0x03 | address(20) | slot(32)  → storage value (big-endian, leading zero bytes stripped; absent = 0)
 *   0x04                           → Params (protobuf)
 *   0x05                           → base fee of the next block (decimal text)
 *   0x06 | BE64(height mod 8191)   → BE64 height | block hash (32): the hashes of the last 8191 blocks, for
 *                                    BLOCKHASH (a ring as EIP-2935's history contract; state, never the
 *                                    node's block store, so every node executes a block alike)
 * Nonces are auth account sequences and balances are bank balances of the EVM denom (one account space).
 */
export const MODULE_NAME = 'evm';
export const STORE_KEY = 'evm';
export const EVM_DENOM = 'achain';

export const MSG_ETHEREUM_TX = 'chain.evm.v1.MsgEthereumTx';
export const MSG_ETHEREUM_TX_URL = '/' + MSG_ETHEREUM_TX;
export const MSG_ETHEREUM_TX_RESPONSE = 'chain.evm.v1.MsgEthereumTxResponse';
export const EXTENSION_OPTION_ETH_TX = 'chain.evm.v1.ExtensionOptionsEthereumTx';
export const EXTENSION_OPTION_ETH_TX_URL = '/' + EXTENSION_OPTION_ETH_TX;
/** Ethermint's spelling of the extension option, accepted as an alias */
export const ETHERMINT_EXTENSION_OPTION_URL = '/ethermint.evm.v1.ExtensionOptionsEthereumTx';
export const PARAMS_TYPE = 'chain.evm.v1.Params';
export const GENESIS_TYPE = 'chain.evm.v1.GenesisState';

export const CODE_HASH_PREFIX = 0x01;
export const CODE_PREFIX = 0x02;
export const STORAGE_PREFIX = 0x03;
export const PARAMS_KEY = Uint8Array.of(0x04);
export const BASE_FEE_KEY = Uint8Array.of(0x05);
export const BLOCK_HASH_PREFIX = 0x06;
/** Blocks whose hashes are kept (EIP-2935's HISTORY_SERVE_WINDOW); BLOCKHASH needs the last 256. */
export const BLOCK_HASH_WINDOW = 8191n;

export function blockHashKey(height: bigint): Uint8Array {
  const k = new Uint8Array(9);
  k[0] = BLOCK_HASH_PREFIX;
  new DataView(k.buffer).setBigUint64(1, height % BLOCK_HASH_WINDOW);
  return k;
}

export function codeHashKey(address: Uint8Array): Uint8Array {
  const k = new Uint8Array(21);
  k[0] = CODE_HASH_PREFIX;
  k.set(address, 1);
  return k;
}

export function codeKey(hash: Uint8Array): Uint8Array {
  const k = new Uint8Array(33);
  k[0] = CODE_PREFIX;
  k.set(hash, 1);
  return k;
}

export function storagePrefix(address: Uint8Array): Uint8Array {
  const k = new Uint8Array(21);
  k[0] = STORAGE_PREFIX;
  k.set(address, 1);
  return k;
}

export function storageKey(address: Uint8Array, slot: Uint8Array): Uint8Array {
  const k = new Uint8Array(53);
  k[0] = STORAGE_PREFIX;
  k.set(address, 1);
  k.set(slot, 21);
  return k;
}

/** Code hash prefix range end. */
export const CODE_HASH_END = Uint8Array.of(CODE_HASH_PREFIX + 1);

/** Reads the kept hash of block `height` from the evm store (undefined outside the window or unset). */
export function readBlockHash(evmStore: { get(key: Uint8Array): Uint8Array | undefined }, height: bigint): Uint8Array | undefined {
  if (height < 0n) return undefined;
  const v = evmStore.get(blockHashKey(height));
  if (!v || v.length !== 40 || new DataView(v.buffer, v.byteOffset, 8).getBigUint64(0) !== height) return undefined;
  return v.slice(8);
}
