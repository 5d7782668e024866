package main

import (
	"encoding/json"
	"time"

	cstypes "github.com/cometbft/cometbft/consensus/types"
	cmtjson "github.com/cometbft/cometbft/libs/json"
	cmtproto "github.com/cometbft/cometbft/proto/tendermint/types"
	"github.com/cometbft/cometbft/types"
)

// roundStateVectors: the round state of an idle validator between heights, exactly as
// consensus.State.updateToState leaves it after committing height h (step NewHeight of h+1,
// round 0, start time = commit time + timeout_commit, no proposal, nothing locked or valid,
// a fresh HeightVoteSet, last_commit = the precommits of h), as `consensus_state`
// (RoundStateSimple) and `dump_consensus_state` (RoundState) write it.
func roundStateVectors() []map[string]any {
	var out []map[string]any
	for _, n := range []int{1, 3} {
		var vals []*types.Validator
		for i := 0; i < n; i++ {
			vals = append(vals, types.NewValidator(keys[i].priv.PubKey(), int64(100*(i+1))))
		}
		valSet := types.NewValidatorSet(vals)
		h := int64(7)
		bid := blockIDOf(byte(40+n), 1)
		commitTime := ts(1700000123, 456789000)
		timeoutCommit := 1000 * time.Millisecond
		// the precommits of h: only keys[0] (the local validator) signed
		last := types.NewVoteSet(chainID, h, 0, cmtproto.PrecommitType, valSet)
		idx, _ := valSet.GetByAddress(keys[0].addr())
		v := &types.Vote{Type: cmtproto.PrecommitType, Height: h, Round: 0, BlockID: bid, Timestamp: commitTime,
			ValidatorAddress: keys[0].addr(), ValidatorIndex: idx}
		pv := v.ToProto()
		sig, err := keys[0].priv.Sign(types.VoteSignBytes(chainID, pv))
		must(err)
		v.Signature = sig
		if _, err := last.AddVote(v); err != nil {
			panic(err)
		}
		next := valSet.CopyIncrementProposerPriority(1)
		rs := cstypes.RoundState{
			Height: h + 1, Round: 0, Step: cstypes.RoundStepNewHeight,
			StartTime: commitTime.Add(timeoutCommit), CommitTime: commitTime,
			Validators: next, LockedRound: -1, ValidRound: -1,
			Votes: cstypes.NewHeightVoteSet(chainID, h+1, next), CommitRound: -1,
			LastCommit: last, LastValidators: valSet,
		}
		simple, err := cmtjson.Marshal(rs.RoundStateSimple())
		must(err)
		full, err := cmtjson.Marshal(rs)
		must(err)
		// the RPC results around them (ResultConsensusState, ResultDumpConsensusState without peers)
		cs, err := cmtjson.Marshal(struct {
			RoundState json.RawMessage `json:"round_state"`
		}{simple})
		must(err)
		dump, err := cmtjson.Marshal(struct {
			RoundState json.RawMessage `json:"round_state"`
			Peers      []any           `json:"peers"`
		}{full, []any{}})
		must(err)
		out = append(out, map[string]any{
			"validators": n, "height": h, "block_id": toJBlockID(bid), "commit_time": toJTime(commitTime),
			"timeout_commit_ms": timeoutCommit.Milliseconds(), "local_validator": hx(keys[0].addr()),
			"consensus_state": json.RawMessage(cs), "dump_consensus_state": json.RawMessage(dump),
		})
	}
	return out
}
