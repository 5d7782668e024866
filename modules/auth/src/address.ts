/** Bech32 address codec of a chain (account, validator operator, consensus prefixes). */
import { fromBech32, toBech32, sha256 } from '@chain/crypto';

export class AddressCodec {
  constructor(readonly prefix: string) {}

  get valoperPrefix(): string { return this.prefix + 'valoper'; }
  get valconsPrefix(): string { return this.prefix + 'valcons'; }

  encode(bytes: Uint8Array): string {
    return toBech32(this.prefix, bytes);
  }

  /**
   * Decodes the address a message names as its signer: an account address, or a validator operator address
   * (`<prefix>valoper1...`, the same bytes: the SDK's `ValAddress` signers of MsgEditValidator, MsgUnjail,
   * MsgWithdrawValidatorCommission).
   */
  decodeSigner(text: string): Uint8Array {
    if (!text || !text.trim()) throw new Error('empty address string is not allowed');
    const { prefix, data } = fromBech32(text);
    if (prefix !== this.prefix && prefix !== this.valoperPrefix) throw new Error(`invalid Bech32 prefix; expected ${this.prefix}, got ${prefix}`);
    if (data.length === 0 || data.length > 255) throw new Error(`address length must be 1-255 bytes, got ${data.length}`);
    return data;
  }

  /** Decodes an account address; throws `decoding bech32 failed: ...` or a prefix error. */
  decode(text: string): Uint8Array {
    if (!text || !text.trim()) throw new Error('empty address string is not allowed');
    const { prefix, data } = fromBech32(text);
    if (prefix !== this.prefix) throw new Error(`invalid Bech32 prefix; expected ${this.prefix}, got ${prefix}`);
    if (data.length === 0 || data.length > 255) throw new Error(`address length must be 1-255 bytes, got ${data.length}`);
    return data;
  }
}

/** Module account address: first 20 bytes of sha256(module name). */
export function moduleAddress(name: string): Uint8Array {
  return sha256(new TextEncoder().encode(name)).subarray(0, 20);
}
