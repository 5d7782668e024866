/**
 * @chain/simulation: a seeded randomized simulation of an app (the SDK's x/simulation and simapp's
 * `SimulateFromSeed`): random accounts funded at genesis, weighted operations contributed by modules
 * delivered as signed txs through CheckTx and FinalizeBlock, simulated consensus (last commit votes with
 * absent validators, proposer, misbehaviour, block times), invariants after every block, and a replay from
 * genesis that must give the same app hash at every height. It knows no module: modules contribute
 * `SimulationModule`s.
 */
export { Rand, parseSeed, seedFromEnv, randomSeed } from './rand.js';
export type { Seed } from './rand.js';
export { createAccounts } from './accounts.js';
export { randomAmount, positiveAmount, randomCoins, randomFees, minCoins, subCoins, amountOfDenom } from './coins.js';
export { ConsensusSimulator, DEFAULT_LIVENESS, applyValidatorUpdates, consensusAddress, totalPower } from './consensus.js';
export type { BlockConsensus, LivenessParams, SetValidator, ValidatorSet } from './consensus.js';
export { signTx } from './tx.js';
export type { SignOptions } from './tx.js';
export { ok, fails, noop, isNoOp } from './types.js';
export type {
  Expectation, Invariant, InvariantResult, NoOp, Operation, OperationInput, OperationMsg, OperationResult, SimAccount, SimMsg,
  SimulationModule, WeightedOperation,
} from './types.js';
export { runSimulation, formatReport, SimulationError } from './runner.js';
export type {
  OperationStats, SimulationApp, SimulationFailureKind, SimulationGenesis, SimulationParams, SimulationReport, SimulationSetup,
} from './runner.js';
