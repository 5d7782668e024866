/**
 * EvidenceKeeper (x/evidence/keeper of SDK v0.45: keeper.go, infraction.go, abci.go): stores evidence by
 * hash and handles the equivocations CometBFT reports (`ctx.comet.misbehavior`) by slashing, jailing and
 * tombstoning through slashing (`EvidenceSlashingKeeper`).
 *
 * The age limits (consensus params `evidence.max_age_num_blocks` / `max_age_duration`) come from the keeper
 * option `evidenceParams` (a value, or a function of the context): the context carries no consensus params.
 * Without the option, CometBFT's defaults apply (100000 blocks, 48h).
 */
import type { Context, Misbehavior } from '@chain/app';
import type { ProtoRegistry, google_protobuf } from '@chain/codec';
import { fromBech32 } from '@chain/crypto';
import { EQUIVOCATION_TYPE, equivocationFromMisbehavior, equivocationHash } from './equivocation.js';
import type { EvidenceSlashingKeeper, EvidenceStakingKeeper } from './expected-keepers.js';
import type { Equivocation } from './gen/chain/evidence/v1beta1.js';
import { evidenceSchema } from './keys.js';
import type { EvidenceState } from './keys.js';

/** `sdk.ValidatorUpdateDelay` */
export const VALIDATOR_UPDATE_DELAY = 1n;
/** `types.DoubleSignJailEndTime`: 9999-12-31T23:59:59Z */
export const DOUBLE_SIGN_JAIL_END_TIME: google_protobuf.Timestamp = { seconds: 253402300799n, nanos: 0 };
/** the bond status `Unbonded` (chain.staking.v1beta1.BondStatus) */
const BOND_STATUS_UNBONDED = 1;
/** abci.MisbehaviorType: DUPLICATE_VOTE, LIGHT_CLIENT_ATTACK */
const DUPLICATE_VOTE = 1;
const LIGHT_CLIENT_ATTACK = 2;

/** The consensus params' evidence age limits. */
export interface EvidenceAgeParams {
  readonly maxAgeNumBlocks: bigint;
  /** nanoseconds */
  readonly maxAgeDuration: bigint;
}

/** CometBFT's `DefaultEvidenceParams()`: 100000 blocks, 48h. */
export const DEFAULT_EVIDENCE_AGE_PARAMS: EvidenceAgeParams = Object.freeze({
  maxAgeNumBlocks: 100000n,
  maxAgeDuration: 48n * 3600n * 1_000_000_000n,
});

export interface EvidenceKeeperOptions {
  readonly registry: ProtoRegistry;
  readonly stakingKeeper: EvidenceStakingKeeper;
  readonly slashingKeeper: EvidenceSlashingKeeper;
  /** bech32 prefix of accounts: consensus addresses are `<prefix>valcons` */
  readonly bech32Prefix?: string;
  readonly consensusAddressPrefix?: string;
  /** the consensus params' evidence age limits (default CometBFT's); a function reads them per block */
  readonly evidenceParams?: EvidenceAgeParams | ((ctx: Context) => EvidenceAgeParams | undefined);
}

function nanosOf(t: google_protobuf.Timestamp | null): bigint {
  const ts = t ?? { seconds: -62135596800n, nanos: 0 };
  return ts.seconds * 1_000_000_000n + BigInt(ts.nanos);
}

export class EvidenceKeeper {
  readonly registry: ProtoRegistry;
  readonly sk: EvidenceStakingKeeper;
  readonly slashingKeeper: EvidenceSlashingKeeper;
  readonly consPrefix: string;
  readonly state: EvidenceState;
  private readonly ageParams: EvidenceKeeperOptions['evidenceParams'];

  constructor(opts: EvidenceKeeperOptions) {
    this.registry = opts.registry;
    this.sk = opts.stakingKeeper;
    this.slashingKeeper = opts.slashingKeeper;
    const cons = opts.consensusAddressPrefix ?? (opts.bech32Prefix ? opts.bech32Prefix + 'valcons' : undefined);
    if (!cons) throw new Error('evidence keeper: bech32Prefix or consensusAddressPrefix is required');
    this.consPrefix = cons;
    this.ageParams = opts.evidenceParams ?? DEFAULT_EVIDENCE_AGE_PARAMS;
    this.state = evidenceSchema(opts.registry);
  }

  /** The age limits of this block (undefined: no age check, as the SDK without consensus params). */
  evidenceAgeParams(ctx: Context): EvidenceAgeParams | undefined {
    return typeof this.ageParams === 'function' ? this.ageParams(ctx) : this.ageParams;
  }

  /** `Hash()` of an equivocation. */
  hash(e: Equivocation): Uint8Array {
    return equivocationHash(this.registry, e);
  }

  /** `SetEvidence`: stored under its hash, packed in an Any. */
  setEvidence(ctx: Context, e: Equivocation): void {
    this.state.Evidence.set(ctx, this.hash(e), this.packEvidence(e));
  }

  packEvidence(e: Equivocation): google_protobuf.Any {
    const any = this.registry.packAny(EQUIVOCATION_TYPE, e);
    return { type_url: any.type_url, value: any.value };
  }

  /** `GetEvidence` (as the stored Any). */
  getEvidenceAny(ctx: Context, hash: Uint8Array): google_protobuf.Any | undefined {
    return this.state.Evidence.get(ctx, hash);
  }

  getEvidence(ctx: Context, hash: Uint8Array): Equivocation | undefined {
    const any = this.getEvidenceAny(ctx, hash);
    return any ? this.registry.unpackAny<Equivocation>(any).message : undefined;
  }

  /** `GetAllEvidence`: in hash order. */
  getAllEvidence(ctx: Context): google_protobuf.Any[] {
    return [...this.state.Evidence.values(ctx)];
  }

  /**
   * `HandleEquivocationEvidence` (infraction.go): ignores evidence of an unknown consensus key, too old
   * evidence (older than both limits), a missing or unbonded validator and a tombstoned one; throws (the
   * SDK panics) without signing info; else slashes by `slash_fraction_double_sign` at the distribution
   * height (infraction height − ValidatorUpdateDelay) with the evidence's power, jails if not jailed, jails
   * until 9999-12-31T23:59:59Z, tombstones, and stores the evidence.
   */
  handleEquivocationEvidence(ctx: Context, e: Equivocation): void {
    const consAddr = fromBech32(e.consensus_address).data;
    // evidence that cannot be handled is ignored
    if (!this.slashingKeeper.getPubkey(ctx, consAddr)) return;

    const blockNanos = BigInt(ctx.block.time.getTime()) * 1_000_000n;
    const ageDuration = blockNanos - nanosOf(e.time);
    const ageBlocks = BigInt(ctx.block.height) - e.height;
    const limits = this.evidenceAgeParams(ctx);
    if (limits && ageDuration > limits.maxAgeDuration && ageBlocks > limits.maxAgeNumBlocks) return; // too old

    const validator = this.sk.getValidatorByConsAddr(ctx, consAddr);
    if (!validator || validator.status === BOND_STATUS_UNBONDED) return;
    const wasJailed = validator.jailed;

    if (!this.slashingKeeper.hasValidatorSigningInfo(ctx, consAddr)) {
      throw new Error(`expected signing info for validator ${e.consensus_address} but not found`);
    }
    // ignore if the validator is already tombstoned
    if (this.slashingKeeper.isTombstoned(ctx, consAddr)) return;

    // the stake distribution that signed the block: subtract ValidatorUpdateDelay (may be negative)
    const distributionHeight = e.height - VALIDATOR_UPDATE_DELAY;
    this.slashingKeeper.slash(ctx, consAddr, this.slashingKeeper.slashFractionDoubleSign(ctx), e.power, distributionHeight);
    // jail if not already jailed (begins unbonding)
    if (!wasJailed) this.slashingKeeper.jail(ctx, consAddr);
    this.slashingKeeper.jailUntil(ctx, consAddr, DOUBLE_SIGN_JAIL_END_TIME);
    this.slashingKeeper.tombstone(ctx, consAddr);
    this.setEvidence(ctx, e);
  }

  /**
   * BeginBlocker (abci.go): every misbehaviour of type DUPLICATE_VOTE or LIGHT_CLIENT_ATTACK becomes an
   * Equivocation (`FromABCIEvidence`) and is handled; other types are ignored (the SDK logs them).
   */
  beginBlocker(ctx: Context): void {
    for (const m of ctx.comet.misbehavior) {
      if ((m.type as number) === DUPLICATE_VOTE || (m.type as number) === LIGHT_CLIENT_ATTACK) {
        this.handleEquivocationEvidence(ctx, this.fromMisbehavior(m));
      }
    }
  }

  fromMisbehavior(m: Misbehavior): Equivocation {
    return equivocationFromMisbehavior(m, this.consPrefix);
  }
}
