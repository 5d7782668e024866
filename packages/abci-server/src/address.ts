/** ABCI listen/dial addresses as CometBFT writes them (`tcp://host:port`, `unix:///path`; no scheme: tcp). */
export type AbciAddress = { readonly kind: 'tcp'; readonly host: string; readonly port: number } | { readonly kind: 'unix'; readonly path: string };

export function parseAbciAddress(addr: string): AbciAddress {
  const m = /^([a-z]+):\/\/(.*)$/.exec(addr);
  const proto = m ? m[1]! : 'tcp';
  const rest = m ? m[2]! : addr;
  if (proto === 'unix') {
    if (!rest) throw new Error(`invalid ABCI address ${addr}: no socket path`);
    return { kind: 'unix', path: rest };
  }
  if (proto !== 'tcp') throw new Error(`invalid ABCI address ${addr}: protocol ${proto} (tcp:// or unix://)`);
  const i = rest.lastIndexOf(':');
  if (i < 0) throw new Error(`invalid ABCI address ${addr}: no port`);
  const host = rest.slice(0, i).replace(/^\[|\]$/g, '') || '0.0.0.0';
  const port = Number(rest.slice(i + 1));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid ABCI address ${addr}: bad port`);
  return { kind: 'tcp', host, port };
}

export function formatAbciAddress(a: AbciAddress): string {
  return a.kind === 'unix' ? `unix://${a.path}` : `tcp://${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;
}
