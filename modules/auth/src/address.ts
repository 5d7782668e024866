/** Bech32 address codec of a chain (account, validator operator, consensus prefixes). */
import { Bech32Codec, decodeAddress, sha256 } from '@chain/crypto';

export class AddressCodec extends Bech32Codec {
  get valoperPrefix(): string { return this.prefix + 'valoper'; }
  get valconsPrefix(): string { return this.prefix + 'valcons'; }

  /**
   * Decodes the address a message names as its signer: an account address, or a validator operator address
   * (`<prefix>valoper1...`, the same bytes: the SDK's `ValAddress` signers of MsgEditValidator, MsgUnjail,
   * MsgWithdrawValidatorCommission).
   */
  decodeSigner(text: string): Uint8Array {
    return decodeAddress(text, [this.prefix, this.valoperPrefix]);
  }
}

/** Module account address: first 20 bytes of sha256(module name). */
export function moduleAddress(name: string): Uint8Array {
  return sha256(new TextEncoder().encode(name)).subarray(0, 20);
}
