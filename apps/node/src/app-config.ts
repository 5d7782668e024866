/**
 * The chain's app, declared as data: its modules, module accounts and permissions, the accounts that may
 * receive funds, the governance authority and the orders of the block and genesis hooks (the original
 * chain's, reference §2.2, for the modules it has). The module manager refuses it at start-up if it
 * forgets a module in an order that module needs.
 */
import type { AppConfig } from '@chain/app';

export const CHAIN_APP_CONFIG: AppConfig = {
  modules: ['auth', 'bank', 'staking', 'distribution', 'slashing', 'evidence', 'mint', 'evm'],
  moduleAccounts: [
    { name: 'fee_collector', permissions: [] },
    { name: 'distribution', permissions: [] },
    { name: 'mint', permissions: ['minter'] },
    { name: 'bonded_tokens_pool', permissions: ['burner', 'staking'] },
    { name: 'not_bonded_tokens_pool', permissions: ['burner', 'staking'] },
  ],
  // as the SDK's simapp: every module account but distribution's is a blocked address
  allowReceiving: ['distribution'],
  authority: 'gov',
  order: {
    preBlock: [],
    beginBlock: ['evm', 'mint', 'distribution', 'slashing', 'evidence', 'staking'],
    endBlock: ['staking', 'evm'],
    initGenesis: ['auth', 'bank', 'distribution', 'staking', 'slashing', 'mint', 'evm', 'evidence'],
  },
};
