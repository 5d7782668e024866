/**
 * mint state, declared once: the collections of the module store `mint` (the SDK's
 * `collections.NewSchemaBuilder`). The keeper, the query server and genesis read and write only through
 * these collections; no other file knows a prefix. Genesis export walks the schema.
 *
 * Store keys (under `mint/`):
 *   0x00 → Minter, protobuf (`chain.mint.v1beta1.Minter`; v0.45 `MinterKey = 0x00`)
 *   0x01 → Params, protobuf (`chain.mint.v1beta1.Params`; v0.45 keeps them in the x/params subspace `mint`)
 * A new collection takes the next free prefix byte and a name, gets a GenesisState field (src/genesis.ts)
 * and a row in the README's State table.
 */
import type { ProtoRegistry } from '@chain/codec';
import { Schema, protoValue } from '@chain/collections';
import type { Minter, Params } from './gen/chain/mint/v1beta1.js';

export const MODULE_NAME = 'mint';
export const STORE_KEY = 'mint';

/** the module's .proto files (published with the package) */
export const PROTO_DIR = new URL('../proto', import.meta.url).pathname;

/** The mint schema: build one per keeper (`MintKeeper.state`). */
export function mintSchema(registry: ProtoRegistry) {
  // the proto values below resolve their types now: load the module's protos (the app loads them again, a no-op)
  registry.addProtoDir(PROTO_DIR);
  const schema = new Schema(STORE_KEY);
  return {
    schema,
    /** The minter: current inflation and annual provisions (SDK v0.45 `MinterKey`). */
    Minter: schema.item(0x00, 'minter', protoValue<Minter>(registry, 'chain.mint.v1beta1.Minter')),
    /** The params (SDK v0.45: the `mint` params subspace). */
    Params: schema.item(0x01, 'params', protoValue<Params>(registry, 'chain.mint.v1beta1.Params')),
  };
}

/** The collections of `mintSchema`. */
export type MintState = ReturnType<typeof mintSchema>;
