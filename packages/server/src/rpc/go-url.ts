/**
 * How Go's net/http reads a request target, for the CometBFT-compatible RPC: CometBFT serves its RPC
 * through Go's `http.ServeMux`, so which handler answers a path (and whether it answers at all) follows
 * Go's rules, not WHATWG URL parsing. The differences that show on the wire:
 *   - `#` is an ordinary path character (`/status#x` is not `/status`: 404);
 *   - the path is percent-decoded, and a bad escape (`/%zz`) is a 400;
 *   - a path that is not clean (`//status`, `/./status`, `/a/../status`) is redirected (307) to the clean
 *     one instead of served;
 *   - a route matches per decoded segment (`/st%61tus` is `/status`, `/%2Fstatus` is not);
 *   - the query is parsed as `url.ParseQuery` (pairs with `;` or bad escapes are dropped, `#` is data).
 * Sources: net/url `parse`, `unescape`, `shouldEscape`, `validEncoding`, `EscapedPath`, `parseQuery`;
 * net/http `cleanPath`, `ServeMux.findHandler`, `Redirect` (Go 1.22+, which redirects with 307).
 */

/** A request target as Go's `url.ParseRequestURI` reads it. */
export interface GoTarget {
  /** the decoded path (`r.URL.Path`) */
  path: string;
  /** `r.URL.EscapedPath()`: what the mux cleans and matches */
  escapedPath: string;
  /** everything after the first `?` (`r.URL.RawQuery`), `#` included */
  rawQuery: string;
}

/** Parses a request target; undefined where Go's server answers `400 Bad Request` (or `*`, which the mux refuses). */
export function parseGoTarget(target: string): GoTarget | undefined {
  if (target === '' || target === '*' || /[\x00-\x1f\x7f]/.test(target)) return undefined;
  let rest = target;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(rest);
  if (scheme) {
    rest = rest.slice(scheme[0].length);
  } else if (!rest.startsWith('/')) {
    return undefined; // "invalid URI for request"
  }
  let rawQuery = '';
  const q = rest.indexOf('?');
  if (q >= 0) { rawQuery = rest.slice(q + 1); rest = rest.slice(0, q); }
  if (scheme) {
    if (rest.startsWith('//')) {
      const slash = rest.indexOf('/', 2);
      rest = slash < 0 ? '' : rest.slice(slash);
    } else if (!rest.startsWith('/')) {
      return { path: '', escapedPath: '', rawQuery }; // an opaque URL (`http:x`): no path, so the mux redirects to `/`
    }
  }
  const path = goUnescape(rest, false);
  if (path === undefined) return undefined;
  const escapedPath = validPathEncoding(rest) ? rest : goEscapePath(path);
  return { path, escapedPath, rawQuery };
}

const HEX = '0123456789ABCDEF';
const isHex = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
const hexVal = (c: number): number => (c <= 57 ? c - 48 : (c | 0x20) - 87);

/** Go's `unescape` in path mode (`query`: query mode, where `+` is a space); undefined on a bad escape. */
export function goUnescape(s: string, query: boolean): string | undefined {
  if (!s.includes('%') && !(query && s.includes('+'))) return s;
  const src = Buffer.from(s, 'utf8');
  const out = Buffer.allocUnsafe(src.length);
  let n = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === 0x25) {
      if (i + 2 >= src.length || !isHex(src[i + 1]) || !isHex(src[i + 2])) return undefined;
      out[n++] = (hexVal(src[i + 1]) << 4) | hexVal(src[i + 2]);
      i += 2;
    } else {
      out[n++] = query && c === 0x2b ? 0x20 : c;
    }
  }
  return out.subarray(0, n).toString('utf8');
}

/** Go's `shouldEscape(c, encodePath)`. */
function shouldEscapeInPath(c: number): boolean {
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)) return false;
  switch (String.fromCharCode(c)) {
    case '-': case '_': case '.': case '~':
    case '$': case '&': case '+': case ',': case '/': case ':': case ';': case '=': case '@':
      return false;
    default:
      return true;
  }
}

/** Go's `validEncoding(s, encodePath)`: whether the raw path can stand as the escaped form. */
function validPathEncoding(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ("!$&'()*+,;=:@[]%".includes(s[i])) continue;
    if (c > 0x7f || shouldEscapeInPath(c)) return false;
  }
  return true;
}

/** Go's `escape(s, encodePath)`: percent-encodes the UTF-8 bytes that a path must not hold raw. */
export function goEscapePath(s: string): string {
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    out += shouldEscapeInPath(b) ? `%${HEX[b >> 4]}${HEX[b & 15]}` : String.fromCharCode(b);
  }
  return out;
}

/** Go's `path.Clean`. */
function cleanRooted(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') { out.pop(); continue; }
    out.push(seg);
  }
  return `/${out.join('/')}`;
}

/** net/http's `cleanPath`: rooted, `.`/`..`/`//` resolved, a trailing slash kept. */
export function goCleanPath(p: string): string {
  if (p === '') return '/';
  if (p[0] !== '/') p = `/${p}`;
  let np = cleanRooted(p);
  if (p.endsWith('/') && np !== '/') np += '/';
  return np;
}

/** The single route segment `/<name>` of an escaped path, decoded as the mux's tree decodes it; else undefined. */
export function goRouteName(escapedPath: string): string | undefined {
  if (!escapedPath.startsWith('/')) return undefined;
  const seg = escapedPath.slice(1);
  if (seg === '' || seg.includes('/')) return undefined;
  return goUnescape(seg, false) ?? seg; // the tree matches an undecodable segment as written
}

/** `url.ParseQuery` of a raw query: pairs holding `;` or a bad escape are dropped, as Go drops them. */
export function goQuery(rawQuery: string): URLSearchParams {
  const out = new URLSearchParams();
  for (const pair of rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    const key = goUnescape(eq < 0 ? pair : pair.slice(0, eq), true);
    const value = goUnescape(eq < 0 ? '' : pair.slice(eq + 1), true);
    if (key === undefined || value === undefined) continue;
    out.append(key, value);
  }
  return out;
}

/** The `Location` and the GET body of Go's `http.Redirect` to a clean path (`url.URL{Path, RawQuery}.String()`). */
export function goRedirect(cleanPath: string, rawQuery: string): { location: string; body: string } {
  const location = goEscapePath(cleanPath) + (rawQuery !== '' ? `?${rawQuery}` : '');
  const html = location.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' })[c] as string);
  return { location, body: `<a href="${html}">Temporary Redirect</a>.\n\n` };
}
