/** Default config files written by `chaind init` (documented, like the Cosmos SDK templates). */

export function appTomlTemplate(o: { minGasPrices: string; apiEnable: boolean; swagger: boolean; jsonRpcEnable: boolean; explorer?: boolean }): string {
  return `# chaind application configuration (app.toml)

# The minimum gas prices a validator accepts for processing a transaction in CheckTx,
# e.g. "1000000000achain". A tx whose fee is below gas_limit x price is rejected (code 13).
minimum-gas-prices = "${o.minGasPrices}"

# Past states kept for queries at past heights and proofs (as the Cosmos SDK):
#   nothing:    every height is kept
#   default:    the last 362880 heights, pruned every 10 blocks
#   everything: the last 2 heights, pruned every 10 blocks
#   custom:     pruning-keep-recent heights, pruned every pruning-interval (>= 10) blocks
# A query at a pruned height answers "failed to load state at height H; ..." (sdk code 38).
pruning = "nothing"
pruning-keep-recent = "0"
pruning-interval = "0"

# Nodes of each store's state tree (IAVL) cached in memory; the rest is read from disk when needed.
iavl-cache-size = 100000

# Values of the current state cached in memory (entries, about 200-300 bytes each); the state itself is on
# disk and a value not in the cache is one synchronous disk read.
state-cache-size = 200000

[api]
# Enable the REST server (gRPC-gateway conventions, /chain/... and /cosmos/... routes).
enable = ${o.apiEnable}
# Serve the OpenAPI v2 document at GET /swagger.
swagger = ${o.swagger}
# Serve the block explorer at GET /explorer/ (static page reading REST, the CometBFT RPC websocket and the
# Ethereum JSON-RPC from the browser). The wallet descriptions (/keplr/chain-info.json,
# /chain-registry/chain.json, /chain-registry/assetlist.json) are served whenever the REST server is on.
explorer = ${o.explorer ?? false}
# Listen address.
address = "tcp://0.0.0.0:1317"
# Maximum number of simultaneous connections.
max-open-connections = 1000
# Read timeout of a request, in seconds.
rpc-read-timeout = 10
# Write timeout of a response, in seconds (0 = none).
rpc-write-timeout = 0
# Maximum size of a request body, in bytes.
rpc-max-body-bytes = 1000000
# Allow cross-origin requests from any origin.
enabled-unsafe-cors = false

[grpc]
enable = true
address = "0.0.0.0:9090"

[json-rpc]
# Ethereum JSON-RPC server (HTTP and websocket).
enable = ${o.jsonRpcEnable}
address = "0.0.0.0:8545"
ws-address = "0.0.0.0:8546"
# Namespaces served: eth, net, web3, txpool, debug.
api = "${o.jsonRpcEnable ? 'eth,net,web3,txpool' : 'eth,net,web3'}"
# Gas cap of eth_call and eth_estimateGas (0 = the default 25000000).
gas-cap = 25000000
# Time limit of one eth_call / eth_estimateGas ("0s" = none); calls yield while they run.
evm-timeout = "5s"
# Largest fee (gas limit x fee cap, in ether) eth_sendRawTransaction accepts (0 = no cap).
txfee-cap = 1
# Filters (eth_newFilter, eth_newBlockFilter, ...) per client, and the idle time after which one is removed.
filter-cap = 200
filter-timeout = "5m"
# Blocks eth_feeHistory returns at most.
feehistory-cap = 100
# Logs eth_getLogs returns at most, and the widest block range it searches.
logs-cap = 10000
block-range-cap = 10000
# Time limit of an HTTP request.
http-timeout = "30s"
# Time an idle keep-alive HTTP connection stays open.
http-idle-timeout = "120s"
# Simultaneous connections of the HTTP listener, and of the websocket listener (0 = unlimited);
# a connection beyond the limit is closed at once.
max-open-connections = 0
# Accept transactions signed without an EIP-155 chain id (legacy v = 27/28) over RPC. Node-local: the
# chain accepts them only when its evm param allow_unprotected_txs is true.
allow-unprotected-txs = false
# Requests in one JSON-RPC batch, and the size of a request body (HTTP) or message (websocket) in bytes.
batch-request-limit = 1000
max-body-bytes = 5242880
# eth_subscribe subscriptions per websocket connection.
max-subscriptions-per-connection = 100
`;
}

export function configTomlTemplate(o: { moniker: string; timeoutCommit: string; prometheus?: boolean }): string {
  return `# chaind consensus-engine configuration (config.toml)

moniker = "${o.moniker}"

# Log levels, per module as the Cosmos SDK's --log_level: "info", or "info,rest:debug,consensus:error"
# (modules: node, consensus, rpc, rest, grpc, json-rpc, upgrade, abci, metrics; levels debug, info, warn, error, none).
log_level = "info"
# "plain" (one text line per entry) or "json" (one JSON object per line: level, time, module, msg, fields).
log_format = "plain"

[rpc]
# CometBFT-compatible JSON-RPC and /websocket listen address.
laddr = "tcp://127.0.0.1:26657"
max_open_connections = 900
max_subscription_clients = 100
max_subscriptions_per_client = 5
experimental_subscription_buffer_size = 200
max_body_bytes = 1000000
max_request_batch_size = 10
timeout_broadcast_tx_commit = "10s"
cors_allowed_origins = []

[mempool]
size = 5000
max_txs_bytes = 1073741824
max_tx_bytes = 1048576
cache_size = 10000

[consensus]
# Time between the commit of a block and the proposal of the next one.
timeout_commit = "${o.timeoutCommit}"

[tx_index]
# Where the embedded engine keeps the tx and block index (tx, tx_search, block_search). true: in data/tx_index.db,
# written on a worker thread after each commit (as CometBFT indexes on its own routine); a start indexes the stored
# blocks it lacks. false: in chain.db, written in each block's atomic batch, on the main thread. Measured on 2 cores
# with true: ~7% more bank sends/s and ~8% more ERC-20 transfers/s at saturation; ~250 MB more peak RSS under load,
# ~120 MB more two blocks after a 50k-tx load. Turning it off again leaves the blocks indexed while it was on out of
# chain.db's index (remove data/tx_index.db and keep it on to rebuild instead).
worker_thread = true

[instrumentation]
# Serve Prometheus metrics (text format) at GET /metrics on prometheus_listen_addr.
# --consensus cometbft: CometBFT serves its own metrics there (cometbft_consensus_*, _mempool_*, _p2p_*, ...)
# and chaind the app's (tx_*, chain_*) on app_prometheus_listen_addr.
prometheus = ${o.prometheus ?? false}
prometheus_listen_addr = ":26660"
# Prefix of the CometBFT-named metrics (cometbft_consensus_height, ...).
namespace = "cometbft"
# --consensus cometbft: where chaind serves the app's metrics ("" = prometheus_listen_addr's port + 1: ":26661").
app_prometheus_listen_addr = ""
`;
}
