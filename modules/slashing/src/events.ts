/** Events of x/slashing v0.45 (x/slashing/types/events.go): types, attribute keys, values. */
import type { Context } from '@chain/app';

export const EventType = {
  Slash: 'slash',
  Liveness: 'liveness',
} as const;

export const AttributeKey = {
  Address: 'address',
  Height: 'height',
  Power: 'power',
  Reason: 'reason',
  Jailed: 'jailed',
  MissedBlocks: 'missed_blocks',
} as const;

export const AttributeValue = {
  DoubleSign: 'double_sign',
  MissingSignature: 'missing_signature',
  Category: 'slashing',
} as const;

export function emit(ctx: Context, type: string, attributes: [string, string][]): void {
  ctx.events.emit(type, attributes);
}
