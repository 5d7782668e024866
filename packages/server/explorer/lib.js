/*
 * The explorer's pure helpers (no DOM, no network): hex/base64, SHA-256 (tx hashes, consensus addresses),
 * bech32, amounts, and what the search box makes of a query. Loaded as a plain script by index.html (it sets
 * `ExplorerLib` on the global object); packages/server/test/explorer-lib.test.ts runs the same file in Node.
 */
(function (root) {
  'use strict';

  function hexOf(bytes) {
    let s = '';
    for (const b of bytes) s += b.toString(16).padStart(2, '0');
    return s;
  }

  function bytesOfHex(hex) {
    const h = hex.replace(/^0x/i, '');
    if (h.length % 2 !== 0 || /[^0-9a-f]/i.test(h)) throw new Error('not hex: ' + hex);
    const out = new Uint8Array(h.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(2 * i, 2 * i + 2), 16);
    return out;
  }

  function bytesOfBase64(b64) {
    const bin = atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  // ---- SHA-256 (FIPS 180-4) ------------------------------------------------------------------------

  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
    0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
    0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
    0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ]);
  const H0 = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));

  function sha256(msg) {
    const len = msg.length;
    const padded = ((len + 9 + 63) >> 6) << 6;
    const buf = new Uint8Array(padded);
    buf.set(msg);
    buf[len] = 0x80;
    const dv = new DataView(buf.buffer);
    dv.setUint32(padded - 4, (len * 8) >>> 0);
    dv.setUint32(padded - 8, Math.floor(len / 0x20000000));
    const h = H0.slice();
    const w = new Uint32Array(64);
    for (let off = 0; off < padded; off += 64) {
      for (let i = 0; i < 16; i++) w[i] = dv.getUint32(off + 4 * i);
      for (let i = 16; i < 64; i++) {
        const a = w[i - 15];
        const b = w[i - 2];
        w[i] = (w[i - 16] + (rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3)) + w[i - 7] + (rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10))) | 0;
      }
      let [a, b, c, d, e, f, g, hh] = h;
      for (let i = 0; i < 64; i++) {
        const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
        const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      h[0] = (h[0] + a) | 0; h[1] = (h[1] + b) | 0; h[2] = (h[2] + c) | 0; h[3] = (h[3] + d) | 0;
      h[4] = (h[4] + e) | 0; h[5] = (h[5] + f) | 0; h[6] = (h[6] + g) | 0; h[7] = (h[7] + hh) | 0;
    }
    const out = new Uint8Array(32);
    const odv = new DataView(out.buffer);
    for (let i = 0; i < 8; i++) odv.setUint32(4 * i, h[i] >>> 0);
    return out;
  }

  /** A CometBFT tx hash: upper-case hex of SHA-256 of the tx bytes (given as base64). */
  function txHashOfBase64(b64) {
    return hexOf(sha256(bytesOfBase64(b64))).toUpperCase();
  }

  // ---- bech32 (BIP-173) ----------------------------------------------------------------------------

  const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
  const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

  function polymod(values) {
    let chk = 1;
    for (const v of values) {
      const top = chk >>> 25;
      chk = ((chk & 0x1ffffff) << 5) ^ v;
      for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GEN[i];
    }
    return chk >>> 0;
  }

  function hrpExpand(hrp) {
    const out = [];
    for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) >> 5);
    out.push(0);
    for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) & 31);
    return out;
  }

  function convertBits(data, from, to, pad) {
    let acc = 0;
    let bits = 0;
    const out = [];
    const maxv = (1 << to) - 1;
    for (const v of data) {
      acc = (acc << from) | v;
      bits += from;
      while (bits >= to) {
        bits -= to;
        out.push((acc >> bits) & maxv);
      }
    }
    if (pad) {
      if (bits > 0) out.push((acc << (to - bits)) & maxv);
    } else if (bits >= from || ((acc << (to - bits)) & maxv)) {
      throw new Error('bech32: invalid padding');
    }
    return out;
  }

  function bech32Encode(prefix, bytes) {
    const data = convertBits(bytes, 8, 5, true);
    const values = hrpExpand(prefix).concat(data, [0, 0, 0, 0, 0, 0]);
    const mod = polymod(values) ^ 1;
    let out = prefix + '1';
    for (const d of data) out += CHARSET[d];
    for (let i = 0; i < 6; i++) out += CHARSET[(mod >>> (5 * (5 - i))) & 31];
    return out;
  }

  /** { prefix, bytes } of a bech32 string; throws on a bad checksum or character. */
  function bech32Decode(text) {
    if (text !== text.toLowerCase() && text !== text.toUpperCase()) throw new Error('bech32: mixed case');
    const s = text.toLowerCase();
    const pos = s.lastIndexOf('1');
    if (pos < 1 || pos + 7 > s.length || s.length > 90) throw new Error('bech32: bad length');
    const prefix = s.slice(0, pos);
    const data = [];
    for (const c of s.slice(pos + 1)) {
      const v = CHARSET.indexOf(c);
      if (v < 0) throw new Error('bech32: bad character ' + c);
      data.push(v);
    }
    if (polymod(hrpExpand(prefix).concat(data)) !== 1) throw new Error('bech32: bad checksum');
    return { prefix, bytes: new Uint8Array(convertBits(data.slice(0, -6), 5, 8, false)) };
  }

  /** The consensus address (`<prefix>valcons1...`) of an ed25519 consensus key (base64): SHA-256 truncated to 20 bytes. */
  function consAddressOfEd25519(prefix, pubKeyBase64) {
    return bech32Encode(prefix + 'valcons', sha256(bytesOfBase64(pubKeyBase64)).slice(0, 20));
  }

  // ---- amounts -------------------------------------------------------------------------------------

  /** `amount` base units (an integer, or a Dec like `12.5`: the fraction is dropped) in units of 10^decimals, grouped. */
  function formatUnits(amount, decimals) {
    const intText = String(amount).split('.')[0] || '0';
    if (!/^-?\d+$/.test(intText)) return String(amount);
    let v = BigInt(intText);
    const neg = v < 0n;
    if (neg) v = -v;
    const base = 10n ** BigInt(decimals);
    const whole = (v / base).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    const frac = decimals > 0 ? (v % base).toString().padStart(decimals, '0').replace(/0+$/, '') : '';
    return (neg ? '-' : '') + whole + (frac ? '.' + frac : '');
  }

  /** The share `part / total` as a percentage text with `digits` decimals (BigInt-exact up to rounding down). */
  function percent(part, total, digits) {
    const p = BigInt(String(part).split('.')[0] || '0');
    const t = BigInt(String(total).split('.')[0] || '0');
    if (t === 0n) return '—';
    const scale = 10n ** BigInt(digits);
    const v = (p * 100n * scale) / t;
    const s = v.toString().padStart(digits + 1, '0');
    return (digits > 0 ? s.slice(0, -digits) + '.' + s.slice(-digits) : s) + ' %';
  }

  /** x / y of two base-unit amounts, as a decimal text with `digits` significant decimals. */
  function ratio(x, y, digits) {
    const a = BigInt(String(x).split('.')[0] || '0');
    const b = BigInt(String(y).split('.')[0] || '0');
    if (b === 0n) return '—';
    const scale = 10n ** BigInt(digits);
    const v = (a * scale) / b;
    const s = v.toString().padStart(digits + 1, '0');
    return (s.slice(0, -digits) + '.' + s.slice(-digits)).replace(/\.?0+$/, '') || '0';
  }

  // ---- search --------------------------------------------------------------------------------------

  /**
   * What a search query names, for a chain whose account prefix is `prefix`: a route of the page
   * (`block/12`, `tx/<HEX>`, `tx/0x<hex>`, `account/<bech32>`, `validator/<valoper>`), or an error text.
   */
  function classifyQuery(query, prefix) {
    const q = String(query).trim();
    if (q === '') return { error: 'Type a height, a tx hash, an address or a validator.' };
    if (/^\d+$/.test(q)) return BigInt(q) > 0n ? { route: 'block/' + BigInt(q).toString() } : { error: 'Heights start at 1.' };
    if (/^0x[0-9a-fA-F]{64}$/.test(q)) return { route: 'tx/' + q.toLowerCase() };
    if (/^[0-9a-fA-F]{64}$/.test(q)) return { route: 'tx/' + q.toUpperCase() };
    if (/^0x[0-9a-fA-F]{40}$/.test(q)) return { route: 'account/' + bech32Encode(prefix, bytesOfHex(q)) };
    let d;
    try {
      d = bech32Decode(q);
    } catch (e) {
      return { error: 'Not a height, a tx hash or an address: ' + q.slice(0, 80) + ' (' + e.message + ')' };
    }
    if (d.prefix === prefix + 'valoper') return { route: 'validator/' + q.toLowerCase() };
    if (d.prefix === prefix) return { route: 'account/' + q.toLowerCase() };
    if (d.prefix === prefix + 'valcons') return { route: 'validators' };
    return { error: 'Unknown address prefix ' + d.prefix + ' (this chain uses ' + prefix + ')' };
  }

  root.ExplorerLib = {
    hexOf, bytesOfHex, bytesOfBase64, sha256, txHashOfBase64, bech32Encode, bech32Decode, consAddressOfEd25519,
    formatUnits, percent, ratio, classifyQuery,
  };
})(typeof window !== 'undefined' ? window : globalThis);
