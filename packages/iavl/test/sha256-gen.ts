/**
 * Generates the unrolled SHA-256 compression function of src/sha256.ts (the text between its `BEGIN GENERATED`
 * and `END GENERATED` lines): 64 rounds with the round constants inlined, the message schedule in 16 local
 * variables (w0..w15, a ring) and the working variables renamed each round instead of shifted. The test
 * `sha256.test.ts` checks that the file holds exactly this output.
 *
 *   npx tsx packages/iavl/test/sha256-gen.ts   (prints the generated text)
 */
const K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
];

export function generateCompress(): string {
  const out: string[] = [];
  out.push('function compress(m: Uint8Array, o: number): void {');
  out.push('  const s = H;');
  out.push('  let a = s[0]!, b = s[1]!, c = s[2]!, d = s[3]!, e = s[4]!, f = s[5]!, g = s[6]!, h = s[7]!;');
  out.push('  let t1: number, t2: number;');
  for (let i = 0; i < 16; i++) {
    const p = (j: number): string => `m[o + ${4 * i + j}]!`;
    out.push(`  let w${i} = (${p(0)} << 24) | (${p(1)} << 16) | (${p(2)} << 8) | ${p(3)};`);
  }
  const names = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
  for (let i = 0; i < 64; i++) {
    const w = `w${i % 16}`;
    if (i >= 16) {
      const x = `w${(i - 15) % 16}`;
      const y = `w${(i - 2) % 16}`;
      const z = `w${(i - 7) % 16}`;
      out.push(`  ${w} = (${w} + ${z} + (((${x} >>> 7) | (${x} << 25)) ^ ((${x} >>> 18) | (${x} << 14)) ^ (${x} >>> 3)) +`);
      out.push(`    (((${y} >>> 17) | (${y} << 15)) ^ ((${y} >>> 19) | (${y} << 13)) ^ (${y} >>> 10))) | 0;`);
    }
    // round i works on the variables renamed by i (a..h rotate right by one each round)
    const [A, B, C, D, E, F, G, Hv] = names.map((_, j) => names[(j - (i % 8) + 8) % 8]!);
    const k = String(K[i]! | 0); // as a signed 32-bit integer: the sum stays in int32 arithmetic
    out.push(`  t1 = (${Hv} + (((${E} >>> 6) | (${E} << 26)) ^ ((${E} >>> 11) | (${E} << 21)) ^ ((${E} >>> 25) | (${E} << 7))) +`);
    out.push(`    ((${E} & ${F}) ^ (~${E} & ${G})) + ${k} + ${w}) | 0;`);
    out.push(`  t2 = ((((${A} >>> 2) | (${A} << 30)) ^ ((${A} >>> 13) | (${A} << 19)) ^ ((${A} >>> 22) | (${A} << 10))) +`);
    out.push(`    ((${A} & ${B}) ^ (${A} & ${C}) ^ (${B} & ${C}))) | 0;`);
    out.push(`  ${D} = (${D} + t1) | 0;`);
    out.push(`  ${Hv} = (t1 + t2) | 0;`);
  }
  out.push('  s[0] = (s[0]! + a) | 0;');
  out.push('  s[1] = (s[1]! + b) | 0;');
  out.push('  s[2] = (s[2]! + c) | 0;');
  out.push('  s[3] = (s[3]! + d) | 0;');
  out.push('  s[4] = (s[4]! + e) | 0;');
  out.push('  s[5] = (s[5]! + f) | 0;');
  out.push('  s[6] = (s[6]! + g) | 0;');
  out.push('  s[7] = (s[7]! + h) | 0;');
  out.push('}');
  return out.join('\n') + '\n';
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(generateCompress());
