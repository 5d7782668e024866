/** chain.base.consensus.v1beta1.Service (Cosmos `cosmos.base.tendermint.v1beta1.Service`): node info and blocks. */
import type { App, QueryHandler } from '@chain/app';
import { pageParams } from '@chain/app';
import type { Engine } from '@chain/consensus';
import { toBech32, toHex } from '@chain/crypto';
import { statusError, GrpcCode } from '@chain/errors';
import { blockIdObj, blockObj } from './block-json.js';

export const COMETBFT_VERSION = '0.38.17';

export interface NodeInfoSource {
  readonly nodeId: string;
  readonly moniker: string;
  readonly rpcAddress: string;
  readonly listenAddress: string;
  readonly version: string;
}

export function createConsensusService(app: App, engine: Engine, info: NodeInfoSource, bech32Prefix: string): Record<string, QueryHandler> {
  const blockAt = async (height: number) => {
    const latest = engine.latestHeight;
    if (height > latest) throw statusError(GrpcCode.INVALID_ARGUMENT, 'requested block height is bigger then the chain length');
    if (height < 1) throw statusError(GrpcCode.INVALID_ARGUMENT, 'height must be greater than 0');
    const b = await engine.blocks.block(height);
    if (!b) throw statusError(GrpcCode.NOT_FOUND, `block at height ${height} not found`);
    const block = blockObj(b.block);
    const sdkBlock = { ...block, header: { ...(block.header as object), proposer_address: toBech32(bech32Prefix + 'valcons', b.block.header.proposerAddress) } };
    return { block_id: blockIdObj(b.blockId), block, sdk_block: sdkBlock };
  };
  const validatorSet = (height: number, pagination: unknown) => {
    const p = pageParams(pagination as never);
    const vals = engine.validators.map((v) => ({
      address: toBech32(bech32Prefix + 'valcons', v.address),
      pub_key: app.registry.packAny('chain.crypto.ed25519.PubKey', { key: v.pubKey }),
      voting_power: BigInt(v.votingPower),
      proposer_priority: BigInt(v.proposerPriority),
    }));
    return { block_height: BigInt(height), validators: vals.slice(p.offset, p.offset + p.limit), pagination: { next_key: null, total: BigInt(vals.length) } };
  };
  return {
    GetNodeInfo: () => ({
      default_node_info: {
        protocol_version: { p2p: 8n, block: 11n, app: 0n },
        default_node_id: info.nodeId,
        listen_addr: info.listenAddress,
        network: engine.chainId,
        version: COMETBFT_VERSION,
        channels: new Uint8Array([0x40, 0x20, 0x21, 0x22, 0x23, 0x30, 0x38, 0x60, 0x61, 0x00]),
        moniker: info.moniker,
        other: { tx_index: 'on', rpc_address: info.rpcAddress },
      },
      application_version: {
        name: app.name, app_name: 'chaind', version: info.version, git_commit: '', build_tags: '', go_version: `node ${process.version}`,
        build_deps: [], cosmos_sdk_version: 'chain (TypeScript, Cosmos SDK 0.47 wire-compatible)',
      },
    }),
    GetSyncing: () => ({ syncing: false }),
    GetLatestBlock: () => blockAt(engine.latestHeight),
    GetBlockByHeight: (_ctx, req) => blockAt(Number(req.height ?? 0n)),
    GetLatestValidatorSet: (_ctx, req) => validatorSet(engine.latestHeight, req.pagination),
    GetValidatorSetByHeight: (_ctx, req) => {
      const h = Number(req.height ?? 0n);
      if (h > engine.latestHeight) throw statusError(GrpcCode.INVALID_ARGUMENT, 'requested block height is bigger then the chain length');
      if (h < 1) throw statusError(GrpcCode.INVALID_ARGUMENT, 'height must be greater than 0');
      return validatorSet(h, req.pagination);
    },
  };
}

export { toHex };
