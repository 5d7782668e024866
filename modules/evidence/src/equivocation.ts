/** The Equivocation evidence (x/evidence/types/evidence.go of SDK v0.45): hash, ValidateBasic, from ABCI. */
import type { Misbehavior } from '@chain/app';
import type { ProtoRegistry, google_protobuf } from '@chain/codec';
import { sha256, toBech32 } from '@chain/crypto';
import type { Equivocation } from './gen/chain/evidence/v1beta1.js';

export const EQUIVOCATION_TYPE = 'chain.evidence.v1beta1.Equivocation';
/** `RouteEquivocation` / `TypeEquivocation` */
export const ROUTE_EQUIVOCATION = 'equivocation';

/** `Hash()`: SHA-256 (tmhash) of the protobuf encoding. */
export function equivocationHash(registry: ProtoRegistry, e: Equivocation): Uint8Array {
  return sha256(registry.encode(EQUIVOCATION_TYPE, e));
}

const pad = (n: number, w = 2): string => n.toString().padStart(w, '0');

/** Go's `time.Time.String()` of a UTC time: `2006-01-02 15:04:05.999999999 +0000 UTC`. */
export function goTimeString(t: google_protobuf.Timestamp | null): string {
  const ts = t ?? { seconds: -62135596800n, nanos: 0 };
  const d = new Date(Number(ts.seconds) * 1000);
  const frac = ts.nanos === 0 ? '' : '.' + ts.nanos.toString().padStart(9, '0').replace(/0+$/, '');
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac} +0000 UTC`;
}

/**
 * `ValidateBasic`, in its order and with its messages (plain errors): `invalid equivocation time: <go time>`
 * (Unix seconds ≤ 0), `invalid equivocation height: <h>` (< 1), `invalid equivocation validator power: <p>`
 * (< 1), `invalid equivocation validator consensus address: ` (empty).
 */
export function validateEquivocation(e: Equivocation): void {
  const seconds = e.time?.seconds ?? -62135596800n;
  if (seconds <= 0n) throw new Error(`invalid equivocation time: ${goTimeString(e.time)}`);
  if (e.height < 1n) throw new Error(`invalid equivocation height: ${e.height}`);
  if (e.power < 1n) throw new Error(`invalid equivocation validator power: ${e.power}`);
  if (e.consensus_address === '') throw new Error(`invalid equivocation validator consensus address: ${e.consensus_address}`);
}

/** `FromABCIEvidence`: height, time, the power CometBFT reported, the consensus address in bech32. */
export function equivocationFromMisbehavior(m: Misbehavior, consPrefix: string): Equivocation {
  const ms = BigInt(m.time.getTime());
  let seconds = ms / 1000n;
  let rem = ms % 1000n;
  if (rem < 0n) { rem += 1000n; seconds -= 1n; }
  return {
    height: BigInt(m.height),
    time: { seconds, nanos: Number(rem) * 1_000_000 },
    power: m.validator.power,
    consensus_address: toBech32(consPrefix, m.validator.address),
  };
}
