/**
 * The Cosmos spellings of the canonical proto names: the gRPC server serves each query service twice
 * (`chain.bank.v1beta1.Query` and `cosmos.bank.v1beta1.Query`), and reflection describes both trees.
 *
 * The service renames mirror the app router's path aliases (`/cosmos.` → `/chain.`, and the node's
 * `/cosmos.base.tendermint.` → `/chain.base.consensus.`); the server checks each derived name against
 * `router.queryRoute`, so a name the router does not answer is never served.
 */
import type { ProtoRegistry } from '@chain/codec';

/** Canonical package prefix → Cosmos package prefix, most specific first. */
export const COSMOS_PACKAGE_RENAMES: readonly (readonly [string, string])[] = [
  ['chain.base.consensus.', 'cosmos.base.tendermint.'],
  ['chain.', 'cosmos.'],
];

/** `chain.bank.v1beta1.Query` → `cosmos.bank.v1beta1.Query` (undefined when there is no Cosmos spelling). */
export function cosmosName(canonical: string): string | undefined {
  const dotted = canonical + '.';
  for (const [from, to] of COSMOS_PACKAGE_RENAMES) {
    if (dotted.startsWith(from)) return (to + dotted.slice(from.length)).slice(0, -1);
  }
  return undefined;
}

/**
 * The Cosmos name of a canonical service: the registry's Cosmos package alias of its package when it has one
 * (the token module's `chain.prc10.Query` → the original chain's `plugchain.prc10.Query`, as its type URLs
 * and reflection spell it), otherwise the renames (`cosmosName`).
 */
export function cosmosServiceName(registry: ProtoRegistry, canonical: string): string | undefined {
  for (const a of registry.packageAliases()) {
    if (a.cosmos && canonical.startsWith(a.canonical + '.')) return a.alias + canonical.slice(a.canonical.length);
  }
  return cosmosName(canonical);
}

/**
 * The Cosmos package of a canonical package, for reflection. When the registry declares explicit
 * Cosmos type-URL aliases for types of the package and they agree on one package, that package wins
 * (`chain.crypto.ethsecp256k1` → `ethermint.crypto.v1.ethsecp256k1`), so the type URLs of Cosmos-dialect
 * responses can be looked up by reflection; otherwise the service renames apply.
 */
export function cosmosPackage(registry: ProtoRegistry, pkg: string, topLevelTypeNames: readonly string[]): string | undefined {
  const byRule = cosmosName(pkg);
  if (byRule === undefined) return undefined;
  // the registry's default spelling is the plain `/chain.` → `/cosmos.` rename: only explicit aliases differ
  const plain = 'cosmos.' + pkg.slice('chain.'.length);
  const explicit = new Set<string>();
  for (const name of topLevelTypeNames) {
    const url = registry.cosmosTypeUrl(`/${pkg}.${name}`);
    if (url === `/${plain}.${name}` || url === `/${pkg}.${name}`) continue;
    if (!url.endsWith('.' + name)) return byRule;
    explicit.add(url.slice(1, -(name.length + 1)));
  }
  return explicit.size === 1 ? [...explicit][0]! : byRule;
}
