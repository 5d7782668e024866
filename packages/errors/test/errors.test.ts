import { expect } from 'chai';
import { Errors, registerError, abciInfo, ChainError, StatusError, grpcStatusOf, httpStatusOfGrpc, GrpcCode } from '../src/index.js';

describe('errors', () => {
  it('wraps registered errors as the SDK logs them', () => {
    const e = Errors.WrongSequence.wrap('account sequence mismatch, expected 1, got 0');
    expect(e).to.be.instanceOf(Error).and.instanceOf(ChainError);
    expect(e.message).to.equal('account sequence mismatch, expected 1, got 0: incorrect account sequence');
    expect(abciInfo(e)).to.deep.equal({ codespace: 'sdk', code: 32, log: e.message });
    expect(Errors.WrongSequence.is(e)).to.equal(true);
    expect(Errors.TxDecode.is(e)).to.equal(false);
  });

  it('reports unregistered errors as code 1 in codespace undefined', () => {
    expect(abciInfo(new Error('boom'))).to.deep.equal({ codespace: 'undefined', code: 1, log: 'boom' });
  });

  it('refuses to register a (codespace, code) twice with another meaning', () => {
    registerError('test', 1, 'first');
    expect(registerError('test', 1, 'first').description).to.equal('first');
    expect(() => registerError('test', 1, 'second')).to.throw(/already registered/);
  });

  it('maps gRPC codes to HTTP statuses like grpc-gateway', () => {
    expect(httpStatusOfGrpc(GrpcCode.NOT_FOUND)).to.equal(404);
    expect(httpStatusOfGrpc(GrpcCode.INVALID_ARGUMENT)).to.equal(400);
    expect(httpStatusOfGrpc(GrpcCode.UNIMPLEMENTED)).to.equal(501);
    expect(httpStatusOfGrpc(GrpcCode.UNKNOWN)).to.equal(500);
    expect(httpStatusOfGrpc(GrpcCode.UNAUTHENTICATED)).to.equal(401);
    expect(httpStatusOfGrpc(GrpcCode.RESOURCE_EXHAUSTED)).to.equal(429);
    expect(grpcStatusOf(new StatusError(GrpcCode.NOT_FOUND, 'x'))).to.deep.equal({ code: 5, message: 'x' });
    expect(grpcStatusOf(Errors.InvalidAddress.wrap('bad'))).to.deep.equal({ code: 3, message: 'bad: invalid address' });
    expect(grpcStatusOf(new Error('plain'))).to.deep.equal({ code: 2, message: 'plain' });
  });
});
