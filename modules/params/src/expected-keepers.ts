/**
 * What the params module needs of other modules: one `ParamSubspace` per module that has params, built by
 * that module over its own keeper (`stakingParamSubspace(stakingKeeper)`, `authParamSubspace(...)`, ...) and
 * handed to the `ParamsKeeper` by the composition (createChainApp). A subspace knows its key names, the amino
 * JSON of each value and the validators; the params module only routes by subspace name and key.
 *
 * The contract is `@chain/app`'s `ParamSubspace` (infrastructure, like `AppModule`, so that every module can
 * build one with `defineParamSubspace` / `paramKey` / `aminoJson` without importing this module):
 *
 *   interface ParamSubspace {
 *     readonly name: string;                                   // 'staking'
 *     keys(): readonly string[];                               // ['UnbondingTime', 'MaxValidators', ...]
 *     getAmino(ctx: Context, key: string): string;             // '100'
 *     setAmino(ctx: Context, key: string, value: string): void; // decode, validate, store (throws, writes nothing)
 *   }
 */
export type { ParamSubspace } from '@chain/app';
