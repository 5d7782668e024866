/**
 * Errors of the upgrade module. x/upgrade of SDK v0.45 registers none of its own: plan and scheduling
 * failures are the root errors `sdk` 18 (invalid request) and `sdk` 6 (unknown request), and a missing
 * module version `sdk` 38 (not found), each wrapped with the SDK's text.
 */
import { Errors } from '@chain/errors';

export const UpgradeErrors = {
  InvalidRequest: Errors.InvalidRequest,
  UnknownRequest: Errors.UnknownRequest,
  NotFound: Errors.NotFound,
};
