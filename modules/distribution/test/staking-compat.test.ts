/**
 * Compile-time check that @chain/staking's StakingKeeper implements the expected keeper declared here (a
 * type import only; the root typecheck fails if a name or signature drifts).
 */
import { expect } from 'chai';
import type { StakingKeeper } from '@chain/staking';
import type { DistributionStakingKeeper } from '../src/index.js';

type Implements<T, _U extends T> = true;
const ok: Implements<DistributionStakingKeeper, StakingKeeper> = true;

describe('distribution expected staking keeper', () => {
  it('is implemented by @chain/staking StakingKeeper (typecheck)', () => {
    expect(ok).to.equal(true);
  });
});
