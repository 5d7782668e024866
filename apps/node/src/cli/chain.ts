/**
 * What the generic client commands (keyring, AutoCLI, tx builder) need to know of this chain, and the only file
 * of `src/cli/` that reaches into the node: the app's proto registry with its query and Msg services (built by
 * `createChainApp` over a throwaway store, so the CLI sees exactly the node's modules), which module owns each
 * service, the bech32 prefix, the base denom, the dev mnemonic and genesis validation. Another chain gives its own
 * `CliChain` to `runClient` (commands.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProtoRegistry } from '@chain/codec';
import { CommitStore } from '@chain/store';
import { DEV_MNEMONIC } from '@chain/crypto';
import { consensusParamsOf, validatorsOf } from '@chain/consensus';
import type { GenesisDoc } from '@chain/consensus';
import { createChainApp } from '../app.js';
import { BASE_DENOM, BECH32_PREFIX, DEV_CHAIN_ID } from '../config/init.js';
import type { CliServiceRef } from './autocli.js';

export interface CliChain {
  readonly name: string;
  readonly registry: ProtoRegistry;
  readonly services: readonly CliServiceRef[];
  readonly bech32Prefix: string;
  readonly baseDenom: string;
  /** the chain id of `chaind dev` (shown in examples) */
  readonly devChainId: string;
  /** the funded dev accounts' mnemonic (`keys add NAME --recover --dev`) */
  readonly devMnemonic: string;
  /** validates a genesis document (throws with the reason); the SDK's `validate-genesis` */
  validateGenesis(doc: unknown): void;
}

const stripDot = (n: string): string => (n.startsWith('.') ? n.slice(1) : n);

/** The chain's CLI description, from its app composition. */
export async function loadCliChain(): Promise<CliChain> {
  const dir = mkdtempSync(join(tmpdir(), 'chaind-cli-'));
  const store = await CommitStore.open(join(dir, 'db'));
  let parts: ReturnType<typeof createChainApp>;
  try {
    parts = createChainApp({ store, chainId: DEV_CHAIN_ID, minGasPrices: '' });
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const { registry, router, app } = parts;
  // the module of a proto package: the module that registered its Msg service, else the package's second part
  const pkgModule = new Map<string, string>();
  const refs: CliServiceRef[] = [];
  const msgServices = new Map<string, string>();
  for (const svc of registry.services()) {
    for (const m of svc.methodsArray) {
      m.resolve();
      const route = router.msgRoute(stripDot(m.resolvedRequestType!.fullName));
      if (route && route.module) {
        msgServices.set(stripDot(svc.fullName), route.module);
        pkgModule.set(stripDot(svc.parent!.fullName), route.module);
        break;
      }
    }
  }
  for (const [service, module] of msgServices) refs.push({ module, service, kind: 'msg' });
  const queryServices = new Set(router.allQueryRoutes().map((r) => stripDot(r.service.fullName)));
  for (const service of queryServices) {
    const pkg = service.slice(0, service.lastIndexOf('.'));
    const module = pkgModule.get(pkg) ?? pkg.split('.')[1] ?? pkg;
    refs.push({ module, service, kind: 'query' });
  }
  return {
    name: 'chaind',
    registry,
    services: refs,
    bech32Prefix: BECH32_PREFIX,
    baseDenom: BASE_DENOM,
    devChainId: DEV_CHAIN_ID,
    devMnemonic: DEV_MNEMONIC,
    validateGenesis(raw: unknown): void {
      if (raw === null || typeof raw !== 'object') throw new Error('genesis is not a JSON object');
      const doc = raw as GenesisDoc;
      if (typeof doc.chain_id !== 'string' || doc.chain_id === '') throw new Error('genesis doc must include non-empty chain_id');
      if (doc.chain_id.length > 50) throw new Error(`chain_id in genesis doc is too long (max: 50): ${doc.chain_id}`);
      if (doc.genesis_time !== undefined && Number.isNaN(Date.parse(String(doc.genesis_time)))) throw new Error(`invalid genesis_time ${String(doc.genesis_time)}`);
      if (doc.initial_height !== undefined && !/^\d+$/.test(String(doc.initial_height))) throw new Error(`initial_height must be a non-negative integer, got ${String(doc.initial_height)}`);
      const params = consensusParamsOf(doc);
      if (!(params.block.maxBytes > 0)) throw new Error('consensus_params.block.max_bytes must be greater than 0');
      if (params.block.maxGas < -1) throw new Error('consensus_params.block.max_gas must be greater or equal to -1');
      if (!(params.evidence.maxAgeNumBlocks > 0)) throw new Error('consensus_params.evidence.max_age_num_blocks must be greater than 0');
      for (const v of validatorsOf({ ...doc, validators: doc.validators ?? [] })) {
        if (!(v.votingPower > 0)) throw new Error('genesis file cannot contain validators with no voting power');
      }
      if (doc.app_state === null || typeof doc.app_state !== 'object') throw new Error('genesis app_state must be an object');
      app.manager.decodeGenesis(registry, doc.app_state);
    },
  };
}
