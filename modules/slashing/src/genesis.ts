/** slashing genesis (x/slashing/genesis.go, types/genesis.go of SDK v0.45): default, validation, init, export. */
import type { Context } from '@chain/app';
import { Dec } from '@chain/math';
import type { GenesisState, Params, SigningInfo, ValidatorMissedBlocks, ValidatorSigningInfo } from './gen/chain/slashing/v1beta1.js';
import type { SlashingKeeper } from './keeper.js';
import { defaultParams, goDurationString, paramsFromProto } from './params.js';

export type { GenesisState };

/** `DefaultGenesisState()`: the default params, no signing infos, no missed blocks. */
export function defaultGenesis(): GenesisState {
  return { params: defaultParams(), signing_infos: [], missed_blocks: [] };
}

function zeroParams(): Params {
  return { signed_blocks_window: 0n, min_signed_per_window: '0', downtime_jail_duration: null, slash_fraction_double_sign: '0', slash_fraction_downtime: '0' };
}

/**
 * `ValidateGenesis` of v0.45 (only the params, with its own rules and messages, in its order):
 * `slashing fraction downtime should be less than or equal to one and greater than zero, is <d>`, the same
 * for `slashing fraction double sign`, `min signed per window …`, `downtime unjail duration must be at
 * least 1 minute, is <go duration>`, `signed blocks window must be at least 10, is <n>`. A missing params
 * message is its zero value (non-nullable in the SDK).
 */
export function validateGenesis(gen: GenesisState): void {
  const p = paramsFromProto(gen.params ?? zeroParams());
  const one = Dec.one();
  if (p.slashFractionDowntime.isNegative() || p.slashFractionDowntime.gt(one)) {
    throw new Error(`slashing fraction downtime should be less than or equal to one and greater than zero, is ${p.slashFractionDowntime}`);
  }
  if (p.slashFractionDoubleSign.isNegative() || p.slashFractionDoubleSign.gt(one)) {
    throw new Error(`slashing fraction double sign should be less than or equal to one and greater than zero, is ${p.slashFractionDoubleSign}`);
  }
  if (p.minSignedPerWindow.isNegative() || p.minSignedPerWindow.gt(one)) {
    throw new Error(`min signed per window should be less than or equal to one and greater than zero, is ${p.minSignedPerWindow}`);
  }
  if (p.downtimeJailDuration < 60n * 1_000_000_000n) {
    throw new Error(`downtime unjail duration must be at least 1 minute, is ${goDurationString(p.downtimeJailDuration)}`);
  }
  if (p.signedBlocksWindow < 10n) throw new Error(`signed blocks window must be at least 10, is ${p.signedBlocksWindow}`);
}

/**
 * `InitGenesis`: first the consensus key of every staking validator (staking's genesis ran before), then
 * the signing infos, the bit arrays, the params.
 */
export function initGenesis(ctx: Context, k: SlashingKeeper, gen: GenesisState): void {
  for (const v of k.sk.iterateValidators(ctx)) k.addValidatorPubkey(ctx, v);
  for (const si of gen.signing_infos) {
    const addr = k.consCodec.decode(si.address);
    k.setValidatorSigningInfo(ctx, addr, si.validator_signing_info ?? emptySigningInfo());
  }
  for (const arr of gen.missed_blocks) {
    const addr = k.consCodec.decode(arr.address);
    for (const m of arr.missed_blocks) k.setValidatorMissedBlockBitArray(ctx, addr, m.index, m.missed);
  }
  k.setParams(ctx, gen.params ?? zeroParams());
}

function emptySigningInfo(): ValidatorSigningInfo {
  return { address: '', start_height: 0n, index_offset: 0n, jailed_until: null, tombstoned: false, missed_blocks_counter: 0n };
}

/**
 * `ExportGenesis`: the params, then per signing info (consensus-address order) the info and that
 * validator's bit array. Walks the schema: a collection added to src/keys.ts that is neither mapped here nor
 * listed as rebuilt makes the export throw. The pubkey relation is not exported: InitGenesis rebuilds it
 * from staking's validators, as the SDK.
 */
export function exportGenesis(ctx: Context, k: SlashingKeeper): GenesisState {
  const { params, signing_infos, missed_blocks, pubkeys, ...unmapped } = k.state.schema.exportAll(ctx);
  void signing_infos; void missed_blocks; void pubkeys;
  const left = Object.keys(unmapped);
  if (left.length > 0) throw new Error(`slashing genesis: no GenesisState field for the collection(s) ${left.join(', ')}`);
  const storedParams = params?.[0]?.[1] as Params | undefined;
  const infos: SigningInfo[] = [];
  const missed: ValidatorMissedBlocks[] = [];
  for (const [addr, info] of k.iterateValidatorSigningInfos(ctx)) {
    const address = k.consCodec.encode(addr);
    infos.push({ address, validator_signing_info: info });
    missed.push({ address, missed_blocks: k.getValidatorMissedBlocks(ctx, addr) });
  }
  return { params: storedParams ?? defaultParams(), signing_infos: infos, missed_blocks: missed };
}
