/** The evm AppModule: what the module manager sees (services, genesis, the fee market block hooks). */
import type { AppModule, Context, ServiceRegistrar } from '@chain/app';
import type { ProtoRegistry } from '@chain/codec';
import { toHex } from '@chain/crypto';
import { blockBloomEvent, blockGasEvent, emit, ethereumBlockEvent, feeMarketEvent } from './events.js';
import { defaultGenesis, exportGenesis, initGenesis, validateGenesis } from './genesis.js';
import type { GenesisState } from './genesis.js';
import { Msg, Query } from './gen/chain/evm/v1.js';
import { createMsgServer } from './handler.js';
import type { EvmKeeper } from './keeper.js';
import { ETHERMINT_EXTENSION_OPTION_URL, EXTENSION_OPTION_ETH_TX, GENESIS_TYPE, MODULE_NAME } from './keys.js';
import { nextBaseFee } from './params.js';
import { createQueryServer } from './query.js';

/** Version of the module's state layout (the SDK's ConsensusVersion). */
export const CONSENSUS_VERSION = 1;

export const EVM_PROTO_DIR = new URL('../proto', import.meta.url).pathname;

export class EvmModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly consensusVersion = CONSENSUS_VERSION;
  readonly protoDirs = [EVM_PROTO_DIR];
  readonly genesisType = GENESIS_TYPE;

  constructor(readonly keeper: EvmKeeper) {}

  registerTypes(registry: ProtoRegistry): void {
    registry.registerAlias(ETHERMINT_EXTENSION_OPTION_URL, EXTENSION_OPTION_ETH_TX);
  }

  registerServices(reg: ServiceRegistrar): void {
    reg.registerMsgService(Msg, createMsgServer(this.keeper));
    reg.registerQueryService(Query, createQueryServer(this.keeper));
  }

  defaultGenesis(): GenesisState {
    return defaultGenesis();
  }

  validateGenesis(gen: GenesisState): void {
    validateGenesis(gen, this.keeper.ak);
  }

  initGenesis(ctx: Context, gen: GenesisState): void {
    initGenesis(ctx, this.keeper, gen);
  }

  exportGenesis(ctx: Context): GenesisState {
    return exportGenesis(ctx, this.keeper);
  }

  /** Emits the base fee of this block (`fee_market.base_fee`), the value Ethereum blocks carry as baseFeePerGas. */
  beginBlock(ctx: Context): void {
    this.keeper.startBlock(ctx);
    emit(ctx, feeMarketEvent(this.keeper.getBaseFee(ctx)));
  }

  /**
   * The block's Ethereum header: computed from consensus data, its hash kept in state for BLOCKHASH
   * (`sealBlock`) and emitted as `ethereum_block`. Then the EIP-1559 update: the next block's base fee from this
   * block's base fee and the Ethereum gas its txs used; emits `block_gas{height, amount}` and
   * `block_bloom{bloom}` (hex logs bloom of the block).
   */
  endBlock(ctx: Context): void {
    const k = this.keeper;
    const t = k.blockTracker(ctx);
    const header = k.sealBlock(ctx);
    const params = k.params(ctx);
    k.setBaseFee(ctx, nextBaseFee(k.getBaseFee(ctx), t.gasUsed, params));
    emit(ctx, blockGasEvent(ctx.block.height, t.gasUsed));
    emit(ctx, blockBloomEvent('0x' + toHex(t.bloom)));
    emit(ctx, ethereumBlockEvent(header));
  }
}
