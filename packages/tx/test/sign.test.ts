import { expect } from 'chai';
import { makeSignBytes, makeSignDoc } from '@cosmjs/proto-signing';
import { Errors } from '@chain/errors';
import { sha256, signSecp256k1Digest, verifySecp256k1 } from '@chain/crypto';
import { decodeTx, directSignBytes, msgSigners, signerFieldOf, txSigners } from '../src/index.js';
import { makeRegistry, devKey, sendMsg, multiSendMsg, bodyBytes, authInfoBytes, txRaw, concat, varintField } from './helpers.js';

const registry = makeRegistry();
const A = devKey(0);
const B = devKey(1);
const C = devKey(2);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('tx: directSignBytes', () => {
  const cases: [string, bigint][] = [['chain-1', 7n], ['chain-1', 0n], ['a-much-longer-chain-id-9000', 123456789012345n]];
  for (const [chainId, accountNumber] of cases) {
    it(`equals cosmjs makeSignBytes(makeSignDoc(...)) for chain ${chainId}, account ${accountNumber}`, () => {
      const body = bodyBytes([sendMsg(A.address, B.address)], 'hi');
      const auth = authInfoBytes([A.pub], 4n);
      const tx = decodeTx(registry, txRaw(body, auth));
      const ours = directSignBytes(registry, tx, chainId, accountNumber);
      const theirs = makeSignBytes(makeSignDoc(body, auth, chainId, accountNumber));
      expect(hex(ours)).to.equal(hex(theirs));
    });
  }

  it('uses the exact body bytes of the tx (non-canonical encodings are signed as sent)', () => {
    // a body with a non-critical extra field: re-encoding the decoded body would drop it
    const body = concat(bodyBytes([sendMsg(A.address, B.address)]), varintField(1025, 1));
    const auth = authInfoBytes([A.pub]);
    const tx = decodeTx(registry, txRaw(body, auth));
    expect(hex(directSignBytes(registry, tx, 'c', 1n))).to.equal(hex(makeSignBytes(makeSignDoc(body, auth, 'c', 1n))));
  });

  it('a signature over the sign bytes verifies, and not for another chain id or account number', () => {
    const body = bodyBytes([sendMsg(A.address, B.address)]);
    const auth = authInfoBytes([A.pub]);
    const signBytes = makeSignBytes(makeSignDoc(body, auth, 'chain-1', 3n));
    const sig = signSecp256k1Digest(A.priv, sha256(signBytes));
    const tx = decodeTx(registry, txRaw(body, auth, [sig]));
    expect(verifySecp256k1(A.pub, directSignBytes(registry, tx, 'chain-1', 3n), tx.signatures[0]!)).to.equal(true);
    expect(verifySecp256k1(A.pub, directSignBytes(registry, tx, 'chain-2', 3n), tx.signatures[0]!)).to.equal(false);
    expect(verifySecp256k1(A.pub, directSignBytes(registry, tx, 'chain-1', 4n), tx.signatures[0]!)).to.equal(false);
  });
});

describe('tx: signers', () => {
  it('signerFieldOf reads the (chain.msg.v1.signer) option', () => {
    expect(signerFieldOf(registry.type('chain.bank.v1beta1.MsgSend'))).to.equal('from_address');
    expect(signerFieldOf(registry.type('chain.bank.v1beta1.MsgMultiSend'))).to.equal('inputs');
    expect(signerFieldOf(registry.type('chain.bank.v1beta1.Input'))).to.equal(undefined);
  });

  it('msgSigners: a string field, or the addresses of a list of inputs', () => {
    const tx = decodeTx(registry, txRaw(bodyBytes([sendMsg(B.address, A.address), multiSendMsg([C.address, A.address], [B.address])]), authInfoBytes([B.pub])));
    expect(msgSigners(registry, tx.msgs[0]!)).to.deep.equal([B.address]);
    expect(msgSigners(registry, tx.msgs[1]!)).to.deep.equal([C.address, A.address]);
  });

  it('txSigners: unique signers in order of first appearance', () => {
    const msgs = [sendMsg(B.address, A.address), sendMsg(A.address, C.address), multiSendMsg([C.address, B.address], [A.address]), sendMsg(B.address, C.address)];
    const tx = decodeTx(registry, txRaw(bodyBytes(msgs), authInfoBytes([B.pub, A.pub, C.pub])));
    expect(txSigners(registry, tx)).to.deep.equal([B.address, A.address, C.address]);
    const none = decodeTx(registry, txRaw(bodyBytes([]), authInfoBytes([])));
    expect(txSigners(registry, none)).to.deep.equal([]);
  });

  it('txSigners: a fee payer that is not a message signer comes last', () => {
    const withPayer = (payer: string) => {
      const auth = registry.encode('chain.tx.v1beta1.AuthInfo', { signer_infos: [], fee: { amount: [], gas_limit: 1n, payer, granter: '' } });
      return decodeTx(registry, txRaw(bodyBytes([sendMsg(B.address, A.address), sendMsg(A.address, B.address)]), auth));
    };
    expect(txSigners(registry, withPayer(C.address))).to.deep.equal([B.address, A.address, C.address]);
    expect(txSigners(registry, withPayer(A.address))).to.deep.equal([B.address, A.address]);
    expect(txSigners(registry, withPayer(''))).to.deep.equal([B.address, A.address]);
  });

  it('a message type without a signer option is an invalid type (code 29)', () => {
    const input = registry.encode('chain.bank.v1beta1.Input', { address: A.address, coins: [] });
    const tx = decodeTx(registry, txRaw(bodyBytes([{ typeUrl: '/chain.bank.v1beta1.Input', value: input }]), authInfoBytes([A.pub])));
    try {
      txSigners(registry, tx);
      expect.fail('should have thrown');
    } catch (e) {
      expect(Errors.InvalidType.is(e), String(e)).to.equal(true);
      expect((e as Error).message).to.equal('message /chain.bank.v1beta1.Input declares no signer: invalid type');
    }
  });
});
