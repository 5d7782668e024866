/** `chaind localnet start --genesis-patch FILE`: the JSON merge of a patch into the localnet's genesis. */
import { expect } from 'chai';
import { deepMerge } from '../src/localnet.js';

describe('localnet --genesis-patch (deepMerge)', () => {
  it('merges objects key by key and replaces other values, arrays whole', () => {
    const g: any = { chain_id: 'c', app_state: { gov: { voting_params: { voting_period: '20s' }, deposit_params: { min_deposit: [{ denom: 'a', amount: '1' }] } }, bank: { x: 1 } } };
    deepMerge(g, { app_state: { gov: { voting_params: { voting_period: '3600s' }, deposit_params: { min_deposit: [] } } }, chain_id: 'd' }, 'genesis');
    expect(g).to.deep.equal({ chain_id: 'd', app_state: { gov: { voting_params: { voting_period: '3600s' }, deposit_params: { min_deposit: [] } }, bank: { x: 1 } } });
  });
  it('adds keys that are missing and refuses an object patch over a non-object', () => {
    const g: any = { app_state: { gov: { n: 1 } } };
    deepMerge(g, { app_state: { newmod: { a: 1 } } }, 'genesis');
    expect(g.app_state.newmod).to.deep.equal({ a: 1 });
    expect(() => deepMerge(g, { app_state: { gov: { n: { deeper: 1 } } } }, 'genesis')).to.throw('--genesis-patch: genesis.app_state.gov.n is not an object in the genesis');
    expect(() => deepMerge(g, [1], 'genesis')).to.throw('--genesis-patch: genesis must be a JSON object');
  });
});
