/** evidence genesis (x/evidence/genesis.go, types/genesis.go of SDK v0.45): default, validation, init, export. */
import type { Context } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { EQUIVOCATION_TYPE, validateEquivocation } from './equivocation.js';
import type { Equivocation, GenesisState } from './gen/chain/evidence/v1beta1.js';
import type { EvidenceKeeper } from './keeper.js';

export type { GenesisState };

export function defaultGenesis(): GenesisState {
  return { evidence: [] };
}

/** Each entry must be an evidence (an Equivocation: `expected evidence` otherwise) passing ValidateBasic. */
export function validateGenesis(gen: GenesisState, registry: ProtoRegistry): Equivocation[] {
  return gen.evidence.map((any) => {
    let unpacked: { name: string; message: Equivocation };
    try {
      unpacked = registry.unpackAny<Equivocation>(any);
    } catch {
      throw new Error('expected evidence');
    }
    if (unpacked.name !== EQUIVOCATION_TYPE) throw new Error('expected evidence');
    validateEquivocation(unpacked.message);
    return unpacked.message;
  });
}

/** `InitGenesis`: validates, then stores each evidence; a duplicate hash fails (`evidence with hash <HEX> already exists`). */
export function initGenesis(ctx: Context, k: EvidenceKeeper, gen: GenesisState): void {
  for (const e of validateGenesis(gen, k.registry)) {
    const hash = k.hash(e);
    if (k.getEvidenceAny(ctx, hash)) throw new Error(`evidence with hash ${Buffer.from(hash).toString('hex').toUpperCase()} already exists`);
    k.setEvidence(ctx, e);
  }
}

/** `ExportGenesis`: every stored evidence in hash order (walks the schema; an unmapped collection throws). */
export function exportGenesis(ctx: Context, k: EvidenceKeeper): GenesisState {
  const { evidence, ...unmapped } = k.state.schema.exportAll(ctx);
  void evidence;
  const left = Object.keys(unmapped);
  if (left.length > 0) throw new Error(`evidence genesis: no GenesisState field for the collection(s) ${left.join(', ')}`);
  return { evidence: k.getAllEvidence(ctx) };
}
