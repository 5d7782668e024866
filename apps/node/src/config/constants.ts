/** The chain's fixed names and dev amounts (a module of its own: the client commands read them without the rest of init). */
export const DEV_CHAIN_ID = 'chain_1337-1';
export const BECH32_PREFIX = 'chain';
export const BASE_DENOM = 'achain';
export const DEV_BALANCE = '1000000000000000000000000'; // 10^24 achain = 10^6 chain
export const DEV_MIN_GAS_PRICES = '1000000000achain';
export const DEV_ACCOUNT_COUNT = 10;
/** the genesis validator's self-delegation: 1000 chain (consensus power 1000 at 10^18 per unit) */
export const GENESIS_SELF_DELEGATION = '1000000000000000000000';
/** gov's min deposit: 10 chain (the original's 10 of its display denom), in `chaind dev` and `chaind init` */
export const GOV_MIN_DEPOSIT = '10000000000000000000';
/** `chaind dev`'s gov max deposit period and voting period (production: 48h and 120h) */
export const DEV_GOV_PERIOD = '20s';
