export { Dec, DecErrors, PRECISION, DECIMAL_PRECISION_BITS, MAX_INT_BIT_LEN, MAX_DEC_BIT_LEN, MAX_APPROX_ROOT_ITERATIONS, minDec, maxDec, decsEqual } from './dec.js';
export type { IntLike } from './dec.js';
export { MathError } from './errors.js';
export {
  INT_MAX_BIT_LEN,
  DEFAULT_POWER_REDUCTION,
  CHAIN_POWER_REDUCTION,
  bitLen,
  checkInt,
  parseInt256,
  tokensToConsensusPower,
  tokensFromConsensusPower,
} from './int.js';
export { DecCoin, DecCoins, validateDenom } from './dec-coin.js';
export type { IntCoin, DecCoinJSON } from './dec-coin.js';
