/**
 * The chain's app, declared as data: its modules, module accounts and permissions, the accounts that may
 * receive funds, the governance authority and the orders of the block and genesis hooks. The module
 * manager refuses it at start-up if it forgets a module in an order that module needs.
 */
import type { AppConfig } from '@chain/app';

export const CHAIN_APP_CONFIG: AppConfig = {
  modules: ['auth', 'bank', 'evm'],
  moduleAccounts: [
    { name: 'fee_collector', permissions: [] },
  ],
  authority: 'gov',
  order: {
    preBlock: [],
    beginBlock: ['evm'],
    endBlock: ['evm'],
    initGenesis: ['auth', 'bank', 'evm'],
  },
};
