import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { Errors } from '@chain/errors';
import { decodeTx } from '../src/index.js';
import {
  makeRegistry, devKey, sendMsg, bodyBytes, authInfoBytes, txRaw, concat, lenField, varintField, tag, varint, anyBytes,
} from './helpers.js';

const registry = makeRegistry();
const A = devKey(0);
const B = devKey(1);

/** Decoding must fail with sdk code 2 and exactly this log. */
function expectParseError(raw: Uint8Array, log: string | RegExp): void {
  let err: unknown;
  try {
    decodeTx(registry, raw);
  } catch (e) {
    err = e;
  }
  expect(err, 'decodeTx should have thrown').to.be.instanceOf(Error);
  expect(Errors.TxDecode.is(err), String(err)).to.equal(true);
  const e = err as { code: number; codespace: string; message: string };
  expect([e.code, e.codespace]).to.deep.equal([2, 'sdk']);
  if (typeof log === 'string') expect(e.message).to.equal(log);
  else expect(e.message).to.match(log);
}

const goodBody = (): Uint8Array => bodyBytes([sendMsg(A.address, B.address)], 'memo!', 77n);
const goodAuth = (): Uint8Array => authInfoBytes([A.pub]);

describe('tx: decodeTx', () => {
  it('decodes a tx built with cosmjs-types', () => {
    const body = goodBody();
    const auth = goodAuth();
    const sig = new Uint8Array(64).fill(9);
    const raw = txRaw(body, auth, [sig]);
    const tx = decodeTx(registry, raw);
    expect(tx.raw).to.equal(raw);
    expect(Buffer.from(tx.hash).toString('hex')).to.equal(createHash('sha256').update(raw).digest('hex'));
    expect(Buffer.from(tx.bodyBytes).equals(Buffer.from(body))).to.equal(true);
    expect(Buffer.from(tx.authInfoBytes).equals(Buffer.from(auth))).to.equal(true);
    expect(tx.signatures.map((s) => Buffer.from(s).toString('hex'))).to.deep.equal([Buffer.from(sig).toString('hex')]);
    expect(tx.body.memo).to.equal('memo!');
    expect(tx.body.timeout_height).to.equal(77n);
    expect(tx.msgs).to.have.length(1);
    expect(tx.msgs[0]!.name).to.equal('chain.bank.v1beta1.MsgSend');
    expect(tx.msgs[0]!.typeUrl).to.equal('/chain.bank.v1beta1.MsgSend');
    expect(tx.msgs[0]!.message).to.deep.equal({ from_address: A.address, to_address: B.address, amount: [{ denom: 'achain', amount: '5' }] });
    const si = tx.authInfo.signer_infos[0]!;
    expect(si.sequence).to.equal(3n);
    expect(si.mode_info?.single?.mode).to.equal(1);
    expect(si.public_key?.type_url).to.equal('/cosmos.crypto.secp256k1.PubKey');
    expect(tx.authInfo.fee).to.deep.include({ gas_limit: 200000n, payer: '', granter: '' });
    expect(tx.authInfo.fee!.amount).to.deep.equal([{ denom: 'achain', amount: '250' }]);
  });

  it('resolves alias type URLs to the canonical /chain. names', () => {
    for (const url of ['/cosmos.bank.v1beta1.MsgSend', '/chain.bank.v1beta1.MsgSend']) {
      const tx = decodeTx(registry, txRaw(bodyBytes([sendMsg(A.address, B.address, '1', url)]), goodAuth()));
      expect([tx.msgs[0]!.name, tx.msgs[0]!.typeUrl]).to.deep.equal(['chain.bank.v1beta1.MsgSend', '/chain.bank.v1beta1.MsgSend']);
      // the body keeps the type URL as sent (it is what was signed)
      expect(tx.body.messages[0]!.type_url).to.equal(url);
    }
  });

  it('rejects garbage with code 2 (tx parse error)', () => {
    expectParseError(new Uint8Array(), 'tx bytes are empty: tx parse error');
    expectParseError(Uint8Array.from([0xff, 0xff, 0xff, 0xff]), /: tx parse error$/);
    expectParseError(new TextEncoder().encode('hello world, not a tx'), /: tx parse error$/);
    // a length running past the end
    expectParseError(concat(tag(1, 2), varint(50), Uint8Array.from([1, 2, 3])), /: tx parse error$/);
    // a body that is not a TxBody
    expectParseError(txRaw(Uint8Array.from([0x0a, 0x05, 0x01]), goodAuth()), /: tx parse error$/);
  });

  it('rejects an unresolvable message type URL', () => {
    expectParseError(txRaw(bodyBytes([{ typeUrl: '/foo.bar.MsgBaz', value: new Uint8Array() }]), goodAuth()), 'unable to resolve type URL /foo.bar.MsgBaz: tx parse error');
    expectParseError(txRaw(bodyBytes([{ typeUrl: '/cosmos.bank.v1beta1.MsgNope', value: new Uint8Array() }]), goodAuth()), 'unable to resolve type URL /cosmos.bank.v1beta1.MsgNope: tx parse error');
  });

  it('a tx with no messages or no signatures still decodes (those are validate-basic errors)', () => {
    const tx = decodeTx(registry, txRaw(bodyBytes([]), goodAuth(), []));
    expect(tx.msgs).to.deep.equal([]);
    expect(tx.signatures).to.deep.equal([]);
  });
});

describe('tx: ADR-027 and unknown fields', () => {
  const body = goodBody();
  const auth = goodAuth();
  const sig = new Uint8Array(64).fill(2);

  it('TxRaw: only bytes fields (wrong wire type)', () => {
    expectParseError(concat(varintField(1, 5), lenField(2, auth)), 'expected 2 wire type, got 0: tx parse error');
    expectParseError(concat(lenField(1, body), lenField(2, auth), varintField(4, 1)), 'expected 2 wire type, got 0: tx parse error');
  });

  it('TxRaw: fields in ascending order; repeated signatures are fine', () => {
    expectParseError(concat(lenField(2, auth), lenField(1, body), lenField(3, sig)), 'txRaw must follow ADR-027, got tagNum 1 after tagNum 2: tx parse error');
    expectParseError(concat(lenField(1, body), lenField(3, sig), lenField(2, auth)), 'txRaw must follow ADR-027, got tagNum 2 after tagNum 3: tx parse error');
    const two = decodeTx(registry, concat(lenField(1, body), lenField(2, auth), lenField(3, sig), lenField(3, sig)));
    expect(two.signatures).to.have.length(2);
  });

  it('TxRaw: length prefixes must be minimal varints (no hash malleability)', () => {
    // the same value with one redundant 0x00 continuation byte
    const padVarint = (n: number): Uint8Array => { const v = varint(n); v[v.length - 1]! |= 0x80; return concat(v, Uint8Array.from([0])); };
    expect(body.length).to.be.within(128, 16383);
    const padded = concat(tag(1, 2), padVarint(body.length), body, lenField(2, auth), lenField(3, sig));
    expectParseError(padded, 'length prefix varint for tagNum 1 is not as short as possible, read 3, only need 2: tx parse error');
    // the padded and the minimal encodings would otherwise be the same tx under two hashes
    expect(decodeTx(registry, concat(lenField(1, body), lenField(2, auth), lenField(3, sig))).body.memo).to.equal('memo!');
    const paddedSig = concat(lenField(1, body), lenField(2, auth), tag(3, 2), Uint8Array.from([0xc0, 0x80, 0x00]), sig);
    expectParseError(paddedSig, 'length prefix varint for tagNum 3 is not as short as possible, read 3, only need 1: tx parse error');
  });

  it('TxRaw: unknown fields are rejected', () => {
    expectParseError(concat(lenField(1, body), lenField(2, auth), lenField(3, sig), lenField(4, new Uint8Array(2))), 'errUnknownField "chain.tx.v1beta1.TxRaw": {TagNum: 4, WireType:"bytes"}: tx parse error');
    expectParseError(concat(lenField(1, body), lenField(2, auth), lenField(1025, new Uint8Array(1))), 'errUnknownField "chain.tx.v1beta1.TxRaw": {TagNum: 1025, WireType:"bytes"}: tx parse error');
  });

  it('TxBody: unknown critical fields are rejected, non-critical ones (bit 11 set) pass', () => {
    expectParseError(txRaw(concat(body, varintField(5, 1)), auth), 'errUnknownField "chain.tx.v1beta1.TxBody": {TagNum: 5, WireType:"varint"}: tx parse error');
    expectParseError(txRaw(concat(body, lenField(1022, Uint8Array.from([1]))), auth), 'errUnknownField "chain.tx.v1beta1.TxBody": {TagNum: 1022, WireType:"bytes"}: tx parse error');
    // 2048 does not have the 1024 bit set: critical
    expectParseError(txRaw(concat(body, varintField(2048, 1)), auth), 'errUnknownField "chain.tx.v1beta1.TxBody": {TagNum: 2048, WireType:"varint"}: tx parse error');
    for (const id of [1024, 1025, 2000, 3072]) {
      const tx = decodeTx(registry, txRaw(concat(body, varintField(id, 1)), auth));
      expect(tx.body.memo).to.equal('memo!');
    }
  });

  it('AuthInfo: every unknown field is rejected, non-critical or not', () => {
    expectParseError(txRaw(body, concat(auth, lenField(1025, Uint8Array.from([1])))), 'errUnknownField "chain.tx.v1beta1.AuthInfo": {TagNum: 1025, WireType:"bytes"}: tx parse error');
    expectParseError(txRaw(body, concat(auth, concat(tag(9, 5), Uint8Array.from([0, 0, 0, 0])))), 'errUnknownField "chain.tx.v1beta1.AuthInfo": {TagNum: 9, WireType:"fixed32"}: tx parse error');
  });

  it('unknown fields nested in messages and in Any values are rejected too', () => {
    // inside the Fee of the AuthInfo
    const fee = concat(lenField(1, concat(lenField(1, new TextEncoder().encode('achain')), lenField(2, new TextEncoder().encode('1')))), varintField(2, 1000), varintField(7, 1));
    expectParseError(txRaw(body, lenField(2, fee)), 'errUnknownField "chain.tx.v1beta1.Fee": {TagNum: 7, WireType:"varint"}: tx parse error');
    // inside the MsgSend carried by an Any of the body
    const msg = sendMsg(A.address, B.address);
    const badMsg = { typeUrl: msg.typeUrl, value: concat(msg.value, lenField(9, Uint8Array.from([1]))) };
    expectParseError(txRaw(bodyBytes([badMsg]), auth), 'errUnknownField "chain.bank.v1beta1.MsgSend": {TagNum: 9, WireType:"bytes"}: tx parse error');
    // inside a Coin inside the MsgSend
    const coin = concat(lenField(1, new TextEncoder().encode('achain')), lenField(2, new TextEncoder().encode('1')), varintField(3, 1));
    const badCoin = { typeUrl: msg.typeUrl, value: concat(lenField(1, new TextEncoder().encode(A.address)), lenField(2, new TextEncoder().encode(B.address)), lenField(3, coin)) };
    expectParseError(txRaw(bodyBytes([badCoin]), auth), 'errUnknownField "chain.base.v1beta1.Coin": {TagNum: 3, WireType:"varint"}: tx parse error');
    // in the Any wrapper itself
    const badAny = concat(anyBytes(msg.typeUrl, msg.value), varintField(3, 1));
    expectParseError(txRaw(lenField(1, badAny), auth), 'errUnknownField "google.protobuf.Any": {TagNum: 3, WireType:"varint"}: tx parse error');
    // in the public key of a signer info
    const pk = concat(lenField(1, A.pub), varintField(2, 1));
    const signerInfo = concat(lenField(1, anyBytes('/cosmos.crypto.secp256k1.PubKey', pk)), lenField(2, lenField(1, varintField(1, 1))), varintField(3, 0));
    expectParseError(txRaw(body, lenField(1, signerInfo)), 'errUnknownField "chain.crypto.secp256k1.PubKey": {TagNum: 2, WireType:"varint"}: tx parse error');
    // an unresolvable public key type
    const unknownPk = concat(lenField(1, anyBytes('/some.Key', A.pub)), varintField(3, 0));
    expectParseError(txRaw(body, lenField(1, unknownPk)), 'unable to resolve type URL /some.Key: tx parse error');
  });

  it('non-critical unknown fields nested in body messages pass (as in the SDK)', () => {
    const msg = sendMsg(A.address, B.address);
    const tx = decodeTx(registry, txRaw(bodyBytes([{ typeUrl: msg.typeUrl, value: concat(msg.value, varintField(1030, 1)) }]), auth));
    expect(tx.msgs[0]!.message.to_address).to.equal(B.address);
  });
});
