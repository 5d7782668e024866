/** A raw gRPC unary call (request and answer as protobuf bytes), for tests that only need a request to happen. */
import * as grpc from '@grpc/grpc-js';

export async function grpcUnary(address: string, path: string, request: Uint8Array = new Uint8Array(0)): Promise<Buffer> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  try {
    const id = (b: Buffer): Buffer => b;
    return await new Promise<Buffer>((resolve, reject) => {
      client.makeUnaryRequest<Buffer, Buffer>(path, id, id, Buffer.from(request), new grpc.Metadata(), { deadline: Date.now() + 15_000 },
        (err, res) => (err ? reject(err) : resolve(res!)));
    });
  } finally {
    client.close();
  }
}
