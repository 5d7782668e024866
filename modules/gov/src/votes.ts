/** Vote options (x/gov/types/vote.go of SDK v0.45): validity, their text in events and errors, the legacy option. */
import { Dec } from '@chain/math';
import type { Vote, WeightedVoteOption } from './gen/chain/gov/v1beta1.js';
import { VoteOption } from './gen/chain/gov/v1beta1.js';

const NAMES: Record<number, string> = Object.fromEntries(Object.entries(VoteOption).map(([k, v]) => [v, k]));

/** `VoteOption.String()`: the enum name, or the number for an unknown value. */
export function voteOptionName(o: number): string {
  return NAMES[o] ?? String(o);
}

/** `ValidVoteOption`: yes, abstain, no or no-with-veto. */
export function validVoteOption(o: number): boolean {
  return o === VoteOption.VOTE_OPTION_YES || o === VoteOption.VOTE_OPTION_ABSTAIN || o === VoteOption.VOTE_OPTION_NO
    || o === VoteOption.VOTE_OPTION_NO_WITH_VETO;
}

/** The weight of a weighted option as a Dec (atomics text; empty = zero). */
export function weightOf(o: WeightedVoteOption): Dec {
  return o.weight === '' ? Dec.zero() : Dec.fromAtomics(o.weight);
}

/** `ValidWeightedVoteOption`: weight in (0, 1] and a valid option. */
export function validWeightedVoteOption(o: WeightedVoteOption): boolean {
  const w = weightOf(o);
  if (!w.isPositive() || w.gt(Dec.one())) return false;
  return validVoteOption(o.option);
}

/** `WeightedVoteOption.String()` (gogoproto compact text): `option:VOTE_OPTION_YES weight:"1.000000000000000000"`. */
export function weightedOptionString(o: WeightedVoteOption): string {
  return `option:${voteOptionName(o.option)} weight:"${weightOf(o).toString()}"`;
}

/** `WeightedVoteOptions.String()`: one option per line (the `proposal_vote` event's `option`). */
export function weightedOptionsString(os: readonly WeightedVoteOption[]): string {
  return os.map(weightedOptionString).join('\n').trim();
}

/** `NewNonSplitVoteOption`: one option with weight 1. */
export function nonSplitVoteOption(o: number): WeightedVoteOption[] {
  return [{ option: o, weight: Dec.one().atomics() }];
}

/** `populateLegacyOption`: the deprecated `option` is the single option of weight exactly 1, else unspecified. */
export function populateLegacyOption(v: Vote): Vote {
  const single = v.options.length === 1 && weightOf(v.options[0]!).equal(Dec.one());
  return { ...v, option: single ? v.options[0]!.option : VoteOption.VOTE_OPTION_UNSPECIFIED };
}
