/**
 * The ante handler: everything a tx must pass before its messages run (memo, timeout, size gas, fee
 * deduction with the minimum gas price, public keys, signature count and gas, signatures, sequences).
 * It reaches bank only through the BankKeeper interface declared here.
 */
import type { AnteHandler, Context, Coin } from '@chain/app';
import { coinsToString, DEC_SCALE, validateCoins, amountOf } from '@chain/app';
import { Errors } from '@chain/errors';
import { directSignBytes, txSigners } from '@chain/tx';
import type { DecodedTx } from '@chain/tx';
import {
  equalBytes, secp256k1Address, ethAddress, verifySecp256k1, verifyEthSecp256k1, toBase64, toHex, sha256, keccak256, sharedVerifyPool,
  type VerifyItem,
} from '@chain/crypto';
import { accountSequenceEvent, emit, feeEvent, signatureEvent } from './events.js';
import type { AccountKeeper, Account } from './keeper.js';
import { FEE_COLLECTOR, SECP256K1_PUBKEY, ETH_SECP256K1_PUBKEY } from './keys.js';

/** What the ante handler needs of bank (the expected keeper). */
export interface AnteBankKeeper {
  sendCoinsFromAccountToModule(ctx: Context, from: Uint8Array, module: string, coins: Coin[]): void;
}

const SIGN_MODE_DIRECT = 1;
/** Bytes of an amino StdSignature {secp256k1 pubkey, 64-byte signature} + 6, as the SDK estimates them. */
const SIMULATED_SIGNATURE_BYTES = 112;

/** Remembers verified signatures so CheckTx and FinalizeBlock verify each one once. */
class VerifiedCache {
  private readonly set = new Set<string>();
  constructor(private readonly max = 200_000) {}
  has(k: string): boolean { return this.set.has(k); }
  add(k: string): void {
    if (this.set.size >= this.max) {
      const first = this.set.values().next().value;
      if (first !== undefined) this.set.delete(first);
    }
    this.set.add(k);
  }
}

export interface PubKeyInfo { readonly name: string; readonly key: Uint8Array }

export function createAnteHandler(ak: AccountKeeper, bank: AnteBankKeeper): AnteHandler {
  const registry = ak.registry;
  const cache = new VerifiedCache();

  const decodePubKey = (any: { type_url: string; value: Uint8Array }): PubKeyInfo => {
    const name = registry.nameOfTypeUrl(any.type_url);
    if (name !== SECP256K1_PUBKEY && name !== ETH_SECP256K1_PUBKEY) throw Errors.InvalidPubKey.wrap(`unsupported public key type ${any.type_url}`);
    const key = registry.decode<{ key: Uint8Array }>(name, any.value).key;
    if (key.length !== 33) throw Errors.InvalidPubKey.wrap(`invalid public key length ${key.length}`);
    return { name, key };
  };

  /**
   * The key of a verified signature: everything its sign bytes depend on (the tx bytes by hash, the signer's index,
   * the account number as signed, the chain id) and the key with its type.
   */
  const sigKey = (tx: DecodedTx, i: number, signNumber: bigint, pk: PubKeyInfo, chainId: string): string =>
    `${toHex(tx.hash)}:${i}:${signNumber}:${pk.name}:${toHex(pk.key)}:${chainId}`;
  /** The account number the sign bytes carry: 0 at genesis (gentxs), as the SDK's sig verification. */
  const signNumberOf = (ctx: Context, acc: Account): bigint => (ctx.block.height === 0 ? 0n : acc.base.account_number);

  /**
   * The tx's signers as the SDK's GetSigners: account bytes (a validator operator address names the same account),
   * unique by bytes in order of first appearance.
   */
  const signersOf = (tx: DecodedTx): Uint8Array[] => {
    const out: Uint8Array[] = [];
    for (const s of txSigners(registry, tx)) {
      let bytes: Uint8Array;
      try {
        bytes = ak.addressCodec.decodeSigner(s);
      } catch (e) {
        throw Errors.InvalidAddress.wrap(`invalid signer address ${s}: ${(e as Error).message}`);
      }
      if (!out.some((b) => equalBytes(b, bytes))) out.push(bytes);
    }
    return out;
  };
  /** The account address a key signs for. */
  const addressOfKey = (pk: PubKeyInfo): Uint8Array => (pk.name === ETH_SECP256K1_PUBKEY ? ethAddress(pk.key) : secp256k1Address(pk.key));

  const handler = (ctx: Context, tx: DecodedTx, simulate: boolean): void => {
    // simulation needs no signatures: none at all, or empty placeholders (what cosmjs sends), are fine
    const unsigned = simulate && tx.signatures.length === 0;
    if (tx.signatures.length === 0 && !unsigned) throw Errors.NoSignatures.wrap('empty signatures');
    const params = ak.getParams(ctx);
    // memo and timeout
    // the SDK measures the memo in bytes (Go len(string)), not in UTF-16 code units
    const memoLength = Buffer.byteLength(tx.body.memo, 'utf8');
    if (BigInt(memoLength) > params.max_memo_characters) {
      throw Errors.MemoTooLarge.wrap(`maximum number of characters is ${params.max_memo_characters} but received ${memoLength} characters`);
    }
    if (tx.body.timeout_height > 0n && BigInt(ctx.block.height) > tx.body.timeout_height) {
      throw Errors.TxTimeoutHeight.wrap(`block height: ${ctx.block.height}, timeout height: ${tx.body.timeout_height}`);
    }
    ctx.gasMeter.consume(Number(params.tx_size_cost_per_byte) * tx.raw.length, 'txSize');

    const signerAddrs = signersOf(tx);
    const signers = signerAddrs.map((b) => ak.addressCodec.encode(b));
    const infos = tx.authInfo.signer_infos;
    if (infos.length !== signers.length) throw Errors.Unauthorized.wrap(`wrong number of signers; expected ${signers.length}, got ${infos.length}`);
    if (tx.signatures.length !== signers.length && !unsigned) throw Errors.Unauthorized.wrap(`invalid number of signer;  expected: ${signers.length}, got ${tx.signatures.length}`);
    if (simulate) {
      // the size a real signature would add (SDK ConsumeTxSizeGasDecorator): an amino StdSignature of a
      // 64-byte signature and a secp256k1 key, plus 6 bytes, for every missing or empty signature
      for (let i = 0; i < signers.length; i++) {
        if ((tx.signatures[i]?.length ?? 0) === 0) ctx.gasMeter.consume(Number(params.tx_size_cost_per_byte) * SIMULATED_SIGNATURE_BYTES, 'txSize');
      }
    }

    // fees
    const fee = tx.authInfo.fee!;
    validateCoins(fee.amount);
    if (fee.gas_limit === 0n && !simulate) throw Errors.InvalidGasLimit.wrap('must provide positive gas');
    if (ctx.isCheckTx && !simulate && ctx.minGasPrices.length > 0) {
      const required: Coin[] = ctx.minGasPrices
        .map((p) => ({ denom: p.denom, amount: ((p.amount * fee.gas_limit + DEC_SCALE - 1n) / DEC_SCALE).toString() }))
        .filter((c) => c.amount !== '0');
      if (required.length > 0 && !required.some((r) => amountOf(fee.amount, r.denom) >= BigInt(r.amount))) {
        throw Errors.InsufficientFee.wrap(`insufficient fees; got: ${coinsToString(fee.amount)} required: ${coinsToString(required)}`);
      }
    }
    if (fee.granter) throw Errors.InvalidRequest.wrap('fee grants are not enabled');
    const payerText = fee.payer || signers[0]!;
    const payer = fee.payer ? ak.addressCodec.decode(fee.payer) : signerAddrs[0]!;
    if (!ak.hasAccount(ctx, payer)) throw Errors.UnknownAddress.wrap(`fee payer address: ${payerText} does not exist`);
    if (fee.amount.length > 0) {
      try {
        bank.sendCoinsFromAccountToModule(ctx, payer, FEE_COLLECTOR, fee.amount);
      } catch (e) {
        if (Errors.InsufficientFunds.is(e)) throw Errors.InsufficientFunds.wrap(`${(e as Error).message.replace(/: insufficient funds$/, '')}: insufficient funds to pay for fees`);
        throw e;
      }
    }
    emit(ctx, feeEvent(coinsToString(fee.amount), payerText));

    // public keys
    const accounts: Account[] = [];
    const pubkeys: PubKeyInfo[] = [];
    for (let i = 0; i < signers.length; i++) {
      const acc = ak.getAccount(ctx, signerAddrs[i]!);
      if (!acc) throw Errors.UnknownAddress.wrap(`account ${signers[i]} does not exist`);
      const info = infos[i]!;
      let pk: PubKeyInfo;
      if (acc.base.pub_key) {
        pk = decodePubKey(acc.base.pub_key);
      } else {
        if (!info.public_key) {
          if (simulate) { accounts.push(acc); pubkeys.push({ name: SECP256K1_PUBKEY, key: new Uint8Array(33) }); continue; }
          throw Errors.InvalidPubKey.wrap('pubkey on account is not set');
        }
        pk = decodePubKey(info.public_key);
        if (!equalBytes(addressOfKey(pk), signerAddrs[i]!)) throw Errors.InvalidPubKey.wrap(`pubKey does not match signer address ${signers[i]} with signer index: ${i}`);
        acc.base.pub_key = registry.packAny(pk.name, { key: pk.key });
        ak.setAccount(ctx, acc);
      }
      accounts.push(acc);
      pubkeys.push(pk);
    }

    // signature count and gas
    if (BigInt(signers.length) > params.tx_sig_limit) throw Errors.TooManySignatures.wrap(`signatures: ${signers.length}, limit: ${params.tx_sig_limit}`);
    for (let i = 0; i < signers.length; i++) ctx.gasMeter.consume(Number(params.sig_verify_cost_secp256k1), 'ante verify: secp256k1');

    // signatures and sequences
    for (let i = 0; i < signers.length; i++) {
      const acc = accounts[i]!;
      const info = infos[i]!;
      if (info.sequence !== acc.base.sequence) {
        throw Errors.WrongSequence.wrap(`account sequence mismatch, expected ${acc.base.sequence}, got ${info.sequence}`);
      }
      if (!simulate && ctx.mode !== 'recheck') {
        const mode = info.mode_info?.single?.mode;
        if (mode !== SIGN_MODE_DIRECT) throw Errors.NotSupported.wrap(`signature mode ${mode ?? 'multi'} is not supported; use SIGN_MODE_DIRECT`);
        const pk = pubkeys[i]!;
        const cacheKey = sigKey(tx, i, signNumberOf(ctx, acc), pk, ctx.block.chainId);
        if (!cache.has(cacheKey)) {
          const signBytes = directSignBytes(registry, tx, ctx.block.chainId, signNumberOf(ctx, acc));
          const ok = pk.name === ETH_SECP256K1_PUBKEY ? verifyEthSecp256k1(pk.key, signBytes, tx.signatures[i]!) : verifySecp256k1(pk.key, signBytes, tx.signatures[i]!);
          if (!ok) throw Errors.Unauthorized.wrap(`signature verification failed; please verify account number (${acc.base.account_number}) and chain-id (${ctx.block.chainId})`);
          cache.add(cacheKey);
        }
      }
    }
    for (let i = 0; i < signers.length; i++) {
      const acc = accounts[i]!;
      // re-read: fee deduction or another signer may have rewritten the account
      const fresh = ak.getAccount(ctx, acc.address)!;
      fresh.base.sequence += 1n;
      ak.setAccount(ctx, fresh);
      emit(ctx, accountSequenceEvent(signers[i]!, infos[i]!.sequence));
      emit(ctx, signatureEvent(toBase64(tx.signatures[i] ?? new Uint8Array())));
    }
  };

  /**
   * CheckTx's signature checks ahead of CheckTx, on the verification pool's worker threads: for each signer whose
   * account, key and sign mode the ante handler will find as they are now, the signature is checked there and, when
   * valid, remembered under the same key the ante handler looks up, so CheckTx (and FinalizeBlock) skip it. Anything
   * else (no pool, unknown account, a bad signature) is left to the ante handler, which verifies and reports it.
   * Writes nothing.
   */
  handler.precheck = async (ctx: Context, tx: DecodedTx): Promise<void> => {
    const pool = sharedVerifyPool();
    if (pool === undefined || tx.signatures.length === 0) return;
    const signerAddrs = signersOf(tx);
    const infos = tx.authInfo.signer_infos;
    if (infos.length !== signerAddrs.length || tx.signatures.length !== signerAddrs.length) return;
    const items: VerifyItem[] = [];
    const keys: string[] = [];
    for (let i = 0; i < signerAddrs.length; i++) {
      const info = infos[i]!;
      if (info.mode_info?.single?.mode !== SIGN_MODE_DIRECT) continue;
      const acc = ak.getAccount(ctx, signerAddrs[i]!);
      if (!acc) continue;
      let pk: PubKeyInfo;
      if (acc.base.pub_key) {
        pk = decodePubKey(acc.base.pub_key);
      } else {
        if (!info.public_key) continue;
        pk = decodePubKey(info.public_key);
        if (!equalBytes(addressOfKey(pk), signerAddrs[i]!)) continue;
      }
      const key = sigKey(tx, i, signNumberOf(ctx, acc), pk, ctx.block.chainId);
      if (cache.has(key)) continue;
      const signBytes = directSignBytes(registry, tx, ctx.block.chainId, signNumberOf(ctx, acc));
      const sig = tx.signatures[i]!;
      const eth = pk.name === ETH_SECP256K1_PUBKEY;
      items.push({ pubkey: pk.key, digest: eth ? keccak256(signBytes) : sha256(signBytes), sig: eth && sig.length === 65 ? sig.subarray(0, 64) : sig });
      keys.push(key);
    }
    const ok = await pool.verify(items);
    for (let j = 0; j < ok.length; j++) if (ok[j]) cache.add(keys[j]!);
  };
  return handler;
}
