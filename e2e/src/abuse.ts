/**
 * Tools of the abuse test (test/abuse.test.ts): a seeded PRNG and pools of nasty values, raw HTTP over
 * TCP (any bytes, one connection per request, never throws), a bounded worker pool, gRPC method
 * discovery through server reflection, the node's resident memory, and the checkers that decide whether
 * an answer is a *defined* error of its surface (each returns a reason string, or undefined when fine).
 */
import { Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { BinaryReader, BinaryWriter } from 'cosmjs-types/binary';
import { FileDescriptorProto } from 'cosmjs-types/google/protobuf/descriptor';

/** mulberry32: small, fast and deterministic for a given seed. */
export class Rng {
  private s: number;
  constructor(readonly seed: number) { this.s = seed >>> 0; }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number { return Math.floor(this.next() * n); }
  chance(p: number): boolean { return this.next() < p; }
  pick<T>(a: readonly T[]): T { return a[this.int(a.length)]!; }
  bytes(n: number): Uint8Array { return Uint8Array.from({ length: n }, () => this.int(256)); }
  /** printable ASCII, unicode and control characters */
  text(n: number): string {
    const alphabet = ['a', 'Z', '0', '9', ' ', '%', '/', '\\', '"', "'", '=', '&', '?', '#', '.', '-', '_', '{', '}', '[', ']', 'ü', '€', '😀', '\u0000', '\u0007', '\n', '\t', '\u202e', '\ufffd'];
    let s = '';
    for (let i = 0; i < n; i++) s += this.pick(alphabet);
    return s;
  }
}

/** Strings that break parsers: encodings, numbers out of range, injections, garbage of every kind. */
export const NASTY = [
  '', ' ', 'abc', '%zz', '%', '%00', '%E2%82%AC', '%C0%AF', '%FF%FE', '..', '../../etc/passwd', 'ü€😀', '\u0000', '-1', '0', '1.5',
  '1e309', 'NaN', 'Infinity', 'null', 'true', '[]', '{}', '0x', '0xzz', '0x' + 'f'.repeat(70), '@@@', '====', '!!!!', "'", '"', '<script>',
  '99999999999999999999999', '-9223372036854775809', '18446744073709551616', 'chain1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq',
  'chain17w0adeg64ky0daxwd2ugyuneellmjgnxkl0eq5', 'cosmos1xyz', 'a'.repeat(5000), 'é'.repeat(300), '\\u0000', 'tx.height', "tm.event='NewBlock' AND",
];

/** A random JSON value of any type (sometimes nested, sometimes a nasty string). */
export function nastyJson(rng: Rng, depth = 0): unknown {
  switch (rng.int(depth > 2 ? 8 : 10)) {
    case 0: return null;
    case 1: return rng.chance(0.5);
    case 2: return rng.pick([0, -1, 1.5, 2 ** 53 + 2, -(2 ** 63), 1e308, 5]);
    case 3: case 4: case 5: return rng.pick(NASTY);
    case 6: return Buffer.from(rng.bytes(rng.int(40))).toString('base64');
    case 7: return rng.text(rng.int(20));
    case 8: return Array.from({ length: rng.int(4) }, () => nastyJson(rng, depth + 1));
    default: return Object.fromEntries(Array.from({ length: rng.int(4) }, () => [rng.pick(['a', 'height', 'hash', 'query', 'tx', '__proto__', 'constructor', '']), nastyJson(rng, depth + 1)]));
  }
}

/** `depth` nested arrays or objects around a value. */
export function deepJson(depth: number, open = '[', close = ']'): string {
  return open.repeat(depth) + '1' + close.repeat(depth);
}

export interface RawAnswer {
  /** HTTP status; 0 when the connection closed without an answer, -1 on timeout */
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
  /** the body parsed as JSON, or undefined */
  readonly json: unknown;
}

export interface HttpRequest { method: string; path: string; headers?: Record<string, string>; body?: string | Uint8Array }

/** Builds an HTTP/1.1 request (Connection: close, Content-Length of the body) with the path as given. */
export function requestBytes(host: string, r: HttpRequest): Buffer {
  const body = r.body === undefined ? Buffer.alloc(0) : Buffer.from(r.body);
  const headers: Record<string, string> = { host, connection: 'close', ...(r.headers ?? {}) };
  if (body.length > 0 || r.method === 'POST') headers['content-length'] = String(body.length);
  const head = `${r.method} ${r.path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body]);
}

function dechunk(b: Buffer): Buffer {
  const out: Buffer[] = [];
  let i = 0;
  while (i < b.length) {
    const eol = b.indexOf('\r\n', i);
    if (eol < 0) break;
    const n = parseInt(b.subarray(i, eol).toString('latin1'), 16);
    if (!(n > 0)) break;
    out.push(b.subarray(eol + 2, eol + 2 + n));
    i = eol + 2 + n + 2;
  }
  return Buffer.concat(out);
}

/** Sends raw bytes on a new TCP connection and reads the answer until the server closes it. */
export function rawExchange(port: number, bytes: Buffer, timeoutMs = 15_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const s = new Socket();
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (timedOut: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      s.destroy();
      const all = Buffer.concat(chunks);
      const sep = all.indexOf('\r\n\r\n');
      if (timedOut && sep < 0) { resolve({ status: -1, headers: {}, text: '', json: undefined }); return; }
      if (sep < 0) { resolve({ status: 0, headers: {}, text: all.toString('utf8'), json: undefined }); return; }
      const lines = all.subarray(0, sep).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0]!)?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const l of lines.slice(1)) {
        const c = l.indexOf(':');
        if (c > 0) headers[l.slice(0, c).trim().toLowerCase()] = l.slice(c + 1).trim();
      }
      let body: Buffer = all.subarray(sep + 4);
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) body = dechunk(body);
      const text = body.toString('utf8');
      let json: unknown;
      try { json = JSON.parse(text); } catch { json = undefined; }
      resolve({ status, headers, text, json });
    };
    const timer = setTimeout(() => finish(true), timeoutMs);
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('error', () => finish(false));
    s.on('close', () => finish(false));
    s.connect(port, '127.0.0.1', () => { s.write(bytes, () => undefined); });
  });
}

/** One HTTP request on its own connection. */
export function http(port: number, r: HttpRequest, timeoutMs?: number): Promise<RawAnswer> {
  return rawExchange(port, requestBytes(`127.0.0.1:${port}`, r), timeoutMs);
}

/** Runs `fn` over `items` with at most `concurrency` in flight. */
export async function pool<T>(items: readonly T[], concurrency: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i]!, i);
    }
  }));
}

/** Resident memory of a process in kB (VmRSS of /proc/<pid>/status). */
export function rssKb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]);
}

/** Texts that betray an unhandled JavaScript failure rather than a defined error. */
export const JS_INTERNALS = /\n\s+at |TypeError|ReferenceError|RangeError|SyntaxError: |Cannot read prop|Cannot set prop|is not a function|is not iterable|is not defined|undefined is|null is|Maximum call stack|\[object Object\]|out of memory/;

const GATEWAY_HTTP: Record<number, number> = { 1: 408, 2: 500, 3: 400, 4: 504, 5: 404, 6: 409, 7: 403, 8: 429, 9: 400, 10: 409, 11: 400, 12: 501, 13: 500, 14: 503, 15: 500, 16: 401 };

/** REST: a gateway error `{code, message, details}` with the HTTP status of its code (or 200 when `okAllowed`). */
/**
 * The message with the request's own text (path segments, query values: `echo`) replaced by `<input>`: a
 * message may quote what it refuses (`null is not a valid parameter type` for `.../params/null`, as the SDK
 * says), which is not a JavaScript failure.
 */
function withoutEcho(message: string, echo: string | undefined): string {
  if (!echo) return message;
  const parts = echo.split(/[/?&=\s]+/).map((x) => {
    try {
      return decodeURIComponent(x);
    } catch {
      return x;
    }
  }).filter((x) => x.length >= 3).sort((x, y) => y.length - x.length);
  return parts.reduce((m, x) => m.split(x).join('<input>'), message);
}

export function checkRest(a: RawAnswer, o: { okAllowed?: boolean; allow500?: boolean; notImplemented?: boolean; echo?: string } = {}): string | undefined {
  if (a.status <= 0) return a.status < 0 ? 'no answer (hang)' : 'connection closed without an answer';
  if (!/^application\/json/.test(a.headers['content-type'] ?? '')) return `content-type ${a.headers['content-type']}`;
  const b = a.json as Record<string, unknown> | undefined;
  if (b === undefined || b === null || typeof b !== 'object' || Array.isArray(b)) return 'body is not a JSON object';
  if (a.status === 200) return o.okAllowed && !o.notImplemented ? undefined : 'HTTP 200 for bad input';
  if (Object.keys(b).sort().join() !== 'code,details,message') return `error keys ${Object.keys(b).join()}`;
  const code = b.code as number;
  if (!Number.isInteger(code) || !(code in GATEWAY_HTTP)) return `gRPC code ${String(code)}`;
  // the HTTP layer (Go's net/http in the SDK) answers oversized headers with 431 and slow requests with 408
  const httpLayer = (a.status === 431 && code === 8) || (a.status === 408 && code === 4);
  if (GATEWAY_HTTP[code] !== a.status && !httpLayer) return `HTTP ${a.status} for gRPC code ${code}`;
  if (typeof b.message !== 'string' || b.message === '' || !Array.isArray(b.details)) return 'message or details malformed';
  if (JS_INTERNALS.test(withoutEcho(b.message, o.echo))) return 'JavaScript internals in the message';
  if (o.notImplemented && (code !== 12 || b.message !== 'Not Implemented')) return 'expected 501 code 12 Not Implemented';
  if ((code === 2 || code === 13 || code === 15) && !o.allow500) return `HTTP ${a.status} (code ${code}) where the SDK answers a client error`;
  return undefined;
}

const COMET_MESSAGES: Record<number, string> = {
  [-32700]: 'Parse error. Invalid JSON', [-32600]: 'Invalid Request', [-32601]: 'Method not found', [-32602]: 'Invalid params', [-32603]: 'Internal error', [-32000]: 'Server error',
};
const ETH_CODES = new Set([-32700, -32600, -32601, -32602, -32000, 3]);

/** One JSON-RPC response object: `jsonrpc` 2.0, a result or an error with a code of `codes`. */
export function checkRpcObject(r: unknown, surface: 'comet' | 'eth'): string | undefined {
  if (r === null || typeof r !== 'object' || Array.isArray(r)) return 'response is not an object';
  const o = r as Record<string, unknown>;
  if (o.jsonrpc !== '2.0') return `jsonrpc ${JSON.stringify(o.jsonrpc)}`;
  if ('error' in o) {
    const e = o.error as Record<string, unknown>;
    if (!e || typeof e !== 'object') return 'error is not an object';
    const code = e.code as number;
    if (surface === 'comet' ? COMET_MESSAGES[code] !== e.message : !ETH_CODES.has(code) || typeof e.message !== 'string') return `error ${JSON.stringify(e).slice(0, 200)}`;
    if (JS_INTERNALS.test(String(e.message)) || JS_INTERNALS.test(typeof e.data === 'string' ? e.data : '')) return 'JavaScript internals in the error';
    return undefined;
  }
  return 'result' in o ? undefined : 'neither result nor error';
}

/** Whether a JSON-RPC answer (object or batch) carries an error. */
export function isRpcError(json: unknown): boolean {
  return (Array.isArray(json) ? json : [json]).some((r) => r !== null && typeof r === 'object' && 'error' in r);
}

/**
 * Whether CometBFT v0.38.26 answers a POST body with nothing (an empty 200): JSON null, an object without an id
 * (or id null) whose jsonrpc and method are strings or absent (a notification), or a batch of only those.
 */
export function cometNotificationsOnly(body: string | Uint8Array | undefined): boolean {
  let v: unknown;
  try { v = JSON.parse(typeof body === 'string' ? body : Buffer.from(body ?? []).toString('utf8')); } catch { return false; }
  const one = (x: unknown): boolean => {
    if (x === null) return true;
    if (typeof x !== 'object' || Array.isArray(x)) return false;
    const r = x as Record<string, unknown>;
    const str = (k: string): boolean => r[k] === undefined || r[k] === null || typeof r[k] === 'string';
    return (r.id === undefined || r.id === null) && str('jsonrpc') && str('method');
  };
  return Array.isArray(v) ? v.every(one) : one(v);
}

/**
 * CometBFT RPC over HTTP (CMT rpc/jsonrpc/server), by form. POST `/`: method results and errors 200,
 * malformed JSON 500 with -32700 and no id, a body above max_body_bytes 400 with -32600, an empty body
 * the endpoint list. URI GET `/<method>?…`: id -1, results 200, errors 500, ws-only methods 404 -32601.
 * Unknown paths (`#` is a path character): `404 page not found`; unclean ones (`//x`, `/./x`): 307 to the clean
 * path. Malformed HTTP and bad escapes: Go's plain-text 400 / 431.
 */
export function checkComet(a: RawAnswer, o: { form: 'post' | 'uri'; emptyOk?: boolean }): string | undefined {
  if (a.status <= 0) return a.status < 0 ? 'no answer (hang)' : 'connection closed without an answer';
  if (a.status === 404 && a.text === '404 page not found\n') return undefined;
  if ((a.status === 400 || a.status === 431) && a.headers['content-type']?.startsWith('text/plain')) return undefined;
  if (a.status === 307 && a.headers.location?.startsWith('/')) return undefined; // ServeMux: to the clean path
  if (a.status === 200 && a.text === '' && o.emptyOk) return undefined; // notifications only
  if (a.status === 200 && a.headers['content-type'] === 'text/html' && a.text.includes('Available endpoints')) return o.emptyOk ? undefined : 'endpoint list for a non-empty request';
  if (a.json === undefined || !/^application\/json/.test(a.headers['content-type'] ?? '')) return `not JSON: ${a.text.slice(0, 100)}`;
  const list = Array.isArray(a.json) ? a.json : [a.json];
  if (list.length === 0) return 'empty batch answer';
  for (const r of list) {
    const why = checkRpcObject(r, 'comet');
    if (why) return why;
  }
  const first = list[0] as { id?: unknown; error?: { code: number } };
  const code = first.error?.code;
  if (o.form === 'uri') {
    if (first.id !== -1) return `URI answer with id ${JSON.stringify(first.id)}`;
    const want = code === undefined ? 200 : code === -32601 ? 404 : 500;
    return a.status === want ? undefined : `HTTP ${a.status} for ${code ?? 'a result'} (URI form)`;
  }
  if (code === -32700) return a.status === 500 && !('id' in first) ? undefined : `parse error with HTTP ${a.status}`;
  if (a.status === 400) return code === -32600 && /too large/.test(String((first.error as { data?: unknown }).data)) ? undefined : 'HTTP 400 that is not "body too large"';
  return a.status === 200 ? undefined : `HTTP ${a.status} for a JSON-RPC answer`;
}

/** Ethereum JSON-RPC over HTTP (geth): answers 200 with an id each; 413 / 405 with -32600; malformed HTTP 400 / 431. */
export function checkEth(a: RawAnswer, o: { emptyOk?: boolean } = {}): string | undefined {
  if (a.status <= 0) return a.status < 0 ? 'no answer (hang)' : 'connection closed without an answer';
  if (a.status === 200 && a.text === '' && o.emptyOk) return undefined;
  if ((a.status === 400 || a.status === 431) && a.json === undefined) return undefined; // malformed HTTP (Node's / Go's parser)
  if (![200, 405, 413].includes(a.status)) return `HTTP ${a.status}`;
  if (a.json === undefined) return `not JSON: ${a.text.slice(0, 100)}`;
  const list = Array.isArray(a.json) ? a.json : [a.json];
  if (list.length === 0) return 'empty batch answer';
  for (const r of list) {
    const why = checkRpcObject(r, 'eth');
    if (why) return why;
    if (!('id' in (r as object))) return 'response without id';
  }
  if (a.status !== 200 && (list.length !== 1 || (list[0] as { error?: { code: number } }).error?.code !== -32600)) return `HTTP ${a.status} without -32600`;
  return undefined;
}

// ---- gRPC server reflection (grpc.reflection.v1alpha), just enough to list every method -----------------

function reflectionRequest(field: number, value: string): Buffer {
  const w = new BinaryWriter();
  w.uint32((field << 3) | 2).string(value);
  return Buffer.from(w.finish());
}

function reflectionAnswer(b: Uint8Array): { services: string[]; files: FileDescriptorProto[] } {
  const out = { services: [] as string[], files: [] as FileDescriptorProto[] };
  const r = new BinaryReader(b);
  while (r.pos < r.len) {
    const tag = r.uint32();
    const field = tag >>> 3;
    if (field !== 4 && field !== 6) { r.skipType(tag & 7); continue; }
    const inner = new BinaryReader(r.bytes());
    while (inner.pos < inner.len) {
      const t = inner.uint32();
      if (t >>> 3 !== 1) { inner.skipType(t & 7); continue; }
      if (field === 4) { out.files.push(FileDescriptorProto.decode(inner.bytes())); continue; }
      const svc = new BinaryReader(inner.bytes());
      while (svc.pos < svc.len) {
        const st = svc.uint32();
        if (st >>> 3 === 1) out.services.push(svc.string()); else svc.skipType(st & 7);
      }
    }
  }
  return out;
}

function reflect(client: grpc.Client, reqs: Buffer[]): Promise<ReturnType<typeof reflectionAnswer>[]> {
  const id = (b: Buffer): Buffer => b;
  const stream = client.makeBidiStreamRequest<Buffer, Buffer>('/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo', id, id, new grpc.Metadata(), { deadline: Date.now() + 15_000 });
  const answers: ReturnType<typeof reflectionAnswer>[] = [];
  return new Promise((resolve, reject) => {
    stream.on('data', (b: Buffer) => answers.push(reflectionAnswer(b)));
    stream.on('end', () => resolve(answers));
    stream.on('error', reject);
    for (const r of reqs) stream.write(r);
    stream.end();
  });
}

/** Every unary method path (`/pkg.Service/Method`) the server lists, reflection itself excluded. */
export async function grpcMethodPaths(client: grpc.Client): Promise<string[]> {
  const [list] = await reflect(client, [reflectionRequest(7, '*')]);
  const services = list!.services.filter((s) => !s.startsWith('grpc.reflection.'));
  const answers = await reflect(client, services.map((s) => reflectionRequest(4, s)));
  const paths = new Set<string>();
  services.forEach((name, i) => {
    for (const f of answers[i]?.files ?? []) {
      for (const svc of f.service) {
        if (`${f.package}.${svc.name}` !== name) continue;
        for (const m of svc.method) if (!m.clientStreaming && !m.serverStreaming) paths.add(`/${name}/${m.name}`);
      }
    }
  });
  return [...paths].sort();
}
