/**
 * REST routes derived from the proto services' `google.api.http` annotations: every query service the
 * app router serves gets its routes here, under `/chain/...` and the Cosmos spelling `/cosmos/...`; a
 * binding outside `/chain/` (an `additional_bindings` alias such as the original chain's `/token/...`) is
 * served as written, in the Cosmos dialect.
 */
import type { QueryRoute } from '@chain/app';

export interface HttpBinding { readonly method: 'GET' | 'POST'; readonly template: string; readonly body?: string }

export interface RestRoute {
  readonly method: 'GET' | 'POST';
  /** path template with `{param}` placeholders */
  readonly template: string;
  readonly regex: RegExp;
  readonly params: readonly string[];
  readonly body?: string;
  readonly dialect: 'chain' | 'cosmos';
  readonly query: QueryRoute;
  /** literal segments (more = more specific; tried first) */
  readonly specificity: number;
}

/** The HTTP bindings of a method, read from its parsed `(google.api.http)` option. */
export function httpBindings(route: QueryRoute): HttpBinding[] {
  const out: HttpBinding[] = [];
  const visit = (rule: Record<string, unknown> | undefined): void => {
    if (!rule) return;
    if (typeof rule.get === 'string') out.push({ method: 'GET', template: rule.get });
    if (typeof rule.post === 'string') out.push({ method: 'POST', template: rule.post, body: typeof rule.body === 'string' ? rule.body : undefined });
    const add = rule.additional_bindings;
    if (Array.isArray(add)) for (const a of add) visit(a as Record<string, unknown>);
    else if (add && typeof add === 'object') visit(add as Record<string, unknown>);
  };
  for (const opt of route.method.parsedOptions ?? []) {
    const rule = (opt as Record<string, unknown>)['(google.api.http)'];
    if (rule && typeof rule === 'object') visit(rule as Record<string, unknown>);
  }
  return out;
}

/** Cosmos spelling of a canonical REST path. */
export function cosmosPath(template: string): string {
  if (template.startsWith('/chain/base/consensus/')) return '/cosmos/base/tendermint/' + template.slice('/chain/base/consensus/'.length);
  if (template.startsWith('/chain/')) return '/cosmos/' + template.slice('/chain/'.length);
  return template;
}

function compile(template: string): { regex: RegExp; params: string[]; specificity: number } {
  const params: string[] = [];
  let specificity = 0;
  const parts = template.split('/').filter((s) => s !== '');
  const re = parts.map((seg) => {
    const m = /^\{([a-zA-Z0-9_.]+)(=[^}]*)?\}$/.exec(seg);
    if (m) {
      params.push(m[1]!);
      return '([^/]+)';
    }
    specificity++;
    return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return { regex: new RegExp('^/' + re.join('/') + '/?$'), params, specificity };
}

export function buildRoutes(queryRoutes: readonly QueryRoute[]): RestRoute[] {
  const out: RestRoute[] = [];
  for (const q of queryRoutes) {
    for (const b of httpBindings(q)) {
      // a binding outside `/chain/` is another chain's path kept as an alias (the token module's `/token/...`,
      // the original chain's): served once, in the Cosmos dialect its clients expect
      const spellings = b.template.startsWith('/chain/')
        ? [['chain', b.template], ['cosmos', cosmosPath(b.template)]] as const
        : [['cosmos', b.template]] as const;
      for (const [dialect, template] of spellings) {
        const c = compile(template);
        out.push({ method: b.method, template, body: b.body, dialect, query: q, ...c });
      }
    }
  }
  out.sort((a, b) => b.specificity - a.specificity || a.params.length - b.params.length);
  // a binding with exactly the shape of an earlier one is never reached (grpc-gateway v1 dispatches to the
  // first registered match, e.g. auth `bech32/{address_bytes}` shadows `bech32/{address_string}`): it is
  // not served, so it is left out (and out of the Swagger document)
  const seen = new Set<string>();
  return out.filter((r) => {
    const key = `${r.method} ${r.regex.source}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function matchRoute(routes: readonly RestRoute[], method: string, path: string): { route: RestRoute; params: Record<string, string> } | 'method' | undefined {
  let wrongMethod = false;
  for (const r of routes) {
    const m = r.regex.exec(path);
    if (!m) continue;
    if (r.method !== method) { wrongMethod = true; continue; }
    const params: Record<string, string> = {};
    r.params.forEach((p, i) => { params[p] = decodeURIComponent(m[i + 1]!); });
    return { route: r, params };
  }
  return wrongMethod ? 'method' : undefined;
}
