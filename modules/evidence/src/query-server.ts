/**
 * The Query service of evidence (`chain.evidence.v1beta1.Query`), as x/evidence/keeper/grpc_query.go of
 * SDK v0.45: Evidence (empty hash → InvalidArgument `invalid hash`; missing → NotFound `evidence <HEX>
 * not found`), AllEvidence (paginated over the 0x00 prefix, hash order). The hash is accepted as v0.45's
 * bytes (base64 in a REST path), as 64 hex digits in the REST path (the gateway's base64 decoding of hex
 * text is undone), or in the v0.47 `hash` field as hex.
 */
import type { QueryServer } from '@chain/app';
import { paginate } from '@chain/app';
import type { google_protobuf } from '@chain/codec';
import { fromHex, toBase64, toHex } from '@chain/crypto';
import { GrpcCode, statusError } from '@chain/errors';
import { prefixStore } from '@chain/store';
import type { QueryMethods } from './gen/chain/evidence/v1beta1.js';
import type { EvidenceKeeper } from './keeper.js';
import { EVIDENCE_PREFIX, STORE_KEY } from './keys.js';

const HEX64 = /^[0-9a-fA-F]{64}$/;

/** The hash of a request: raw bytes, or hex text that went through a base64 decoding, or the `hash` field. */
export function requestHash(evidenceHash: Uint8Array, hash: string): Uint8Array | undefined {
  if (evidenceHash.length > 0) {
    if (evidenceHash.length === 48) {
      const text = toBase64(evidenceHash);
      if (HEX64.test(text)) return fromHex(text);
    }
    return evidenceHash;
  }
  if (hash !== '') {
    if (!/^([0-9a-fA-F]{2})+$/.test(hash)) throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid hash ${hash}: not hex`);
    return fromHex(hash);
  }
  return undefined;
}

export function createQueryServer(k: EvidenceKeeper): QueryServer<QueryMethods> {
  return {
    Evidence: (ctx, req) => {
      const hash = requestHash(req.evidence_hash, req.hash);
      if (!hash) throw statusError(GrpcCode.INVALID_ARGUMENT, 'invalid hash');
      const evidence = k.getEvidenceAny(ctx, hash);
      if (!evidence) throw statusError(GrpcCode.NOT_FOUND, `evidence ${toHex(hash).toUpperCase()} not found`);
      return { evidence };
    },
    AllEvidence: (ctx, req) => {
      const store = prefixStore(ctx.kv(STORE_KEY), Uint8Array.of(EVIDENCE_PREFIX));
      const { items, pagination } = paginate(store, req.pagination, (_key, value) => k.registry.decode<google_protobuf.Any>('google.protobuf.Any', value));
      return { evidence: items, pagination };
    },
  };
}
