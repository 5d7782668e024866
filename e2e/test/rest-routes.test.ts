/**
 * Every REST route of the Swagger document (GET /swagger), in both spellings (`/chain/...` and
 * `/cosmos/...`, `/cosmos/base/tendermint/...` for `/chain/base/consensus/...`), over real HTTP with
 * valid parameters: HTTP 200, application/json, gRPC-gateway JSON checked against the response schema
 * of the document (snake_case keys, 64-bit integers as strings, enums by name, bytes as base64, every
 * field emitted), the `Grpc-Metadata-X-Cosmos-Block-Height` header, and equal answers in both
 * spellings up to the `@type` dialect; the token module's routes also under the original chain's paths
 * (`/token/...`, answering as the Cosmos spelling). A route of the document missing from the parameter
 * tables below fails the test. Also `[api]`: `--api.enable=false` opens no REST listener; `swagger = false` serves
 * no Swagger document.
 */
import { expect } from 'chai';
import { Socket } from 'node:net';
import { TextProposal, VoteOption } from 'cosmjs-types/cosmos/gov/v1beta1/gov';
import { toBase64 } from '@cosmjs/encoding';
import { SigningStargateClient, GasPrice } from '@cosmjs/stargate';
import { fromBase64, fromBech32, sha256, toBech32 } from '@chain/crypto';
import { decAtomics, liquidityRegistry } from '../src/liquidity.js';
import { startNode, startTargetNode } from '../src/node-process.js';
import type { NodeHandle } from '../src/node-process.js';
import { devAddress, devHome, devWallet, getJson, postJson, rawHttp, rpcCall, signedSend } from '../src/clients.js';

/** What a route needs: path parameters, a query string; `latest` routes answer for the newest block. */
/** `notFound`: nothing can exist there on a dev chain (evidence: the embedded engine reports none): both spellings answer 404 alike. */
/** `height`: asked at that height (the liquidity batch's msg states live from their batch's EndBlock to the next BeginBlock). */
interface Call { params?: Record<string, string>; query?: string; latest?: boolean; notFound?: boolean; height?: number }
interface Fixture {
  rest: string; sender: string; senderHex: string; accountNumber: string; recipient: string; txHash: string; txHeight: number; evm: string; evm2: string;
  /** the genesis validator: operator and consensus addresses; the sender delegated to it and undelegated part */
  valoper: string; valcons: string;
  /** a text proposal in its voting period (voting period 1h on this node), with the sender's deposit and yes vote */
  proposalId: string;
  /**
   * a liquidity pool of achain and an issued token (ukitty), created by the sender; one tx of the sender put a
   * deposit, a withdrawal and a swap (msg index 1 each) in its batch, executed at `batchHeight`
   */
  poolId: string; poolCoinDenom: string; reserveAcc: string; batchHeight: number;
}

const EVM_DEV0 = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const EVM_DEV1 = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** GET routes by canonical template. */
const GET_CALLS: Record<string, (f: Fixture) => Call> = {
  '/chain/auth/v1beta1/account_info/{address}': (f) => ({ params: { address: f.sender } }),
  '/chain/auth/v1beta1/accounts': () => ({ query: 'pagination.limit=3&pagination.count_total=true' }),
  '/chain/auth/v1beta1/accounts/{address}': (f) => ({ params: { address: f.sender } }),
  '/chain/auth/v1beta1/address_by_id/{id}': (f) => ({ params: { id: f.accountNumber } }),
  '/chain/auth/v1beta1/bech32': () => ({}),
  '/chain/auth/v1beta1/bech32/{address_bytes}': (f) => ({ params: { address_bytes: encodeURIComponent(Buffer.from(f.senderHex, 'hex').toString('base64')) } }),
  '/chain/auth/v1beta1/module_accounts': () => ({}),
  '/chain/auth/v1beta1/module_accounts/{name}': () => ({ params: { name: 'fee_collector' } }),
  '/chain/auth/v1beta1/params': () => ({}),
  '/chain/bank/v1beta1/balances/{address}': (f) => ({ params: { address: f.sender }, query: 'pagination.limit=10' }),
  '/chain/bank/v1beta1/balances/{address}/by_denom': (f) => ({ params: { address: f.sender }, query: 'denom=achain' }),
  '/chain/bank/v1beta1/balances/{address}/{denom}': (f) => ({ params: { address: f.recipient, denom: 'achain' } }),
  '/chain/bank/v1beta1/denom_owners/{denom}': () => ({ params: { denom: 'achain' }, query: 'pagination.limit=5&pagination.count_total=true' }),
  '/chain/bank/v1beta1/denoms_metadata': () => ({}),
  '/chain/bank/v1beta1/denoms_metadata/{denom}': () => ({ params: { denom: 'achain' } }),
  '/chain/bank/v1beta1/params': () => ({}),
  '/chain/bank/v1beta1/send_enabled': () => ({ query: 'denoms=achain' }),
  '/chain/bank/v1beta1/spendable_balances/{address}': (f) => ({ params: { address: f.sender } }),
  '/chain/bank/v1beta1/supply': () => ({ query: 'pagination.count_total=true' }),
  '/chain/bank/v1beta1/supply/by_denom': () => ({ query: 'denom=achain' }),
  '/chain/bank/v1beta1/supply/{denom}': () => ({ params: { denom: 'achain' } }),
  '/chain/base/consensus/v1beta1/blocks/latest': () => ({ latest: true }),
  '/chain/base/consensus/v1beta1/blocks/{height}': (f) => ({ params: { height: String(f.txHeight) } }),
  '/chain/base/consensus/v1beta1/node_info': () => ({}),
  '/chain/base/consensus/v1beta1/syncing': () => ({}),
  '/chain/base/consensus/v1beta1/validatorsets/latest': () => ({ latest: true }),
  '/chain/base/consensus/v1beta1/validatorsets/{height}': () => ({ params: { height: '1' }, query: 'pagination.limit=10' }),
  '/chain/evm/v1/account/{address}': (f) => ({ params: { address: f.evm } }),
  '/chain/evm/v1/balances/{address}': (f) => ({ params: { address: f.evm } }),
  '/chain/evm/v1/base_fee': () => ({}),
  '/chain/evm/v1/codes/{address}': (f) => ({ params: { address: f.evm } }),
  '/chain/evm/v1/params': () => ({}),
  '/chain/evm/v1/storage/{address}/{key}': (f) => ({ params: { address: f.evm, key: '0x' + '00'.repeat(32) } }),
  '/chain/tx/v1beta1/txs': (f) => ({ query: `query=${encodeURIComponent(`message.sender='${f.sender}' AND tx.height=${f.txHeight}`)}&order_by=ORDER_BY_DESC` }),
  '/chain/tx/v1beta1/txs/{hash}': (f) => ({ params: { hash: f.txHash } }),
  '/chain/staking/v1beta1/delegations/{delegator_addr}': (f) => ({ params: { delegator_addr: f.sender } }),
  '/chain/staking/v1beta1/delegators/{delegator_addr}/redelegations': (f) => ({ params: { delegator_addr: f.sender } }),
  '/chain/staking/v1beta1/delegators/{delegator_addr}/unbonding_delegations': (f) => ({ params: { delegator_addr: f.sender } }),
  '/chain/staking/v1beta1/delegators/{delegator_addr}/validators': (f) => ({ params: { delegator_addr: f.sender } }),
  '/chain/staking/v1beta1/delegators/{delegator_addr}/validators/{validator_addr}': (f) => ({ params: { delegator_addr: f.sender, validator_addr: f.valoper } }),
  '/chain/staking/v1beta1/historical_info/{height}': (f) => ({ params: { height: String(f.txHeight) } }),
  '/chain/staking/v1beta1/params': () => ({}),
  '/chain/staking/v1beta1/pool': () => ({}),
  '/chain/staking/v1beta1/validators': () => ({ query: 'status=BOND_STATUS_BONDED' }),
  '/chain/staking/v1beta1/validators/{validator_addr}': (f) => ({ params: { validator_addr: f.valoper } }),
  '/chain/staking/v1beta1/validators/{validator_addr}/delegations': (f) => ({ params: { validator_addr: f.valoper }, query: 'pagination.count_total=true' }),
  '/chain/staking/v1beta1/validators/{validator_addr}/delegations/{delegator_addr}': (f) => ({ params: { validator_addr: f.valoper, delegator_addr: f.sender } }),
  '/chain/staking/v1beta1/validators/{validator_addr}/delegations/{delegator_addr}/unbonding_delegation': (f) => ({ params: { validator_addr: f.valoper, delegator_addr: f.sender } }),
  '/chain/staking/v1beta1/validators/{validator_addr}/unbonding_delegations': (f) => ({ params: { validator_addr: f.valoper } }),
  '/chain/distribution/v1beta1/community_pool': () => ({}),
  '/chain/distribution/v1beta1/delegators/{delegator_address}/rewards': (f) => ({ params: { delegator_address: f.sender } }),
  '/chain/distribution/v1beta1/delegators/{delegator_address}/rewards/{validator_address}': (f) => ({ params: { delegator_address: f.sender, validator_address: f.valoper } }),
  '/chain/distribution/v1beta1/delegators/{delegator_address}/validators': (f) => ({ params: { delegator_address: f.sender } }),
  '/chain/distribution/v1beta1/delegators/{delegator_address}/withdraw_address': (f) => ({ params: { delegator_address: f.sender } }),
  '/chain/distribution/v1beta1/params': () => ({}),
  '/chain/distribution/v1beta1/validators/{validator_address}/commission': (f) => ({ params: { validator_address: f.valoper } }),
  '/chain/distribution/v1beta1/validators/{validator_address}/outstanding_rewards': (f) => ({ params: { validator_address: f.valoper } }),
  '/chain/distribution/v1beta1/validators/{validator_address}/slashes': (f) => ({ params: { validator_address: f.valoper }, query: 'starting_height=1&ending_height=1000000' }),
  '/chain/slashing/v1beta1/params': () => ({}),
  '/chain/slashing/v1beta1/signing_infos': () => ({}),
  '/chain/slashing/v1beta1/signing_infos/{cons_address}': (f) => ({ params: { cons_address: f.valcons } }),
  '/chain/evidence/v1beta1/evidence': () => ({}),
  '/chain/evidence/v1beta1/evidence/{evidence_hash}': () => ({ params: { evidence_hash: 'ab'.repeat(32) }, notFound: true }),
  '/chain/mint/v1beta1/annual_provisions': () => ({}),
  '/chain/mint/v1beta1/inflation': () => ({}),
  '/chain/mint/v1beta1/params': () => ({}),
  '/chain/gov/v1beta1/params/{params_type}': () => ({ params: { params_type: 'tallying' } }),
  '/chain/gov/v1beta1/proposals': (f) => ({ query: `voter=${f.sender}&pagination.count_total=true` }),
  '/chain/gov/v1beta1/proposals/{proposal_id}': (f) => ({ params: { proposal_id: f.proposalId } }),
  '/chain/gov/v1beta1/proposals/{proposal_id}/deposits': (f) => ({ params: { proposal_id: f.proposalId } }),
  '/chain/gov/v1beta1/proposals/{proposal_id}/deposits/{depositor}': (f) => ({ params: { proposal_id: f.proposalId, depositor: f.sender } }),
  '/chain/gov/v1beta1/proposals/{proposal_id}/tally': (f) => ({ params: { proposal_id: f.proposalId } }),
  '/chain/gov/v1beta1/proposals/{proposal_id}/votes': (f) => ({ params: { proposal_id: f.proposalId } }),
  '/chain/gov/v1beta1/proposals/{proposal_id}/votes/{voter}': (f) => ({ params: { proposal_id: f.proposalId, voter: f.sender } }),
  '/chain/params/v1beta1/params': () => ({ query: 'subspace=staking&key=MaxValidators' }),
  '/chain/upgrade/v1beta1/applied_plan/{name}': () => ({ params: { name: 'none' } }),
  '/chain/upgrade/v1beta1/current_plan': () => ({}),
  '/chain/upgrade/v1beta1/module_versions': () => ({}),
  '/chain/upgrade/v1beta1/upgraded_consensus_state/{last_height}': () => ({ params: { last_height: '1' } }),
  '/chain/prc10/fee/{symbol}': () => ({ params: { symbol: 'chain' } }),
  '/chain/prc10/params': () => ({}),
  '/chain/prc10/tokens': () => ({ query: 'pagination.count_total=true' }),
  '/chain/prc10/tokens/{denom}': () => ({ params: { denom: 'achain' } }),
  '/chain/liquidity/v1beta1/params': () => ({}),
  '/chain/liquidity/v1beta1/pools': () => ({ query: 'pagination.count_total=true' }),
  '/chain/liquidity/v1beta1/pools/{pool_id}': (f) => ({ params: { pool_id: f.poolId } }),
  '/chain/liquidity/v1beta1/pools/pool_coin_denom/{pool_coin_denom}': (f) => ({ params: { pool_coin_denom: f.poolCoinDenom } }),
  '/chain/liquidity/v1beta1/pools/reserve_acc/{reserve_acc}': (f) => ({ params: { reserve_acc: f.reserveAcc } }),
  '/chain/liquidity/v1beta1/pools/{pool_id}/batch': (f) => ({ params: { pool_id: f.poolId }, height: f.batchHeight }),
  '/chain/liquidity/v1beta1/pools/{pool_id}/batch/deposits': (f) => ({ params: { pool_id: f.poolId }, query: 'pagination.count_total=true', height: f.batchHeight }),
  '/chain/liquidity/v1beta1/pools/{pool_id}/batch/deposits/{msg_index}': (f) => ({ params: { pool_id: f.poolId, msg_index: '1' }, height: f.batchHeight }),
  '/chain/liquidity/v1beta1/pools/{pool_id}/batch/swaps': (f) => ({ params: { pool_id: f.poolId }, query: 'pagination.count_total=true', height: f.batchHeight }),
  '/chain/liquidity/v1beta1/pools/{pool_id}/batch/swaps/{msg_index}': (f) => ({ params: { pool_id: f.poolId, msg_index: '1' }, height: f.batchHeight }),
  '/chain/liquidity/v1beta1/pools/{pool_id}/batch/withdraws': (f) => ({ params: { pool_id: f.poolId }, query: 'pagination.count_total=true', height: f.batchHeight }),
  '/chain/liquidity/v1beta1/pools/{pool_id}/batch/withdraws/{msg_index}': (f) => ({ params: { pool_id: f.poolId, msg_index: '1' }, height: f.batchHeight }),
  '/chain/liquidity/v1beta1/pools/{pool_id}/finish/deposit/{msg_index}': (f) => ({ params: { pool_id: f.poolId, msg_index: '1' } }),
  '/chain/liquidity/v1beta1/pools/{pool_id}/finish/deposits/{depositor_address}': (f) => ({ params: { pool_id: f.poolId, depositor_address: f.sender }, query: 'pagination.count_total=true' }),
  '/chain/liquidity/v1beta1/pools/{pool_id}/finish/swap/{msg_index}': (f) => ({ params: { pool_id: f.poolId, msg_index: '1' } }),
  '/chain/liquidity/v1beta1/pools/{pool_id}/finish/swaps/{swap_address}': (f) => ({ params: { pool_id: f.poolId, swap_address: f.sender } }),
  '/chain/liquidity/v1beta1/pools/{pool_id}/finish/withdraw/{msg_index}': (f) => ({ params: { pool_id: f.poolId, msg_index: '1' } }),
  '/chain/liquidity/v1beta1/pools/{pool_id}/finish/withdraws/{withdraw_address}': (f) => ({ params: { pool_id: f.poolId, withdraw_address: f.sender } }),
};

/**
 * POST routes by canonical template: valid bodies for the `/chain` and the `/cosmos` spelling, whether
 * both spellings must answer the same, and a check of the answer.
 */
const POST_CALLS: Record<string, { bodies: (f: Fixture) => Promise<[unknown, unknown]>; same: boolean; check: (b: any) => void }> = {
  '/chain/tx/v1beta1/simulate': {
    bodies: async (f) => { const b = { tx_bytes: toBase64(await signedSend(f.rest, 3, f.recipient, '5', { memo: 'simulated' })) }; return [b, b]; },
    same: true, check: (b) => expect(Number(b.gas_info.gas_used)).to.be.greaterThan(0),
  },
  // two different sends (consecutive sequences, both signed first): the same bytes twice would hit the mempool cache
  '/chain/tx/v1beta1/txs': {
    bodies: async (f) => {
      const [a, b] = [await signedSend(f.rest, 3, f.recipient, '6', { sequenceOffset: 0 }), await signedSend(f.rest, 3, f.recipient, '7', { sequenceOffset: 1 })];
      return [{ tx_bytes: toBase64(a), mode: 'BROADCAST_MODE_SYNC' }, { tx_bytes: toBase64(b), mode: 'BROADCAST_MODE_SYNC' }];
    },
    same: false, check: (b) => expect(b.tx_response.code, b.tx_response.raw_log).to.equal(0),
  },
  '/chain/evm/v1/eth_call': { bodies: async (f) => [{ from: f.evm, to: f.evm2, data: '' }, { from: f.evm, to: f.evm2, data: '' }], same: true, check: (b) => expect(b.vm_error).to.equal('') },
  '/chain/evm/v1/estimate_gas': { bodies: async (f) => [{ from: f.evm, to: f.evm2, value: '1' }, { from: f.evm, to: f.evm2, value: '1' }], same: true, check: (b) => expect(b.gas).to.equal('21000') },
};

/** Paths of the original chain served as aliases (`additional_bindings`), in the Cosmos dialect: alias prefix → canonical prefix. */
const ORIGINAL_PATHS: readonly (readonly [string, string])[] = [['/token/', '/chain/prc10/']];

/** The original chain's spelling of a canonical template, if it has one. */
function originalSpelling(template: string): string | undefined {
  const m = ORIGINAL_PATHS.find(([, to]) => template.startsWith(to));
  return m ? m[0] + template.slice(m[1].length) : undefined;
}

/** The canonical template of a swagger path. */
function canonical(path: string): string {
  if (path.startsWith('/cosmos/base/tendermint/')) return '/chain/base/consensus/' + path.slice('/cosmos/base/tendermint/'.length);
  const original = ORIGINAL_PATHS.find(([from]) => path.startsWith(from));
  if (original) return original[1] + path.slice(original[0].length);
  return path.startsWith('/cosmos/') ? '/chain/' + path.slice('/cosmos/'.length) : path;
}

function cosmosSpelling(template: string): string {
  if (template.startsWith('/chain/base/consensus/')) return '/cosmos/base/tendermint/' + template.slice('/chain/base/consensus/'.length);
  return '/cosmos/' + template.slice('/chain/'.length);
}

/** `@type` URLs in the canonical spelling (the Cosmos dialect maps `/chain.x` to `/cosmos.x`, eth keys to ethermint's, tokens to `/plugchain.prc10.`). */
function canonicalTypes(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonicalTypes);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === '@type' && typeof x === 'string'
    ? x.replace(/^\/cosmos\./, '/chain.').replace(/^\/ethermint\.crypto\.v1\.ethsecp256k1\./, '/chain.crypto.ethsecp256k1.').replace(/^\/plugchain\.prc10\./, '/chain.prc10.')
    : canonicalTypes(x)]));
}

/** Every `@type` value in a response. */
function typeUrls(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) v.forEach((x) => typeUrls(x, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { if (k === '@type') out.push(String(x)); else typeUrls(x, out); }
  return out;
}

type Schema = { $ref?: string; type?: string; format?: string; enum?: string[]; items?: Schema; properties?: Record<string, Schema>; additionalProperties?: Schema | boolean; 'x-oneofs'?: Record<string, string[]> };

/**
 * Checks a gateway JSON value against its swagger schema; returns the problems found (`where: what`).
 * Messages may be `null` (unset); every field of a message is present (EmitDefaults) except unset oneof
 * members; `Any` values are checked against the definition of their `@type` when the document has it.
 */
function checkSchema(v: unknown, s: Schema, defs: Record<string, Schema>, where: string, out: string[]): string[] {
  if (s.$ref) {
    const name = s.$ref.split('/').pop()!;
    if (v === null) return out;
    if (name === 'google.protobuf.Any') {
      if (typeof v !== 'object' || Array.isArray(v) || typeof (v as Record<string, unknown>)['@type'] !== 'string') { out.push(`${where}: Any without @type`); return out; }
      const { '@type': url, ...rest } = v as Record<string, unknown>;
      const def = defs[(canonicalTypes({ '@type': url }) as { '@type': string })['@type'].slice(1)];
      if (def) checkSchema(rest, def, defs, `${where}<${String(url)}>`, out);
      else for (const k of Object.keys(rest)) if (!/^[a-z][a-z0-9_]*$/.test(k)) out.push(`${where}.${k}: not snake_case`);
      return out;
    }
    const def = defs[name];
    if (!def) { out.push(`${where}: no definition ${name}`); return out; }
    return checkSchema(v, def, defs, where, out);
  }
  const fail = (what: string): string[] => { out.push(`${where}: ${what} (got ${JSON.stringify(v)?.slice(0, 60)})`); return out; };
  if (s.enum) return typeof v === 'string' && s.enum.includes(v) ? out : fail(`not one of the enum names`);
  switch (s.type) {
    case 'string':
      if (s.format === 'byte') return v === null || (typeof v === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(v)) ? out : fail('bytes must be base64 or null');
      if (typeof v !== 'string') return fail('expected a string');
      if (s.format === 'int64' || s.format === 'uint64') return /^-?\d+$/.test(v) ? out : fail('64-bit integer must be a decimal string');
      if (s.format === 'date-time') return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/.test(v) ? out : fail('RFC 3339 UTC timestamp');
      return out;
    case 'integer': return Number.isInteger(v) ? out : fail('expected a JSON integer');
    case 'number': return typeof v === 'number' ? out : fail('expected a JSON number');
    case 'boolean': return typeof v === 'boolean' ? out : fail('expected a boolean');
    case 'array':
      if (!Array.isArray(v)) return fail('expected an array');
      v.forEach((x, i) => checkSchema(x, s.items ?? {}, defs, `${where}[${i}]`, out));
      return out;
    case 'object': {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return fail('expected an object');
      const o = v as Record<string, unknown>;
      if (s.additionalProperties && typeof s.additionalProperties === 'object' && !s.properties) {
        for (const [k, x] of Object.entries(o)) checkSchema(x, s.additionalProperties, defs, `${where}.${k}`, out);
        return out;
      }
      const props = s.properties ?? {};
      const oneofMembers = new Set(Object.values(s['x-oneofs'] ?? {}).flat());
      for (const k of Object.keys(o)) {
        // proto field names as they are (OrigName): snake_case, or the original's capitalized `Token` / `Tokens`
        if (!(k in props) && !/^[a-z][a-z0-9_]*$/.test(k)) out.push(`${where}.${k}: not snake_case`);
        if (!(k in props)) out.push(`${where}.${k}: not a field of the message`);
        else checkSchema(o[k], props[k]!, defs, `${where}.${k}`, out);
      }
      for (const k of Object.keys(props)) if (!(k in o) && !oneofMembers.has(k)) out.push(`${where}.${k}: missing (defaults are emitted)`);
      for (const [name, members] of Object.entries(s['x-oneofs'] ?? {})) if (members.filter((m) => m in o).length > 1) out.push(`${where}: oneof ${name} has several members`);
      return out;
    }
    default: return out; // google.protobuf.Value and friends: any JSON
  }
}

describe('e2e: every REST route of the Swagger document, both spellings, real HTTP', function () {
  this.timeout(180_000);
  let node: NodeHandle;
  let apiOff: NodeHandle;
  let noSwagger: NodeHandle;
  let doc: { paths: Record<string, Record<string, any>>; definitions: Record<string, Schema> };
  let f: Fixture;
  const exercised = new Set<string>();

  before(async () => {
    // a voting period of an hour: the fixture proposal stays in it (with its vote) while the routes are called
    [node, apiOff, noSwagger] = await Promise.all([
      startTargetNode({ patchGenesis: (g) => { g.app_state.gov.voting_params.voting_period = '3600s'; } }), startNode({ extraArgs: ['--api.enable=false'] }), startNode({ home: devHome({ app: { 'api.swagger': false } }) }),
    ]);
    const sw = await getJson(`${node.restUrl}/swagger`);
    expect(sw.status).to.equal(200);
    doc = sw.body;
    // a committed send from coin-type-118 dev account 3: its hash, height and sender's account
    const sender = await devAddress(3);
    const recipient = await devAddress(4);
    const sent = await postJson(`${node.restUrl}/chain/tx/v1beta1/txs`, { tx_bytes: toBase64(await signedSend(node.restUrl, 3, recipient, '1234', { memo: 'rest routes' })), mode: 'BROADCAST_MODE_SYNC' });
    expect(sent.body.tx_response.code, sent.body.tx_response.raw_log).to.equal(0);
    let got: any;
    for (let i = 0; i < 200 && got?.status !== 200; i++) {
      got = await getJson(`${node.restUrl}/chain/tx/v1beta1/txs/${sent.body.tx_response.txhash}`);
      if (got.status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(got.status, 'the fixture send was not committed').to.equal(200);
    // the genesis validator; the sender delegates to it and undelegates part (an unbonding delegation to query)
    const [validator] = (await getJson(`${node.restUrl}/chain/staking/v1beta1/validators`)).body.validators;
    const valoper = validator.operator_address as string;
    const valcons = toBech32('chainvalcons', sha256(fromBase64(validator.consensus_pubkey.key)).subarray(0, 20));
    const client = await SigningStargateClient.connectWithSigner(node.rpcUrl, await devWallet(3), { gasPrice: GasPrice.fromString('1000000000achain') });
    const delegated = await client.delegateTokens(sender, valoper, { denom: 'achain', amount: (10n ** 18n).toString() }, 'auto');
    expect(delegated.code, delegated.rawLog).to.equal(0);
    const undelegated = await client.undelegateTokens(sender, valoper, { denom: 'achain', amount: (10n ** 17n).toString() }, 'auto');
    expect(undelegated.code, undelegated.rawLog).to.equal(0);
    // a text proposal with the min deposit (voting at once) and the sender's yes vote
    const proposed = await client.signAndBroadcast(sender, [{
      typeUrl: '/cosmos.gov.v1beta1.MsgSubmitProposal',
      value: {
        content: { typeUrl: '/cosmos.gov.v1beta1.TextProposal', value: TextProposal.encode({ title: 'rest routes', description: 'a proposal to query' }).finish() },
        initialDeposit: [{ denom: 'achain', amount: (10n * 10n ** 18n).toString() }], proposer: sender,
      },
    }], 2);
    expect(proposed.code, proposed.rawLog).to.equal(0);
    const proposalId = proposed.events.find((e) => e.type === 'submit_proposal' && e.attributes.some((a) => a.key === 'proposal_id'))!.attributes.find((a) => a.key === 'proposal_id')!.value;
    const voted = await client.signAndBroadcast(sender, [{ typeUrl: '/cosmos.gov.v1beta1.MsgVote', value: { proposalId: BigInt(proposalId), voter: sender, option: VoteOption.VOTE_OPTION_YES } }], 2);
    expect(voted.code, voted.rawLog).to.equal(0);
    client.disconnect();
    // liquidity: a token issued by the sender, a pool of achain and it, then one tx putting a deposit, a withdrawal
    // and a swap in the pool's batch (executed in the EndBlock of that tx's block)
    const lc = await SigningStargateClient.connectWithSigner(node.rpcUrl, await devWallet(3), {
      registry: liquidityRegistry(), gasPrice: GasPrice.fromString('1000000000achain'), broadcastPollIntervalMs: 200,
    });
    const issued = await lc.signAndBroadcast(sender, [{ typeUrl: '/chain.prc10.MsgIssueToken', value: {
      symbol: 'kitty', name: 'Kitty Token', scale: 6, min_unit: 'ukitty', initial_supply: '1000', max_supply: '10000', mintable: true, owner: sender,
    } }], 2);
    expect(issued.code, issued.rawLog).to.equal(0);
    const created = await lc.signAndBroadcast(sender, [{ typeUrl: '/chain.liquidity.v1beta1.MsgCreatePool', value: {
      pool_creator_address: sender, pool_type_id: 1, deposit_coins: [{ denom: 'achain', amount: '1000000000000000' }, { denom: 'ukitty', amount: '100000000' }],
    } }], 2);
    expect(created.code, created.rawLog).to.equal(0);
    const attr = (e: { attributes: readonly { key: string; value: string }[] } | undefined, key: string): string => e!.attributes.find((a) => a.key === key)!.value;
    const createPool = created.events.find((e) => e.type === 'create_pool');
    const [poolId, poolCoinDenom, reserveAcc] = [attr(createPool, 'pool_id'), attr(createPool, 'pool_coin_denom'), attr(createPool, 'reserve_account')];
    const batched = await lc.signAndBroadcast(sender, [
      { typeUrl: '/chain.liquidity.v1beta1.MsgDepositWithinBatch', value: { depositor_address: sender, pool_id: poolId, deposit_coins: [{ denom: 'achain', amount: '10000000000000' }, { denom: 'ukitty', amount: '1000000' }] } },
      { typeUrl: '/chain.liquidity.v1beta1.MsgWithdrawWithinBatch', value: { withdrawer_address: sender, pool_id: poolId, pool_coin: { denom: poolCoinDenom, amount: '1000' } } },
      { typeUrl: '/chain.liquidity.v1beta1.MsgSwapWithinBatch', value: {
        swap_requester_address: sender, pool_id: poolId, swap_type_id: 1, offer_coin: { denom: 'achain', amount: '1000000000000' },
        demand_coin_denom: 'ukitty', offer_coin_fee: { denom: 'achain', amount: '1500000000' }, order_price: decAtomics('11000000'),
      } },
    ], 2);
    expect(batched.code, batched.rawLog).to.equal(0);
    lc.disconnect();
    const acct = (await getJson(`${node.restUrl}/chain/auth/v1beta1/accounts/${sender}`)).body.account;
    f = {
      rest: node.restUrl, sender, recipient, senderHex: Buffer.from(fromBech32(sender).data).toString('hex'), accountNumber: acct.account_number,
      txHash: sent.body.tx_response.txhash, txHeight: Number(got.body.tx_response.height), evm: EVM_DEV0, evm2: EVM_DEV1, valoper, valcons, proposalId,
      poolId, poolCoinDenom, reserveAcc, batchHeight: batched.height,
    };
  });

  after(async () => {
    await Promise.all([node, apiOff, noSwagger].map(async (n) => { await n?.stop(); n?.cleanup(); }));
  });

  /** The checks every 200 answer must pass; returns the body. */
  const checkAnswer = (label: string, r: { status: number; headers: Headers; text: string; body: any }, schemaRef: string, dialect: 'chain' | 'cosmos', height?: number): any => {
    expect(r.status, `${label}: ${r.text.slice(0, 300)}`).to.equal(200);
    expect(r.headers.get('content-type'), label).to.match(/^application\/json/);
    const h = r.headers.get('grpc-metadata-x-cosmos-block-height');
    expect(h, `${label}: Grpc-Metadata-X-Cosmos-Block-Height`).to.match(/^[1-9]\d*$/);
    if (height !== undefined) expect(Number(h), `${label}: the height asked for`).to.equal(height);
    const problems = checkSchema(r.body, { $ref: schemaRef }, doc.definitions, label, []);
    expect(problems, `${label}: gateway JSON against the schema`).to.deep.equal([]);
    const wrong = typeUrls(r.body).filter((u) => (dialect === 'cosmos' ? u.startsWith('/chain.') : /^\/(cosmos|ethermint|plugchain)\./.test(u)));
    expect(wrong, `${label}: @type URLs of the other dialect`).to.deep.equal([]);
    return r.body;
  };

  it('lists every route in both spellings, and every route is in the parameter tables', () => {
    const templates = new Set(Object.keys(doc.paths).map(canonical));
    for (const t of templates) {
      for (const spelling of [t, cosmosSpelling(t), ...(originalSpelling(t) ? [originalSpelling(t)!] : [])]) expect(doc.paths, `${spelling} in the document`).to.have.property(spelling);
      for (const m of Object.keys(doc.paths[t]!)) {
        const table = m === 'get' ? GET_CALLS : POST_CALLS;
        expect(table, `${m.toUpperCase()} ${t} has no entry in the parameter table of this test`).to.have.property(t);
      }
    }
    for (const t of [...Object.keys(GET_CALLS), ...Object.keys(POST_CALLS)]) expect(templates.has(t), `${t} is in the table but not in the document`).to.equal(true);
  });

  it('GET: every route answers 200 with gateway JSON of its schema, the height header, and the same in both spellings', async () => {
    const gets = Object.entries(doc.paths).filter(([p, ops]) => ops.get && p.startsWith('/chain/'));
    for (const [template] of gets) {
      const call = GET_CALLS[template]!(f);
      const fill = (t: string): string => t.replace(/\{([^}=]+)(=[^}]*)?\}/g, (_m, n: string) => call.params?.[n] ?? `<missing ${n}>`) + (call.query ? `?${call.query}` : '');
      const cosmos = cosmosSpelling(template);
      if (call.notFound) {
        const [a, b] = await Promise.all([rawHttp(`${node.restUrl}${fill(template)}`), rawHttp(`${node.restUrl}${fill(cosmos)}`)]);
        for (const r of [a, b]) {
          expect(r.status, `${template}: ${r.text.slice(0, 200)}`).to.equal(404);
          expect(r.body.code, template).to.equal(5);
        }
        expect(b.body).to.deep.equal(a.body);
        exercised.add(`GET ${template}`).add(`GET ${cosmos}`);
        continue;
      }
      for (let attempt = 0; ; attempt++) {
        // state at one height for both spellings (routes of the newest block may see a new one in between)
        // the app's last committed height (abci_info): CometBFT's status may already count the block it is applying
        const height = call.height ?? Number((await rpcCall(node.rpcUrl, 'abci_info')).result.response.last_block_height);
        const headers = { 'x-cosmos-block-height': String(height) };
        const [a, b] = await Promise.all([rawHttp(`${node.restUrl}${fill(template)}`, { headers }), rawHttp(`${node.restUrl}${fill(cosmos)}`, { headers })]);
        const ref = (p: string): string => doc.paths[p]!.get.responses['200'].schema.$ref;
        const chainBody = checkAnswer(`GET ${fill(template)}`, a, ref(template), 'chain', height);
        const cosmosBody = checkAnswer(`GET ${fill(cosmos)}`, b, ref(cosmos), 'cosmos', height);
        if (call.latest && attempt < 5 && JSON.stringify(canonicalTypes(cosmosBody)) !== JSON.stringify(chainBody)) continue;
        expect(canonicalTypes(cosmosBody), `${template}: the two spellings differ`).to.deep.equal(chainBody);
        exercised.add(`GET ${template}`).add(`GET ${cosmos}`);
        const original = originalSpelling(template);
        if (original) {
          // the original chain's path answers as the Cosmos spelling, `@type` URLs included
          const c = await rawHttp(`${node.restUrl}${fill(original)}`, { headers });
          expect(checkAnswer(`GET ${fill(original)}`, c, ref(original), 'cosmos', height), `${original}: differs from ${cosmos}`).to.deep.equal(cosmosBody);
          exercised.add(`GET ${original}`);
        }
        break;
      }
    }
    // the answers are about the fixture
    expect((await getJson(`${node.restUrl}/cosmos/tx/v1beta1/txs/${f.txHash}`)).body.tx.body.memo).to.equal('rest routes');
    expect((await getJson(`${node.restUrl}/chain/tx/v1beta1/txs?${GET_CALLS['/chain/tx/v1beta1/txs']!(f).query}`)).body.tx_responses[0].txhash).to.equal(f.txHash);
    expect((await getJson(`${node.restUrl}/chain/auth/v1beta1/address_by_id/${f.accountNumber}`)).body.account_address).to.equal(f.sender);
    // the liquidity batch at its execution height (msg index 1 of each kind, executed and succeeded) and its success records
    const liq = (path: string, height?: number): Promise<any> => getJson(`${node.restUrl}/chain/liquidity/v1beta1/pools/${f.poolId}${path}`, height ? { 'x-cosmos-block-height': String(height) } : {}).then((r) => r.body);
    for (const kind of ['deposit', 'swap', 'withdraw']) {
      const state = (await liq(`/batch/${kind}s/1`, f.batchHeight))[kind];
      expect(state, kind).to.deep.include({ msg_index: '1', executed: true, succeeded: true });
      expect((await liq(`/batch/${kind}s`, f.batchHeight))[`${kind}s`].map((s: any) => s.msg_index), kind).to.deep.equal(['1']);
      expect((await liq(`/finish/${kind}/1`))[kind].msg_index, kind).to.equal('1');
    }
    // the next block's BeginBlock deletes the executed swap: wait for a block after the batch's
    for (let i = 0; i < 100 && Number((await rpcCall(node.rpcUrl, 'abci_info')).result.response.last_block_height) <= f.batchHeight; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await liq('/batch/swaps/1')).code, 'the executed swap is deleted at the next BeginBlock').to.equal(5);
    expect((await liq('/finish/swap/1')).swap.get_coin.denom).to.equal('ukitty');
    expect(BigInt((await liq('/finish/swap/1')).swap.get_coin.amount) > 0n, 'the swap got ukitty').to.equal(true);
    expect((await liq(`/finish/deposits/${f.sender}`)).deposits.map((d: any) => d.msg_index)).to.deep.equal(['0', '1']);
    // the native token, in the original chain's spelling on its path
    expect((await getJson(`${node.restUrl}/token/tokens/achain`)).body.Token).to.deep.include({ '@type': '/plugchain.prc10.Token', symbol: 'chain', min_unit: 'achain' });
  });

  it('POST: simulate, broadcast, eth_call and estimate_gas with valid bodies in both spellings', async () => {
    const posts = Object.entries(doc.paths).filter(([p, ops]) => ops.post && p.startsWith('/chain/'));
    for (const [template] of posts) {
      const spec = POST_CALLS[template]!;
      const cosmos = cosmosSpelling(template);
      const answers: any[] = [];
      const bodies = await spec.bodies(f);
      for (const [path, dialect, body] of [[template, 'chain', bodies[0]], [cosmos, 'cosmos', bodies[1]]] as const) {
        const r = await rawHttp(`${node.restUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        answers.push(checkAnswer(`POST ${path}`, r, doc.paths[path]!.post.responses['200'].schema.$ref, dialect));
        spec.check(answers[answers.length - 1]);
        exercised.add(`POST ${path}`);
      }
      if (spec.same) expect(canonicalTypes(answers[1]), `${template}: the two spellings differ`).to.deep.equal(answers[0]);
    }
  });

  it('the schema check itself rejects what the gateway must not send', async () => {
    const ref = doc.paths['/chain/base/consensus/v1beta1/blocks/{height}']!.get.responses['200'].schema.$ref;
    const good = (await getJson(`${node.restUrl}/chain/base/consensus/v1beta1/blocks/${f.txHeight}`)).body;
    expect(checkSchema(good, { $ref: ref }, doc.definitions, 'b', [])).to.deep.equal([]);
    const mutations: [string, (b: any) => void, RegExp][] = [
      ['int64 as a number', (b) => { b.block.header.height = Number(b.block.header.height); }, /header\.height: expected a string/],
      ['camelCase key', (b) => { b.block.header.chainId = b.block.header.chain_id; delete b.block.header.chain_id; }, /chainId: not snake_case/],
      ['missing default', (b) => { delete b.block.last_commit.round; }, /round: missing/],
      ['bytes not base64', (b) => { b.block_id.hash = b.block_id.hash.replace(/./, '!'); }, /hash: bytes must be base64/],
      ['enum as a number', (b) => { b.block.last_commit.signatures[0].block_id_flag = 2; }, /block_id_flag: not one of the enum names/],
      ['int32 as a string', (b) => { b.block_id.part_set_header.total = '1'; }, /total: expected a JSON integer/],
      ['time not UTC', (b) => { b.block.header.time = b.block.header.time.replace('Z', '+00:00'); }, /time: RFC 3339/],
    ];
    for (const [what, mutate, problem] of mutations) {
      const bad = structuredClone(good);
      mutate(bad);
      expect(checkSchema(bad, { $ref: ref }, doc.definitions, 'b', []).join('\n'), what).to.match(problem);
    }
  });

  it('every (method, path) of the document was exercised', () => {
    const all = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    expect(all.filter((x) => !exercised.has(x)), 'routes of the document not called').to.deep.equal([]);
    expect(exercised.size).to.equal(all.length);
  });

  it('[api] enable = false (--api.enable=false): no REST listener at all, the rest of the node runs', async () => {
    const port = Number(new URL(apiOff.restUrl).port);
    const refused = await new Promise<string>((resolve) => {
      const s = new Socket();
      s.once('connect', () => { s.destroy(); resolve('connected'); });
      s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      s.connect(port, '127.0.0.1');
    });
    expect(refused).to.equal('ECONNREFUSED');
    expect(apiOff.output).to.not.match(/REST API listening/);
    expect((await rpcCall(apiOff.rpcUrl, 'health')).result).to.deep.equal({});
  });

  it('[api] swagger = false: no Swagger document (501 code 12 like any unknown route); the routes are served', async () => {
    for (const path of ['/swagger', '/swagger/', '/swagger/swagger.json']) {
      const r = await rawHttp(`${noSwagger.restUrl}${path}`);
      expect(r.status, path).to.equal(501);
      expect(r.body, path).to.deep.equal({ code: 12, message: 'Not Implemented', details: [] });
    }
    expect((await rawHttp(`${noSwagger.restUrl}/cosmos/bank/v1beta1/params`)).status).to.equal(200);
  });
});
