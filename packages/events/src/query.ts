/**
 * The CometBFT v0.38 event query language: parser (libs/pubsub/query/syntax/parser.go),
 * compiler and matcher (libs/pubsub/query/query.go).
 */
import { compareDecimals, parseAttributeNumber, parseDecimal, type Decimal } from './decimal.js';
import { QueryParseError } from './errors.js';
import { parseGoTime, type GoLayout } from './gotime.js';
import { Scanner, Tok, tokenName } from './scanner.js';

/** Comparison operators of the query language. */
export type Operator = '=' | '<' | '<=' | '>' | '>=' | 'CONTAINS' | 'EXISTS';

/**
 * A typed condition argument. `text` is the source text (without quotes or the TIME/DATE keyword);
 * numbers are kept as text so big integers stay exact (see `compareDecimal`); dates/times also carry
 * the instant they denote.
 */
export type QueryArg =
  | { readonly type: 'string'; readonly text: string }
  | { readonly type: 'number'; readonly text: string }
  | { readonly type: 'date'; readonly text: string; readonly value: Date }
  | { readonly type: 'time'; readonly text: string; readonly value: Date };

/** One `tag op arg` condition; `arg` is absent exactly for EXISTS. */
export interface Condition {
  readonly tag: string;
  readonly op: Operator;
  readonly arg?: QueryArg;
}

const OP_TOKENS: Record<Operator, Tok> = {
  '=': Tok.Eq, '<': Tok.Lt, '<=': Tok.Leq, '>': Tok.Gt, '>=': Tok.Geq, CONTAINS: Tok.Contains, EXISTS: Tok.Exists,
};
const ARG_TOKENS: Record<QueryArg['type'], Tok> = { string: Tok.String, number: Tok.Number, date: Tok.Date, time: Tok.Time };
const ORDER_OPS: readonly Operator[] = ['<', '<=', '>', '>='];

/** Formats one condition the way CometBFT's `Condition.String()` does. */
function conditionString(c: Condition): string {
  const head = `${c.tag} ${c.op}`;
  const a = c.arg;
  if (a === undefined) return head;
  switch (a.type) {
    case 'string': return `${head} '${a.text}'`;
    case 'time': return `${head} TIME ${a.text}`;
    case 'date': return `${head} DATE ${a.text}`;
    default: return `${head} ${a.text}`;
  }
}

type Matcher = (value: string) => boolean;

/** A compiled condition: its tag and value predicate. */
interface Compiled {
  readonly tag: string;
  readonly match: Matcher;
}

/** Applies an ordering operator to a comparator result. */
function holds(op: Operator, cmp: number): boolean {
  switch (op) {
    case '=': return cmp === 0;
    case '<': return cmp < 0;
    case '<=': return cmp <= 0;
    case '>': return cmp > 0;
    default: return cmp >= 0;
  }
}

function compileError(c: Condition, reason: string): QueryParseError {
  return new QueryParseError(`compile ${conditionString(c)}: ${reason}`);
}

/** Builds the value matcher of a condition (CometBFT `compileCondition` / `opTypeMap`). */
function compileCondition(c: Condition): Compiled {
  const opTok = OP_TOKENS[c.op];
  if (opTok === undefined) throw compileError(c, `unknown operator ${String(c.op)}`);
  if (c.op === 'EXISTS') {
    if (c.arg !== undefined) throw compileError(c, 'unexpected argument for EXISTS operator');
    return { tag: c.tag, match: () => true };
  }
  const arg = c.arg;
  if (arg === undefined) throw compileError(c, `missing argument for ${tokenName(opTok)}`);
  const argTok = ARG_TOKENS[arg.type];
  if (argTok === undefined) throw compileError(c, `unknown argument type ${String(arg.type)}`);
  const valid =
    (c.op === 'CONTAINS' && arg.type === 'string') ||
    c.op === '=' ||
    (ORDER_OPS.includes(c.op) && arg.type !== 'string');
  if (!valid) throw compileError(c, `invalid op/arg combination (${tokenName(opTok)}, ${tokenName(argTok)})`);

  const op = c.op;
  switch (arg.type) {
    case 'string': {
      const want = arg.text;
      return { tag: c.tag, match: op === 'CONTAINS' ? (s) => s.includes(want) : (s) => s === want };
    }
    case 'number': {
      const want: Decimal | undefined = parseDecimal(arg.text);
      if (want === undefined) throw compileError(c, `invalid number ${JSON.stringify(arg.text)}`);
      return {
        tag: c.tag,
        match: (s) => {
          const got = parseAttributeNumber(s);
          return got !== undefined && holds(op, compareDecimals(got, want));
        },
      };
    }
    case 'date':
    case 'time': {
      const layout: GoLayout = arg.type === 'time' ? 'rfc3339' : 'date';
      const parsed = parseGoTime(arg.text, layout);
      if (!parsed.ok) throw compileError(c, `invalid ${arg.type === 'time' ? 'TIME' : 'DATE'} value: ${parsed.error}`);
      const want = parsed.epochNs;
      return {
        tag: c.tag,
        match: (s) => {
          const got = parseGoTime(s, layout);
          return got.ok && holds(op, got.epochNs < want ? -1 : got.epochNs > want ? 1 : 0);
        },
      };
    }
  }
}

/**
 * A flattened event map pre-processed for matching many queries against it (the bus builds one per
 * publish). CometBFT expands key `"a.b.c"` into an event of type `"a.b"` with attribute `"c"`; a
 * condition tag then matches the event type (compared against `""`) or the full name `type.attr`.
 */
export class IndexedEvents {
  /** Whether the source map had no keys (such a map never matches). */
  readonly empty: boolean;
  private readonly types = new Set<string>();
  private readonly byName = new Map<string, (readonly string[])[]>();

  constructor(events: Readonly<Record<string, readonly string[]>>) {
    const keys = Object.keys(events);
    this.empty = keys.length === 0;
    for (const key of keys) {
      const dot = key.lastIndexOf('.');
      this.types.add(dot < 0 ? '' : key.slice(0, dot));
      // A key without a dot has type "" and full name ".key", so it is reachable only via that name.
      const fullName = dot < 0 ? `.${key}` : key;
      const lists = this.byName.get(fullName);
      if (lists === undefined) this.byName.set(fullName, [events[key]!]);
      else lists.push(events[key]!);
    }
  }

  /** @internal Reports whether compiled condition `c` is satisfied by some event (CometBFT `matchesAny`). */
  satisfies(c: Compiled): boolean {
    // Tag naming an event type: matched against "" (this is what makes `<type> EXISTS` work).
    if (this.types.has(c.tag) && c.match('')) return true;
    const lists = this.byName.get(c.tag);
    if (lists === undefined) return false;
    for (const values of lists) for (const v of values) if (c.match(v)) return true;
    return false;
  }
}

/** A parsed and compiled event query. Immutable. */
export class Query {
  /** The conditions, all of which must hold (AND). */
  readonly conditions: readonly Condition[];
  private readonly compiled: readonly Compiled[];
  private readonly normalized: string;

  private constructor(conditions: readonly Condition[]) {
    if (conditions.length === 0) throw new QueryParseError('query must have at least one condition');
    this.conditions = Object.freeze(conditions.map((c) => Object.freeze({ ...c })));
    this.compiled = conditions.map(compileCondition);
    this.normalized = conditions.map(conditionString).join(' AND ');
  }

  /** Parses query text; same as {@link parseQuery}. */
  static parse(text: string): Query {
    return parseQuery(text);
  }

  /** Builds a query from conditions, validating them like CometBFT's `Compile` (throws QueryParseError). */
  static fromConditions(conditions: readonly Condition[]): Query {
    return new Query(conditions);
  }

  /** Normalized text (CometBFT `String()`): `tag op arg` joined by ` AND `, single spaces. */
  toString(): string {
    return this.normalized;
  }

  /** True when both queries have the same normalized text. */
  equals(other: Query): boolean {
    return this.normalized === other.normalized;
  }

  /**
   * CometBFT pubsub matching against a flattened event map: every condition must be satisfied by
   * some value of its key (different conditions may be satisfied by different events); an empty
   * map never matches. Pass an {@link IndexedEvents} to match many queries against one map cheaply.
   */
  matches(events: Readonly<Record<string, readonly string[]>> | IndexedEvents): boolean {
    const index = events instanceof IndexedEvents ? events : new IndexedEvents(events);
    if (index.empty) return false;
    for (const c of this.compiled) if (!index.satisfies(c)) return false;
    return true;
  }
}

const OPERATOR_BY_TOKEN = new Map<Tok, Operator>(
  (Object.entries(OP_TOKENS) as [Operator, Tok][]).map(([op, tok]) => [tok, op]),
);

/** Advances the scanner and requires one of `tokens` (CometBFT `Parser.require`). */
function require(s: Scanner, tokens: readonly Tok[]): void {
  const err = s.next();
  if (err !== undefined) throw new QueryParseError(`offset ${s.pos}: ${err.message}`, s.pos);
  if (tokens.includes(s.tok)) return;
  const names = tokens.map(tokenName);
  const wanted = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]!}`;
  throw new QueryParseError(`offset ${s.pos}: got ${tokenName(s.tok)}, wanted ${wanted}`, s.pos);
}

function toArg(s: Scanner): QueryArg {
  const text = s.text;
  switch (s.tok) {
    case Tok.String: return { type: 'string', text };
    case Tok.Number: return { type: 'number', text };
    case Tok.Time:
    case Tok.Date: {
      const type = s.tok === Tok.Time ? 'time' : 'date';
      const parsed = parseGoTime(text, type === 'time' ? 'rfc3339' : 'date');
      if (!parsed.ok) throw new QueryParseError(`offset ${s.pos}: ${parsed.error}`, s.pos); // unreachable: scanner validated
      return { type, text, value: new Date(Number(parsed.epochNs / 1_000_000n)) };
    }
    default: throw new QueryParseError(`offset ${s.pos}: unexpected ${tokenName(s.tok)}`, s.pos);
  }
}

function parseCondition(s: Scanner): Condition {
  require(s, [Tok.Tag]);
  const tag = s.text;
  require(s, [Tok.Leq, Tok.Geq, Tok.Lt, Tok.Gt, Tok.Eq, Tok.Contains, Tok.Exists]);
  const op = OPERATOR_BY_TOKEN.get(s.tok)!;
  switch (op) {
    case 'EXISTS': return { tag, op };
    case 'CONTAINS': require(s, [Tok.String]); break;
    case '=': require(s, [Tok.Number, Tok.Time, Tok.Date, Tok.String]); break;
    default: require(s, [Tok.Number, Tok.Time, Tok.Date]);
  }
  return { tag, op, arg: toArg(s) };
}

/**
 * Parses a CometBFT event query (`cond AND cond ...`). Throws {@link QueryParseError} with
 * CometBFT's messages; offsets are UTF-8 byte offsets. Like CometBFT, the empty query is rejected
 * (`offset 0: EOF`) and input ending inside an unterminated string after a complete condition is
 * treated as end of input. No length limit is applied here.
 */
export function parseQuery(text: string): Query {
  const s = new Scanner(text);
  const conditions = [parseCondition(s)];
  for (;;) {
    const err = s.next();
    if (err?.eof === true) break;
    // On a scan error the token is Invalid, which yields CometBFT's "got invalid token" message.
    // CometBFT formats the expected token with %v on an untyped constant, so a real node says
    // "want 6" (not "want AND operator"); we reproduce its exact text.
    if (s.tok !== Tok.And) {
      throw new QueryParseError(`offset ${s.pos}: got ${tokenName(s.tok)}, want ${Tok.And}`, s.pos);
    }
    conditions.push(parseCondition(s));
  }
  return Query.fromConditions(conditions);
}
