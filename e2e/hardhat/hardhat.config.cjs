// Hardhat 2 project of the reference EVM dev node (e2e/src/hardhat.ts runs `hardhat node` in this folder).
// Chosen to match a `chaind dev` node: chain id 1337, the Prague EVM, a 1 gwei initial base fee, a 30M block
// gas limit, and the first 20 accounts of `test test ... junk` (the coin-type-60 dev accounts) funded with
// 10^24 wei each, as the dev genesis funds them with 10^24 achain.
module.exports = {
  networks: {
    hardhat: {
      chainId: 1337,
      hardfork: 'prague',
      initialBaseFeePerGas: 1_000_000_000,
      blockGasLimit: 30_000_000,
      accounts: { mnemonic: 'test test test test test test test test test test test junk', accountsBalance: '1000000000000000000000000' },
    },
  },
};
