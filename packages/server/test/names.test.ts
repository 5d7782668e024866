import { expect } from 'chai';
import { cosmosName } from '../src/index.js';

describe('gRPC names', () => {
  it('derives Cosmos names for services', () => {
    expect(cosmosName('chain.bank.v1beta1.Query')).to.equal('cosmos.bank.v1beta1.Query');
    expect(cosmosName('chain.base.consensus.v1beta1.Service')).to.equal('cosmos.base.tendermint.v1beta1.Service');
    expect(cosmosName('chain.tx.v1beta1.Service')).to.equal('cosmos.tx.v1beta1.Service');
    expect(cosmosName('tendermint.types.Foo')).to.equal(undefined);
  });
});
