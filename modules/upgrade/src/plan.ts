/** Plan rules of SDK v0.45 (x/upgrade/types/plan.go). */
import type { google_protobuf } from '@chain/codec';
import { UpgradeErrors } from './errors.js';
import type { Plan } from './gen/chain/upgrade/v1beta1.js';

/** Go's zero `time.Time` as a protobuf Timestamp (0001-01-01T00:00:00Z): the only `time` a plan may have. */
export const ZERO_TIME: Readonly<google_protobuf.Timestamp> = Object.freeze({ seconds: -62135596800n, nanos: 0 });

/** The time is unset or Go's zero time (gogoproto `stdtime`, non-nullable: both decode to the zero time). */
export function isZeroTime(t: google_protobuf.Timestamp | null | undefined): boolean {
  return !t || (t.seconds === ZERO_TIME.seconds && t.nanos === 0);
}

/**
 * `Plan.ValidateBasic`, in the SDK's order: a time is `sdk` 18 `time-based upgrades have been deprecated in
 * the SDK`, an upgraded client state `upgrade logic for IBC has been moved to the IBC module`, an empty name
 * `name cannot be empty`, a height ≤ 0 `height must be greater than 0`.
 */
export function validatePlan(p: Plan): void {
  if (!isZeroTime(p.time)) throw UpgradeErrors.InvalidRequest.wrap('time-based upgrades have been deprecated in the SDK');
  if (p.upgraded_client_state) throw UpgradeErrors.InvalidRequest.wrap('upgrade logic for IBC has been moved to the IBC module');
  if (p.name.length === 0) throw UpgradeErrors.InvalidRequest.wrap('name cannot be empty');
  if (p.height <= 0n) throw UpgradeErrors.InvalidRequest.wrap('height must be greater than 0');
}

/** The plan is due at `height` (`ShouldExecute`). */
export function shouldExecute(p: Plan, height: number): boolean {
  return p.height > 0n && p.height <= BigInt(height);
}

/** `DueAt`: `height: <h>`. */
export function dueAt(p: Plan): string {
  return `height: ${p.height}`;
}

/** `BuildUpgradeNeededMsg`: `UPGRADE "<name>" NEEDED at height: <h>: <info>`. */
export function upgradeNeededMsg(p: Plan): string {
  return `UPGRADE "${p.name}" NEEDED at ${dueAt(p)}: ${p.info}`;
}

/** `Plan.String()`. */
export function planString(p: Plan): string {
  return `Upgrade Plan\n  Name: ${p.name}\n  ${dueAt(p)}\n  Info: ${p.info}.`;
}

/** The plan as stored: the time normalized to Go's zero time (what the SDK keeps and serves). */
export function normalizePlan(p: Plan): Plan {
  return { name: p.name, time: { ...ZERO_TIME }, height: p.height, info: p.info, upgraded_client_state: null };
}
