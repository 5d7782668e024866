/**
 * Proposal contents (x/gov/types/content.go, proposal.go of SDK v0.45): the checks gov runs on every
 * content (`ValidateAbstract`), gov's own `TextProposal` route, and the router of the content routes the
 * modules contribute.
 */
import type { ProtoRegistry } from '@chain/codec';
import { GovErrors } from './errors.js';
import type { ProposalContentRoute } from './expected-keepers.js';
import type { TextProposal } from './gen/chain/gov/v1beta1.js';
import { ROUTER_KEY } from './keys.js';

/** `MaxTitleLength` (bytes) */
export const MAX_TITLE_LENGTH = 140;
/** `MaxDescriptionLength` (bytes) */
export const MAX_DESCRIPTION_LENGTH = 10000;

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** The title and description every content carries (fields 1 and 2 of each content message). */
export interface ContentText {
  readonly title?: string;
  readonly description?: string;
}

/**
 * `ValidateAbstract`: title not blank after trimming and at most 140 bytes; description not empty and at
 * most 10000 bytes; else `gov` 5 with the SDK's messages.
 */
export function validateAbstract(c: ContentText): void {
  const title = c.title ?? '';
  if (title.trim().length === 0) throw GovErrors.InvalidProposalContent.wrap('proposal title cannot be blank');
  if (byteLength(title) > MAX_TITLE_LENGTH) throw GovErrors.InvalidProposalContent.wrap(`proposal title is longer than max length of ${MAX_TITLE_LENGTH}`);
  const description = c.description ?? '';
  if (description.length === 0) throw GovErrors.InvalidProposalContent.wrap('proposal description cannot be blank');
  if (byteLength(description) > MAX_DESCRIPTION_LENGTH) {
    throw GovErrors.InvalidProposalContent.wrap(`proposal description is longer than max length of ${MAX_DESCRIPTION_LENGTH}`);
  }
}

/** `TextProposal` (`chain.gov.v1beta1.TextProposal`, route `gov`, type `Text`): nothing beyond the abstract checks, no effect. */
export const textProposalRoute: ProposalContentRoute<TextProposal> = {
  typeName: 'chain.gov.v1beta1.TextProposal',
  route: ROUTER_KEY,
  proposalType: 'Text',
  validate: () => undefined,
  execute: () => undefined,
};

/**
 * The content routes by proto type name (the SDK's gov router plus the interface registry's Content
 * implementations): one route per type, refused twice.
 */
export class ContentRouter {
  private readonly routes = new Map<string, ProposalContentRoute>();

  constructor(private readonly registry: ProtoRegistry) {}

  /** Adds a route; refuses a duplicate type name or an empty name/route/type. */
  add(r: ProposalContentRoute): void {
    if (!r.typeName || !r.route || !r.proposalType) throw new Error(`gov: a content route needs a typeName, a route and a proposalType (got ${JSON.stringify({ typeName: r.typeName, route: r.route, proposalType: r.proposalType })})`);
    if (this.routes.has(r.typeName)) throw new Error(`gov: content type ${r.typeName} is already routed`);
    this.routes.set(r.typeName, r);
  }

  /**
   * Refuses a routed type the registry does not know (its module's protos not loaded): run when the app has
   * loaded every module's protos (GovModule.registerTypes), so a misnamed route fails at start-up.
   */
  checkTypes(): void {
    const missing = [...this.routes.keys()].filter((n) => !this.registry.hasType(n));
    if (missing.length > 0) throw new Error(`gov: content type(s) ${missing.join(', ')} not in the registry (is the owning module in the app?)`);
  }

  /** The route of a proto type name. */
  get(typeName: string): ProposalContentRoute | undefined {
    return this.routes.get(typeName);
  }

  /** The route of an Any type URL (canonical or alias), with the canonical type name. */
  byTypeUrl(typeUrl: string): { name: string; route: ProposalContentRoute } | undefined {
    const name = this.registry.nameOfTypeUrl(typeUrl);
    if (name === undefined) return undefined;
    const route = this.routes.get(name);
    return route ? { name, route } : undefined;
  }

  /** The routed type names, sorted. */
  typeNames(): string[] {
    return [...this.routes.keys()].sort();
  }
}
