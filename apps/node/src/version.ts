/** The node's version (chaind version, node_info, web3_clientVersion). */
export const VERSION = '0.1.0';
