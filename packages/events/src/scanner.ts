/**
 * Lexical scanner for the CometBFT event query language (mirrors CometBFT v0.38
 * libs/pubsub/query/syntax/scanner.go, including its offsets, which are UTF-8 byte offsets).
 */
import { parseGoTime } from './gotime.js';

/** Token kinds, in CometBFT's order. */
export const Tok = {
  Invalid: 0,
  Tag: 1,
  String: 2,
  Number: 3,
  Time: 4,
  Date: 5,
  And: 6,
  Contains: 7,
  Exists: 8,
  Eq: 9,
  Lt: 10,
  Leq: 11,
  Gt: 12,
  Geq: 13,
} as const;

/** A token kind. */
export type Tok = (typeof Tok)[keyof typeof Tok];

const TOKEN_NAMES: readonly string[] = [
  'invalid token', 'tag', 'string', 'number', 'timestamp', 'datestamp', 'AND operator',
  'CONTAINS operator', 'EXISTS operator', '= operator', '< operator', '<= operator', '> operator', '>= operator',
];

/** CometBFT's human-readable token name (used in error messages). */
export function tokenName(tok: Tok): string {
  return TOKEN_NAMES[tok]!;
}

/** A scan failure: `eof` marks end of input (Go's io.EOF, text "EOF"). */
export interface ScanError {
  readonly eof: boolean;
  readonly message: string;
}

const EOF: ScanError = { eof: true, message: 'EOF' };
const SPACE = /^\p{White_Space}$/u;
const LETTER_OR_DIGIT = /^[\p{L}\p{Nd}]$/u;

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isTagRune = (c: string): boolean => c === '.' || c === '_' || c === '-' || LETTER_OR_DIGIT.test(c);
const isFirstTagRune = (c: string): boolean => c === '_' || LETTER_OR_DIGIT.test(c);
const isTimeRune = (c: string): boolean => '-T:+Z'.includes(c) || isDigit(c);
const isDateRune = (c: string): boolean => isDigit(c) || c === '-';

function utf8Length(c: string): number {
  const cp = c.codePointAt(0)!;
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/** Reads tokens one at a time; after `next()` the token is in `tok`, `text`, `pos`. */
export class Scanner {
  /** Kind of the current token (Invalid after an error). */
  tok: Tok = Tok.Invalid;
  /** Text of the current token (strings without quotes, TIME/DATE without the keyword). */
  text = '';
  /** Byte offset where the current token starts. */
  pos = 0;

  private readonly runes: string[];
  private readonly offsets: number[];
  private i = 0;
  private lastWasRune = false;

  constructor(input: string) {
    this.runes = Array.from(input);
    this.offsets = new Array<number>(this.runes.length + 1);
    let off = 0;
    for (let k = 0; k < this.runes.length; k++) {
      this.offsets[k] = off;
      off += utf8Length(this.runes[k]!);
    }
    this.offsets[this.runes.length] = off;
  }

  /** Byte offset just past the last rune read. */
  private get end(): number {
    return this.offsets[this.i]!;
  }

  private rune(): string | undefined {
    if (this.i >= this.runes.length) {
      this.lastWasRune = false;
      return undefined;
    }
    this.lastWasRune = true;
    return this.runes[this.i++];
  }

  private unrune(): void {
    if (this.lastWasRune) this.i--;
    this.lastWasRune = false;
  }

  /** Advances to the next token; returns undefined on success or the scan error. */
  next(): ScanError | undefined {
    this.text = '';
    this.pos = this.end;
    this.tok = Tok.Invalid;
    for (;;) {
      const ch = this.rune();
      if (ch === undefined) return EOF;
      if (SPACE.test(ch)) {
        this.pos = this.end;
        continue;
      }
      if (isDigit(ch)) return this.scanNumber(ch);
      if (isFirstTagRune(ch)) return this.scanTagLike(ch);
      if (ch === "'") return this.scanString(ch);
      if (ch === '<' || ch === '>' || ch === '=') return this.scanCompare(ch);
      return this.invalid(ch);
    }
  }

  private invalid(ch: string): ScanError {
    return { eof: false, message: `invalid input ${ch} at offset ${this.end}` };
  }

  private scanWhile(ok: (c: string) => boolean): void {
    for (;;) {
      const ch = this.rune();
      if (ch === undefined) return;
      if (!ok(ch)) {
        this.unrune();
        return;
      }
      this.text += ch;
    }
  }

  private scanNumber(first: string): undefined {
    this.text = first;
    this.scanWhile(isDigit);
    const ch = this.rune();
    if (ch === '.') {
      this.text += ch;
      this.scanWhile(isDigit);
    } else {
      this.unrune();
    }
    this.tok = Tok.Number;
    return undefined;
  }

  private scanString(quote: string): ScanError | undefined {
    for (;;) {
      const ch = this.rune();
      if (ch === undefined) return EOF;
      if (ch === quote) {
        this.tok = Tok.String;
        return undefined;
      }
      this.text += ch;
    }
  }

  private scanCompare(first: string): undefined {
    this.text = first;
    if (first === '=') {
      this.tok = Tok.Eq;
      return undefined;
    }
    this.tok = first === '<' ? Tok.Lt : Tok.Gt;
    const ch = this.rune();
    if (ch === '=') {
      this.text += ch;
      this.tok = first === '<' ? Tok.Leq : Tok.Geq;
    } else {
      this.unrune();
    }
    return undefined;
  }

  private scanTagLike(first: string): ScanError | undefined {
    this.text = first;
    let hasSpace = false;
    for (;;) {
      const ch = this.rune();
      if (ch === undefined) break;
      if (!isTagRune(ch)) {
        hasSpace = ch === ' '; // only a plain space introduces a TIME/DATE value
        break;
      }
      this.text += ch;
    }
    switch (this.text) {
      case 'TIME':
        if (hasSpace) return this.scanStamp('rfc3339');
        this.tok = Tok.Tag;
        break;
      case 'DATE':
        if (hasSpace) return this.scanStamp('date');
        this.tok = Tok.Tag;
        break;
      case 'AND':
        this.tok = Tok.And;
        break;
      case 'EXISTS':
        this.tok = Tok.Exists;
        break;
      case 'CONTAINS':
        this.tok = Tok.Contains;
        break;
      default:
        this.tok = Tok.Tag;
    }
    this.unrune();
    return undefined;
  }

  /** Scans the value after `TIME ` / `DATE ` (the space is consumed) and validates it like Go. */
  private scanStamp(layout: 'rfc3339' | 'date'): ScanError | undefined {
    const isTime = layout === 'rfc3339';
    this.text = '';
    this.scanWhile(isTime ? isTimeRune : isDateRune);
    const parsed = parseGoTime(this.text, layout);
    if (!parsed.ok) return { eof: false, message: `invalid ${isTime ? 'TIME' : 'DATE'} value: ${parsed.error}` };
    if (parsed.year < 1900 || parsed.year > 2999) {
      return { eof: false, message: `${isTime ? 'timestamp' : 'datestamp'} year ${parsed.year} out of range` };
    }
    this.tok = isTime ? Tok.Time : Tok.Date;
    return undefined;
  }
}
