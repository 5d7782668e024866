/** The usage lines of `chaind localnet` (a module of its own: the help does not load the localnet code). */
export const LOCALNET_USAGE = `  chaind localnet start --home DIR [--validators N] [--base-port P] [--timeout-commit 1s]
                        [--genesis-patch FILE] [-- ARGS]
                                        N validators (default 4) on loopback, each a chaind + CometBFT
                                        pair in DIR/node<i>, one shared genesis (the dev accounts funded);
                                        writes DIR/localnet.json (endpoints, pids); FILE: JSON merged
                                        into the genesis (objects key by key); ARGS after -- go to
                                        every node's chaind start (e.g. --evm.rpc.api eth,net,debug)
  chaind localnet stop --home DIR       stops every process of it (SIGTERM, then SIGKILL)
  chaind localnet status --home DIR     each node's height and peer count
  chaind localnet restart-node --home DIR --node I
                                        starts node I again (same ports), waits until it caught up
  chaind localnet add-node --home DIR [--validator-key-of I]
                                        adds a full node (not a validator) that syncs from the others;
                                        with --validator-key-of, a copy of node I's consensus key (it
                                        double-signs: for evidence tests only)`;
