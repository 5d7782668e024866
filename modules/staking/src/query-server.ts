/**
 * The Query service of staking (`chain.staking.v1beta1.Query`), as Cosmos SDK v0.45
 * x/staking/keeper/grpc_query.go: the same iteration (and so the same order and page keys), filters, and
 * error codes and messages. One deliberate difference: an address that does not decode is InvalidArgument
 * (`invalid delegator address: …`) up front, where v0.45 returns the bare bech32 error (gRPC Unknown).
 */
import type { Context, PageResponse, QueryServer } from '@chain/app';
import { paginateCollection } from '@chain/app';
import { GrpcCode, StatusError, statusError } from '@chain/errors';
import { StakingErrors } from './errors.js';
import type {
  Delegation, DelegationResponse, QueryMethods, Redelegation, RedelegationResponse, UnbondingDelegation, Validator,
} from './gen/chain/staking/v1beta1.js';
import { BondStatus } from './gen/chain/staking/v1beta1.js';
import type { StakingKeeper } from './keeper.js';
import { decAtomics, tokensFromSharesTruncated } from './math.js';

const STATUS_NAMES: Record<string, number> = {
  BOND_STATUS_BONDED: BondStatus.BOND_STATUS_BONDED,
  BOND_STATUS_UNBONDING: BondStatus.BOND_STATUS_UNBONDING,
  BOND_STATUS_UNBONDED: BondStatus.BOND_STATUS_UNBONDED,
};

/** An error of the SDK's keeper helpers, returned by the query as gRPC Internal with its text. */
const internal = (e: unknown): Error => statusError(GrpcCode.INTERNAL, e instanceof Error ? e.message : String(e));

/** Runs `f`; a non-status error becomes Internal (the SDK's `status.Error(codes.Internal, err.Error())`). */
function orInternal<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof StatusError) throw e;
    throw internal(e);
  }
}

export function createQueryServer(k: StakingKeeper): QueryServer<QueryMethods> {
  const delAddr = (text: string): Uint8Array => {
    if (!text) throw statusError(GrpcCode.INVALID_ARGUMENT, 'delegator address cannot be empty');
    try {
      return k.accCodec.decode(text);
    } catch (e) {
      throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid delegator address: ${(e as Error).message}`);
    }
  };
  const valAddr = (text: string): Uint8Array => {
    if (!text) throw statusError(GrpcCode.INVALID_ARGUMENT, 'validator address cannot be empty');
    try {
      return k.valCodec.decode(text);
    } catch (e) {
      throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid validator address: ${(e as Error).message}`);
    }
  };

  /** SDK `DelegationToDelegationResponse`: the balance in the bond denom from the validator's exchange rate. */
  const delegationResponse = (ctx: Context, denom: string, d: Delegation): DelegationResponse => {
    const v = k.getValidator(ctx, k.valCodec.decode(d.validator_address));
    if (!v) throw StakingErrors.NoValidatorFound.error();
    const amount = tokensFromSharesTruncated(decAtomics(d.shares), BigInt(v.tokens || '0'), decAtomics(v.delegator_shares));
    return { delegation: d, balance: { denom, amount: amount.toString() } };
  };
  const delegationResponses = (ctx: Context, ds: Delegation[]): DelegationResponse[] => {
    const denom = k.bondDenom(ctx);
    return orInternal(() => ds.map((d) => delegationResponse(ctx, denom, d)));
  };
  /** SDK `RedelegationsToRedelegationResponses`: each entry's balance at the destination validator. */
  const redelegationResponses = (ctx: Context, reds: Redelegation[]): RedelegationResponse[] => orInternal(() => reds.map((red) => {
    const dst = k.getValidator(ctx, k.valCodec.decode(red.validator_dst_address));
    if (!dst) throw StakingErrors.NoValidatorFound.error();
    const tokens = BigInt(dst.tokens || '0');
    const shares = decAtomics(dst.delegator_shares);
    return {
      redelegation: red,
      entries: red.entries.map((e) => ({ redelegation_entry: e, balance: tokensFromSharesTruncated(decAtomics(e.shares_dst), tokens, shares).toString() })),
    };
  }));

  return {
    Validators: (ctx, req) => {
      if (req.status !== '' && !Object.hasOwn(STATUS_NAMES, req.status)) {
        throw statusError(GrpcCode.INVALID_ARGUMENT, `invalid validator status ${req.status}`);
      }
      // the SDK filters with strings.EqualFold on the status name while paginating (FilteredPaginate)
      const want = req.status === '' ? undefined : STATUS_NAMES[req.status];
      const { items, pagination } = paginateCollection(ctx, k.state.Validators, undefined, req.pagination, (_op, v) => (
        want === undefined || v.status === want ? v : undefined
      ));
      return { validators: items, pagination };
    },
    Validator: (ctx, req) => {
      const op = valAddr(req.validator_addr);
      const validator = k.getValidator(ctx, op);
      if (!validator) throw statusError(GrpcCode.NOT_FOUND, `validator ${req.validator_addr} not found`);
      return { validator };
    },
    ValidatorDelegations: (ctx, req) => {
      const op = valAddr(req.validator_addr);
      // v0.45 walks every delegation (0x31) and keeps the validator's (FilteredPaginate): page keys are full
      // delegation keys, and `total` counts the matches
      const { items, pagination } = paginateCollection(ctx, k.state.Delegations, undefined, req.pagination, ([, val], d) => (
        Buffer.compare(val, op) === 0 ? d : undefined
      ));
      return { delegation_responses: delegationResponses(ctx, items), pagination };
    },
    ValidatorUnbondingDelegations: (ctx, req) => {
      const op = valAddr(req.validator_addr);
      // the by-validator index (0x33 | lp(val)), each entry pointing at its record
      const { items, pagination } = paginateCollection(ctx, k.state.UnbondingDelegationsByValidator, [op], req.pagination, ([val, del]) => (
        k.getUnbondingDelegation(ctx, del, val)
      ));
      return { unbonding_responses: items, pagination };
    },
    Delegation: (ctx, req) => {
      const del = delAddr(req.delegator_addr);
      const op = valAddr(req.validator_addr);
      const d = k.getDelegation(ctx, del, op);
      if (!d) throw statusError(GrpcCode.NOT_FOUND, `delegation with delegator ${req.delegator_addr} not found for validator ${req.validator_addr}`);
      return { delegation_response: delegationResponses(ctx, [d])[0]! };
    },
    UnbondingDelegation: (ctx, req) => {
      const del = delAddr(req.delegator_addr);
      const op = valAddr(req.validator_addr);
      const unbond = k.getUnbondingDelegation(ctx, del, op);
      if (!unbond) throw statusError(GrpcCode.NOT_FOUND, `unbonding delegation with delegator ${req.delegator_addr} not found for validator ${req.validator_addr}`);
      return { unbond };
    },
    DelegatorDelegations: (ctx, req) => {
      const del = delAddr(req.delegator_addr);
      const { items, pagination } = paginateCollection(ctx, k.state.Delegations, [del], req.pagination, (_k, d) => d);
      // v0.45: no delegation at all is NotFound (removed in later versions)
      if (items.length === 0) throw statusError(GrpcCode.NOT_FOUND, `unable to find delegations for address ${req.delegator_addr}`);
      return { delegation_responses: delegationResponses(ctx, items), pagination };
    },
    DelegatorUnbondingDelegations: (ctx, req) => {
      const del = delAddr(req.delegator_addr);
      const { items, pagination } = paginateCollection(ctx, k.state.UnbondingDelegations, [del], req.pagination, (_k, u) => u);
      return { unbonding_responses: items, pagination };
    },
    Redelegations: (ctx, req) => {
      let reds: Redelegation[];
      let pagination: PageResponse | null = null;
      if (req.delegator_addr !== '' && req.src_validator_addr !== '' && req.dst_validator_addr !== '') {
        // one redelegation; not found is the staking error, as Internal
        const red = k.getRedelegation(ctx, delAddr(req.delegator_addr), valAddr(req.src_validator_addr), valAddr(req.dst_validator_addr));
        if (!red) {
          throw internal(StakingErrors.NoRedelegation.wrap(`redelegation not found for delegator address ${req.delegator_addr} from validator address ${req.src_validator_addr}`));
        }
        reds = [red];
      } else if (req.delegator_addr === '' && req.src_validator_addr !== '' && req.dst_validator_addr === '') {
        // every redelegation from the source validator (0x35 | lp(src))
        const src = valAddr(req.src_validator_addr);
        const page = paginateCollection(ctx, k.state.RedelegationsBySrc, [src], req.pagination, ([s, del, dst]) => k.getRedelegation(ctx, del, s, dst));
        reds = page.items;
        pagination = page.pagination;
      } else {
        // every redelegation of the delegator (0x34 | lp(del)); a destination alone is ignored, as the SDK.
        // No delegator is InvalidArgument (the SDK returns the bare bech32 error: HTTP 500)
        const page = paginateCollection(ctx, k.state.Redelegations, [delAddr(req.delegator_addr)], req.pagination, (_k, red) => red);
        reds = page.items;
        pagination = page.pagination;
      }
      return { redelegation_responses: redelegationResponses(ctx, reds), pagination };
    },
    DelegatorValidators: (ctx, req) => {
      const del = delAddr(req.delegator_addr);
      const { items, pagination } = orInternal(() => paginateCollection(ctx, k.state.Delegations, [del], req.pagination, ([, op]) => {
        const v = k.getValidator(ctx, op);
        if (!v) throw StakingErrors.NoValidatorFound.error();
        return v;
      }));
      return { validators: items, pagination };
    },
    DelegatorValidator: (ctx, req) => {
      const del = delAddr(req.delegator_addr);
      const op = valAddr(req.validator_addr);
      // SDK `GetDelegatorValidator`: a missing delegation or validator is the staking error, as Internal
      const d = k.getDelegation(ctx, del, op);
      if (!d) throw internal(StakingErrors.NoDelegation.error());
      const validator: Validator | undefined = k.getValidator(ctx, op);
      if (!validator) throw internal(StakingErrors.NoValidatorFound.error());
      return { validator };
    },
    HistoricalInfo: (ctx, req) => {
      if (req.height < 0n) throw statusError(GrpcCode.INVALID_ARGUMENT, 'height cannot be negative');
      const hist = k.getHistoricalInfo(ctx, req.height);
      if (!hist) throw statusError(GrpcCode.NOT_FOUND, `historical info for height ${req.height} not found`);
      return { hist };
    },
    Pool: (ctx) => {
      // the balances of the two pool module accounts in the bond denom (nothing is stored)
      const denom = k.bondDenom(ctx);
      return {
        pool: {
          not_bonded_tokens: k.bk.getBalance(ctx, k.notBondedPoolAddress(), denom).toString(),
          bonded_tokens: k.bk.getBalance(ctx, k.bondedPoolAddress(), denom).toString(),
        },
      };
    },
    Params: (ctx) => ({ params: k.getParams(ctx) }),
  };
}

