/**
 * The chain's app, declared as data: its modules, module accounts and permissions, the accounts that may
 * receive funds, the governance authority and the orders of the block and genesis hooks (the original
 * chain's, reference §2.2, for the modules it has). The module manager refuses it at start-up if it
 * forgets a module in an order that module needs.
 */
import type { AppConfig } from '@chain/app';

export const CHAIN_APP_CONFIG: AppConfig = {
  modules: ['auth', 'bank', 'staking', 'distribution', 'slashing', 'evidence', 'mint', 'evm', 'token', 'liquidity', 'gov', 'params', 'upgrade'],
  moduleAccounts: [
    { name: 'fee_collector', permissions: [] },
    { name: 'distribution', permissions: [] },
    { name: 'mint', permissions: ['minter'] },
    { name: 'bonded_tokens_pool', permissions: ['burner', 'staking'] },
    { name: 'not_bonded_tokens_pool', permissions: ['burner', 'staking'] },
    // the token module (prc10) mints issued tokens and burns its fees and burned tokens
    { name: 'token', permissions: ['minter', 'burner'] },
    // the liquidity module: the batch escrow; mints and burns pool coins
    { name: 'liquidity', permissions: ['minter', 'burner'] },
    // proposal deposits, burned when a proposal is vetoed, misses quorum or its min deposit
    { name: 'gov', permissions: ['burner'] },
  ],
  // as the SDK's simapp: every module account but distribution's is a blocked address
  allowReceiving: ['distribution'],
  authority: 'gov',
  order: {
    // upgrade first: it halts (or switches the software) at a plan's height before anything else runs
    preBlock: ['upgrade'],
    beginBlock: ['evm', 'mint', 'distribution', 'slashing', 'evidence', 'staking', 'liquidity'],
    // gov before staking (proposals execute before the validator set update of the same block), as the original
    endBlock: ['gov', 'staking', 'liquidity', 'evm'],
    initGenesis: ['auth', 'bank', 'distribution', 'staking', 'slashing', 'mint', 'evm', 'evidence', 'token', 'liquidity', 'gov', 'upgrade'],
  },
};
