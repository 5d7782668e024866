/** Go-compatible `encoding/base64` decoding (shared with query-params.ts). */
import { CodecError } from './errors.js';

const B64_STD = decodeTable('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const B64_URL = decodeTable('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_');

function decodeTable(alphabet: string): Int16Array {
  const t = new Int16Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
}

/**
 * Go `base64.StdEncoding/URLEncoding.DecodeString` (padded, newlines ignored).
 * Returns the bytes or the offset Go reports in `illegal base64 data at input byte N`.
 */
export function goBase64Decode(src: string, url: boolean): Uint8Array | number {
  const map = url ? B64_URL : B64_STD;
  const n = src.length;
  const out = new Uint8Array(Math.floor((n * 3) / 4) + 3);
  let o = 0;
  let si = 0;
  const isNl = (k: number): boolean => src.charCodeAt(k) === 10 || src.charCodeAt(k) === 13;
  const dbuf = [0, 0, 0, 0];
  for (;;) {
    let dlen = 4;
    let end = false;
    dbuf[0] = dbuf[1] = dbuf[2] = dbuf[3] = 0;
    for (let j = 0; j < 4; j++) {
      if (si === n) {
        if (j === 0) return out.subarray(0, o);
        return si - j;
      }
      const c = src.charCodeAt(si);
      si++;
      const d = c < 128 ? map[c]! : -1;
      if (d >= 0) {
        dbuf[j] = d;
        continue;
      }
      if (c === 10 || c === 13) {
        j--;
        continue;
      }
      if (c !== 61) return si - 1;
      if (j === 0 || j === 1) return si - 1;
      if (j === 2) {
        while (si < n && isNl(si)) si++;
        if (si === n) return n;
        if (src.charCodeAt(si) !== 61) return si - 1;
        si++;
      }
      while (si < n && isNl(si)) si++;
      if (si < n) return si;
      dlen = j;
      end = true;
      break;
    }
    const val = (dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!;
    if (dlen >= 2) out[o++] = (val >> 16) & 0xff;
    if (dlen >= 3) out[o++] = (val >> 8) & 0xff;
    if (dlen >= 4) out[o++] = val & 0xff;
    if (end) return out.subarray(0, o);
  }
}

/** Bytes in JSON bodies: standard base64, else URL-safe, padded or not. */
export function base64Lenient(s: string): Uint8Array {
  const std = goBase64Decode(s, false);
  if (typeof std !== 'number') return std;
  const url = goBase64Decode(s, true);
  if (typeof url !== 'number') return url;
  const bare = s.replace(/[\r\n]/g, '');
  if (/^[A-Za-z0-9+/\-_]*$/.test(bare) && bare.length % 4 !== 1) {
    const padded = bare.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (bare.length % 4)) % 4);
    const raw = goBase64Decode(padded, false);
    if (typeof raw !== 'number') return raw;
  }
  throw new CodecError(`illegal base64 data at input byte ${std}`);
}
