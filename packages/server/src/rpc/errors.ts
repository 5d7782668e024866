/** JSON-RPC 2.0 errors as CometBFT reports them. */
export class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: string) {
    super(message);
  }
}

export const RpcErrors = {
  parse: (data?: string) => new RpcError(-32700, 'Parse error. Invalid JSON', data),
  invalidRequest: (data?: string) => new RpcError(-32600, 'Invalid Request', data),
  methodNotFound: () => new RpcError(-32601, 'Method not found'),
  invalidParams: (data: string) => new RpcError(-32602, 'Invalid params', data),
  internal: (data: string) => new RpcError(-32603, 'Internal error', data),
  server: (data: string) => new RpcError(-32000, 'Server error', data),
};
