/**
 * The upgrade pre-block hook: x/upgrade's BeginBlocker of SDK v0.45 (x/upgrade/abci.go), run before every
 * other module's block hooks. A panic of the SDK is a `ChainHaltError` here: FinalizeBlock fails, the block is
 * not committed and the engine stops producing blocks; a restart of the same binary halts again.
 */
import { ChainHaltError } from '@chain/app';
import type { Context } from '@chain/app';
import type { UpgradeKeeper } from './keeper.js';
import { dueAt, shouldExecute, upgradeNeededMsg } from './plan.js';

export async function preBlocker(k: UpgradeKeeper, ctx: Context): Promise<void> {
  const height = ctx.block.height;
  const plan = k.getUpgradePlan(ctx);
  const due = plan !== undefined && shouldExecute(plan, height);

  // once per process: this binary must have the handler of the last applied upgrade (else it is an older binary)
  if (!k.downgradeVerified()) {
    k.setDowngradeVerified(true);
    const [lastApplied] = k.getLastCompletedUpgrade(ctx);
    if (!due || k.isSkipHeight(height)) {
      if (lastApplied !== '' && !k.hasHandler(lastApplied)) {
        const msg = `Wrong app version ${k.getProtocolVersion(ctx)}, upgrade handler is missing for ${lastApplied} upgrade plan`;
        k.logger.error(msg);
        throw new ChainHaltError(msg, height);
      }
    }
  }

  if (!plan) return;

  if (due) {
    if (k.isSkipHeight(height)) {
      k.logger.info(`UPGRADE "${plan.name}" SKIPPED at ${plan.height}: ${plan.info}`);
      k.clearUpgradePlan(ctx);
      return;
    }
    if (!k.hasHandler(plan.name)) {
      // the file first: cosmovisor (or the operator) reads it to switch binaries
      if (k.homeDir !== undefined) {
        try {
          k.dumpUpgradeInfoToDisk(height, plan.name, plan.info);
        } catch (e) {
          const msg = `unable to write upgrade info to filesystem: ${(e as Error).message}`;
          k.logger.error(msg);
          throw new ChainHaltError(msg, height);
        }
      }
      const msg = upgradeNeededMsg(plan);
      k.logger.error(msg);
      throw new ChainHaltError(msg, height);
    }
    k.logger.info(`applying upgrade "${plan.name}" at ${dueAt(plan)}`);
    try {
      await k.applyUpgrade(ctx, plan);
    } catch (e) {
      const msg = `upgrade "${plan.name}" failed at height ${height}: ${e instanceof Error ? e.message : String(e)}`;
      k.logger.error(msg);
      throw new ChainHaltError(msg, height);
    }
    return;
  }

  // a plan not yet due whose handler this binary already has: the binary was switched too early
  if (k.hasHandler(plan.name)) {
    const msg = `BINARY UPDATED BEFORE TRIGGER! UPGRADE "${plan.name}" - in binary but not executed on chain`;
    k.logger.error(msg);
    throw new ChainHaltError(msg, height);
  }
}
