/**
 * upgrade state, declared once: the collections of the module store `upgrade`, with the keys of SDK v0.45
 * (x/upgrade/types/keys.go). The keeper and the query server read and write only through them.
 *
 * Store keys (under `upgrade/`):
 *   0x00                                  → Plan, protobuf (the scheduled upgrade)
 *   0x01 | name                           → height the plan `name` was applied at, 8 bytes big-endian
 *   0x02 | module name                    → the module's consensus version, 8 bytes big-endian
 *   0x03                                  → protocol version, 8 bytes big-endian
 *   `upgradedIBCState/<h>/upgradedClient`    → bytes (upgraded client state stored for height h)
 *   `upgradedIBCState/<h>/upgradedConsState` → bytes (upgraded consensus state stored for height h)
 * The genesis carries none of it (the SDK's upgrade genesis is `{}`): InitGenesis records the version map.
 */
import type { ProtoRegistry } from '@chain/codec';
import { Schema, bytesValue, protoValue, stringKey, uint64Value } from '@chain/collections';
import type { Plan } from './gen/chain/upgrade/v1beta1.js';

export const MODULE_NAME = 'upgrade';
export const STORE_KEY = 'upgrade';
/** the proposal route of the SDK (`RouterKey`) */
export const ROUTER_KEY = 'upgrade';
/** the file a halting node writes under `<home>/data` (cosmovisor watches it) */
export const UPGRADE_INFO_FILE_NAME = 'upgrade-info.json';

export const SOFTWARE_UPGRADE_PROPOSAL = 'chain.upgrade.v1beta1.SoftwareUpgradeProposal';
export const CANCEL_SOFTWARE_UPGRADE_PROPOSAL = 'chain.upgrade.v1beta1.CancelSoftwareUpgradeProposal';

/** the module's .proto files (published with the package) */
export const PROTO_DIR = new URL('../proto', import.meta.url).pathname;

const IBC_STATE_PREFIX = 'upgradedIBCState/';

/** The key (under `upgradedIBCState/`) of the upgraded client state stored for `height`. */
export function upgradedClientKey(height: bigint): string {
  return `${height}/upgradedClient`;
}

/** The key (under `upgradedIBCState/`) of the upgraded consensus state stored for `height`. */
export function upgradedConsStateKey(height: bigint): string {
  return `${height}/upgradedConsState`;
}

/** The upgrade schema: build one per keeper (`UpgradeKeeper.state`). */
export function upgradeSchema(registry: ProtoRegistry) {
  registry.addProtoDir(PROTO_DIR);
  const schema = new Schema(STORE_KEY);
  return {
    schema,
    /** SDK: `PlanByte` 0x0 → the scheduled Plan. */
    Plan: schema.item(0x00, 'plan', protoValue<Plan>(registry, 'chain.upgrade.v1beta1.Plan')),
    /** SDK: `DoneByte` 0x1 | name → block height (big-endian uint64). */
    Done: schema.map(0x01, 'done', stringKey, uint64Value),
    /** SDK: `VersionMapByte` 0x2 | module → consensus version (big-endian uint64). */
    VersionMap: schema.map(0x02, 'version_map', stringKey, uint64Value),
    /** SDK: `ProtocolVersionByte` 0x3 → protocol version (big-endian uint64). */
    ProtocolVersion: schema.item(0x03, 'protocol_version', uint64Value),
    /** SDK: `upgradedIBCState/<height>/upgradedClient|upgradedConsState` → bytes. */
    UpgradedIBCState: schema.map(IBC_STATE_PREFIX, 'upgraded_ibc_state', stringKey, bytesValue),
  };
}

/** The collections of `upgradeSchema`. */
export type UpgradeState = ReturnType<typeof upgradeSchema>;
