/** The evm AppModule: Msg and Query services, genesis (params, code, storage, base fee), the fee market hooks. */
import type { AppModule, Context, ServiceRegistrar } from '@chain/app';
import type { ProtoObject, ProtoRegistry } from '@chain/codec';
import { fromHex, toHex } from '@chain/crypto';
import { verifiedEthTx } from './ante.js';
import { EvmErrors } from './errors.js';
import { applyEthereumTx } from './handler.js';
import type { EvmKeeper } from './keeper.js';
import { DEFAULT_EVM_PARAMS, nextBaseFee, parseParams } from './params.js';
import type { EvmParams } from './params.js';
import { queryHandlers } from './query.js';
import { ETHERMINT_EXTENSION_OPTION_URL, EXTENSION_OPTION_ETH_TX, GENESIS_TYPE, MODULE_NAME } from './keys.js';

/** Version of the module's state layout (the SDK's ConsensusVersion). */
export const CONSENSUS_VERSION = 1;

export const EVM_PROTO_DIR = new URL('../proto', import.meta.url).pathname;

export const EVENT_FEE_MARKET = 'fee_market';
export const EVENT_BLOCK_GAS = 'block_gas';
export const EVENT_BLOCK_BLOOM = 'block_bloom';

export interface GenesisAccount { address: string; code: string; storage: { key: string; value: string }[] }
export interface EvmGenesisState { params: EvmParams | null; accounts: GenesisAccount[]; base_fee: string }

function hexBytes(what: string, s: string, len?: number): Uint8Array {
  if (!/^0x[0-9a-fA-F]*$/.test(s) || s.length % 2 !== 0) throw new Error(`${what}: invalid 0x hex '${s.slice(0, 80)}'`);
  const b = fromHex(s);
  if (len !== undefined && b.length !== len) throw new Error(`${what}: expected ${len} bytes, got ${b.length}`);
  return b;
}

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
    const k = this.keeper;
    reg.registerMsgService('chain.evm.v1.Msg', {
      EthereumTx: async (ctx, msg) => {
        const v = verifiedEthTx(msg);
        if (!v) throw EvmErrors.NotVerified.wrap('send it in a tx with the ExtensionOptionsEthereumTx extension option through the evm ante handler');
        return applyEthereumTx(k, ctx, v);
      },
    });
    reg.registerQueryService('chain.evm.v1.Query', queryHandlers(k));
  }

  defaultGenesis(): ProtoObject {
    return { params: { ...DEFAULT_EVM_PARAMS }, accounts: [], base_fee: '' };
  }

  validateGenesis(g: ProtoObject): void {
    const gen = g as unknown as EvmGenesisState;
    parseParams(gen.params ?? DEFAULT_EVM_PARAMS);
    if (gen.base_fee && !/^[0-9]+$/.test(gen.base_fee)) throw new Error(`invalid base_fee '${gen.base_fee}'`);
    const seen = new Set<string>();
    for (const a of gen.accounts) {
      const addr = this.address(a.address);
      const key = toHex(addr);
      if (seen.has(key)) throw new Error(`duplicate evm genesis account ${a.address}`);
      seen.add(key);
      hexBytes(`code of ${a.address}`, a.code || '0x');
      for (const s of a.storage) {
        hexBytes(`storage key of ${a.address}`, s.key, 32);
        hexBytes(`storage value of ${a.address}`, s.value, 32);
      }
    }
  }

  private address(text: string): Uint8Array {
    if (/^0x[0-9a-fA-F]{40}$/.test(text)) return fromHex(text);
    const b = this.keeper.ak.addressCodec.decode(text);
    if (b.length !== 20) throw new Error(`evm genesis address ${text} is not 20 bytes`);
    return b;
  }

  initGenesis(ctx: Context, g: ProtoObject): void {
    const gen = g as unknown as EvmGenesisState;
    const k = this.keeper;
    const params = gen.params ?? { ...DEFAULT_EVM_PARAMS };
    k.setParams(ctx, params);
    k.setBaseFee(ctx, gen.base_fee ? BigInt(gen.base_fee) : parseParams(params).initialBaseFee);
    for (const a of gen.accounts) {
      const addr = this.address(a.address);
      k.setCode(ctx, addr, hexBytes('code', a.code || '0x'));
      for (const s of a.storage) k.setState(ctx, addr, hexBytes('key', s.key, 32), hexBytes('value', s.value, 32));
    }
  }

  exportGenesis(ctx: Context): ProtoObject {
    const k = this.keeper;
    const accounts: GenesisAccount[] = [];
    for (const addr of k.contracts(ctx)) {
      const storage = [...k.storage(ctx, addr)].map(([key, value]) => ({ key: '0x' + toHex(key), value: '0x' + toHex(value) }));
      accounts.push({ address: '0x' + toHex(addr), code: '0x' + toHex(k.getCode(ctx, addr)), storage });
    }
    return { params: k.getParams(ctx), accounts, base_fee: k.getBaseFee(ctx).toString() };
  }

  /** Emits the base fee of this block (`fee_market.base_fee`), the value Ethereum blocks carry as baseFeePerGas. */
  beginBlock(ctx: Context): void {
    this.keeper.startBlock(ctx);
    ctx.events.emit(EVENT_FEE_MARKET, [['base_fee', this.keeper.getBaseFee(ctx).toString()]]);
  }

  /**
   * EIP-1559 update: the next block's base fee from this block's base fee and the Ethereum gas its txs used;
   * emits `block_gas{height, amount}` and `block_bloom{bloom}` (hex logs bloom of the block).
   */
  endBlock(ctx: Context): void {
    const k = this.keeper;
    const t = k.blockTracker(ctx);
    const params = k.params(ctx);
    k.setBaseFee(ctx, nextBaseFee(k.getBaseFee(ctx), t.gasUsed, params));
    ctx.events.emit(EVENT_BLOCK_GAS, [['height', String(ctx.block.height)], ['amount', t.gasUsed.toString()]]);
    ctx.events.emit(EVENT_BLOCK_BLOOM, [['bloom', '0x' + toHex(t.bloom)]]);
  }
}
