/** chain.base.consensus.v1beta1.Service (Cosmos `cosmos.base.tendermint.v1beta1.Service`): node info and blocks. */
import type { App, QueryServer } from '@chain/app';
import { pageParams } from '@chain/app';
import type { chain_base_query_v1beta1 } from '@chain/codec';
import type { Block } from '@chain/consensus';
import { toBech32, toHex } from '@chain/crypto';
import { statusError, GrpcCode } from '@chain/errors';
import { chain_base_consensus_v1beta1 } from '../gen/index.js';
import { blockIdObj, blockObj, commitObj, headerObj } from './block-json.js';
import type { ConsensusSource } from '../consensus-source.js';

/** The CometBFT version the embedded engine reports: the one tools/cometbft builds, whose RPC it mirrors. */
export const COMETBFT_VERSION = '0.38.26';

/** The definition of the service (`chain.base.consensus.v1beta1.Service`) that `createConsensusService` implements. */
export const ConsensusService = chain_base_consensus_v1beta1.Service;

/**
 * The SDK's block: tendermint.types.Block (as block-json.ts writes it) with the proposer address as bech32
 * consensus address text. Its tendermint.* parts are untyped (`ProtoObject`) until @chain/consensus has
 * generated types.
 */
function sdkBlockObj(b: Block, valconsPrefix: string): chain_base_consensus_v1beta1.Block {
  const h = b.header;
  return {
    // tendermint.types.Header as block-json writes it, but for the proposer's bech32 consensus address
    header: { ...headerObj(h), proposer_address: toBech32(valconsPrefix, h.proposerAddress) } as chain_base_consensus_v1beta1.Block['header'],
    data: { txs: b.data.txs },
    evidence: { evidence: [] },
    last_commit: b.lastCommit ? commitObj(b.lastCommit) : null,
  };
}

/** `appVersion`: the node binary's version (`application_version.version`); node info comes from the source's status. */
export function createConsensusService(app: App, source: ConsensusSource, appVersion: string, bech32Prefix: string): QueryServer<chain_base_consensus_v1beta1.ServiceMethods> {
  const blockAt = async (height: number) => {
    const latest = await source.latestHeight();
    if (height > latest) throw statusError(GrpcCode.INVALID_ARGUMENT, 'requested block height is bigger then the chain length');
    if (height < 1) throw statusError(GrpcCode.INVALID_ARGUMENT, 'height must be greater than 0');
    const b = await source.block(height);
    if (!b) throw statusError(GrpcCode.NOT_FOUND, `block at height ${height} not found`);
    return { block_id: blockIdObj(b.blockId), block: blockObj(b.block), sdk_block: sdkBlockObj(b.block, bech32Prefix + 'valcons') };
  };
  const validatorSet = async (height: number, pagination: chain_base_query_v1beta1.PageRequest | null) => {
    const p = pageParams(pagination);
    const set = (await source.validators(height)) ?? [];
    const vals = set.map((v) => ({
      address: toBech32(bech32Prefix + 'valcons', v.address),
      pub_key: app.registry.packAny('chain.crypto.ed25519.PubKey', { key: v.pubKey }),
      voting_power: BigInt(v.votingPower),
      proposer_priority: BigInt(v.proposerPriority),
    }));
    return { block_height: BigInt(height), validators: vals.slice(p.offset, p.offset + p.limit), pagination: { next_key: null, total: BigInt(vals.length) } };
  };
  return {
    GetNodeInfo: async () => {
      const info = (await source.status()).nodeInfo;
      return {
      default_node_info: {
        protocol_version: { p2p: 8n, block: 11n, app: 0n },
        default_node_id: info.nodeId,
        listen_addr: info.listenAddress,
        network: info.network,
        version: info.version,
        channels: new Uint8Array([0x40, 0x20, 0x21, 0x22, 0x23, 0x30, 0x38, 0x60, 0x61, 0x00]),
        moniker: info.moniker,
        other: { tx_index: 'on', rpc_address: info.rpcAddress },
      },
      application_version: {
        name: app.name, app_name: 'chaind', version: appVersion, git_commit: '', build_tags: '', go_version: `node ${process.version}`,
        build_deps: [], cosmos_sdk_version: 'chain (TypeScript, Cosmos SDK 0.47 wire-compatible)',
      },
      };
    },
    GetSyncing: async () => ({ syncing: (await source.status()).catchingUp }),
    GetLatestBlock: async () => blockAt(await source.latestHeight()),
    GetBlockByHeight: (_ctx, req) => blockAt(Number(req.height)),
    GetLatestValidatorSet: async (_ctx, req) => validatorSet(await source.latestHeight(), req.pagination),
    GetValidatorSetByHeight: async (_ctx, req) => {
      const h = Number(req.height);
      if (h > await source.latestHeight()) throw statusError(GrpcCode.INVALID_ARGUMENT, 'requested block height is bigger then the chain length');
      if (h < 1) throw statusError(GrpcCode.INVALID_ARGUMENT, 'height must be greater than 0');
      return validatorSet(h, req.pagination);
    },
  };
}

export { toHex };
