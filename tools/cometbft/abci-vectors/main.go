// abci-vectors prints CometBFT v0.38's socket-protocol frames (abci/types.WriteMessage: uvarint length ‖
// protobuf) of a set of ABCI requests and responses, as JSON, built with the real cometbft module.
// The output is committed as packages/abci-server/test/vectors/abci-v038.json (see ../README.md).
package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"time"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/cometbft/cometbft/crypto/ed25519"
	cmtproto "github.com/cometbft/cometbft/proto/tendermint/types"
	"github.com/cometbft/cometbft/version"
	"github.com/cosmos/gogoproto/proto"
)

type vector struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"` // request | response
	Frame string `json:"frame"`
}

func frame(m proto.Message) string {
	var b bytes.Buffer
	if err := abci.WriteMessage(m, &b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b.Bytes())
}

func main() {
	t := time.Date(2024, 1, 2, 3, 4, 5, 678_000_000, time.UTC)
	pk := ed25519.GenPrivKeyFromSecret([]byte("abci-vectors-validator")).PubKey()
	addr := pk.Address()
	valUpdate := abci.UpdateValidator(pk.Bytes(), 10, "ed25519")
	params := cmtproto.ConsensusParams{
		Block:     &cmtproto.BlockParams{MaxBytes: 22020096, MaxGas: -1},
		Evidence:  &cmtproto.EvidenceParams{MaxAgeNumBlocks: 100000, MaxAgeDuration: 48 * time.Hour, MaxBytes: 1048576},
		Validator: &cmtproto.ValidatorParams{PubKeyTypes: []string{"ed25519"}},
		Version:   &cmtproto.VersionParams{App: 0},
		Abci:      &cmtproto.ABCIParams{VoteExtensionsEnableHeight: 0},
	}
	lastCommit := abci.CommitInfo{Round: 0, Votes: []abci.VoteInfo{{Validator: abci.Validator{Address: addr, Power: 10}, BlockIdFlag: cmtproto.BlockIDFlagCommit}}}
	misb := []abci.Misbehavior{{Type: abci.MisbehaviorType_DUPLICATE_VOTE, Validator: abci.Validator{Address: addr, Power: 10}, Height: 3, Time: t, TotalVotingPower: 10}}
	hash := bytes.Repeat([]byte{0xab}, 32)
	nvh := bytes.Repeat([]byte{0xcd}, 32)
	big := []byte(strings.Repeat("x", 300)) // a length prefix of two varint bytes

	vs := []vector{
		{"echo", "request", frame(abci.ToRequestEcho("hello"))},
		{"flush", "request", frame(abci.ToRequestFlush())},
		{"info", "request", frame(abci.ToRequestInfo(&abci.RequestInfo{Version: version.TMCoreSemVer, BlockVersion: version.BlockProtocol, P2PVersion: version.P2PProtocol, AbciVersion: version.ABCISemVer}))},
		{"init_chain", "request", frame(abci.ToRequestInitChain(&abci.RequestInitChain{Time: t, ChainId: "vec-1", ConsensusParams: &params, Validators: []abci.ValidatorUpdate{valUpdate}, AppStateBytes: []byte(`{"counter":{}}`), InitialHeight: 1}))},
		{"query", "request", frame(abci.ToRequestQuery(&abci.RequestQuery{Data: []byte{1, 2}, Path: "/app/version", Height: 7, Prove: true}))},
		{"check_tx", "request", frame(abci.ToRequestCheckTx(&abci.RequestCheckTx{Tx: big, Type: abci.CheckTxType_Recheck}))},
		{"commit", "request", frame(abci.ToRequestCommit())},
		{"list_snapshots", "request", frame(abci.ToRequestListSnapshots(&abci.RequestListSnapshots{}))},
		{"prepare_proposal", "request", frame(abci.ToRequestPrepareProposal(&abci.RequestPrepareProposal{MaxTxBytes: 1048576, Txs: [][]byte{{1}, {2, 3}}, LocalLastCommit: abci.ExtendedCommitInfo{Votes: []abci.ExtendedVoteInfo{{Validator: abci.Validator{Address: addr, Power: 10}, BlockIdFlag: cmtproto.BlockIDFlagCommit}}}, Misbehavior: misb, Height: 5, Time: t, NextValidatorsHash: nvh, ProposerAddress: addr}))},
		{"process_proposal", "request", frame(abci.ToRequestProcessProposal(&abci.RequestProcessProposal{Txs: [][]byte{{1}}, ProposedLastCommit: lastCommit, Misbehavior: misb, Hash: hash, Height: 5, Time: t, NextValidatorsHash: nvh, ProposerAddress: addr}))},
		{"extend_vote", "request", frame(abci.ToRequestExtendVote(&abci.RequestExtendVote{Hash: hash, Height: 5}))},
		{"verify_vote_extension", "request", frame(abci.ToRequestVerifyVoteExtension(&abci.RequestVerifyVoteExtension{Hash: hash, ValidatorAddress: addr, Height: 5, VoteExtension: []byte{9}}))},
		{"finalize_block", "request", frame(abci.ToRequestFinalizeBlock(&abci.RequestFinalizeBlock{Txs: [][]byte{big, {7}}, DecidedLastCommit: lastCommit, Misbehavior: misb, Hash: hash, Height: 5, Time: t, NextValidatorsHash: nvh, ProposerAddress: addr}))},

		{"exception", "response", frame(abci.ToResponseException("boom"))},
		{"echo", "response", frame(abci.ToResponseEcho("hello"))},
		{"flush", "response", frame(abci.ToResponseFlush())},
		{"info", "response", frame(abci.ToResponseInfo(&abci.ResponseInfo{Data: "chain", Version: "1.0.0", AppVersion: 1, LastBlockHeight: 42, LastBlockAppHash: hash}))},
		{"init_chain", "response", frame(abci.ToResponseInitChain(&abci.ResponseInitChain{ConsensusParams: &params, Validators: []abci.ValidatorUpdate{valUpdate}, AppHash: hash}))},
		{"query", "response", frame(abci.ToResponseQuery(&abci.ResponseQuery{Code: 6, Log: "unknown query path", Value: []byte{1}, Height: 7, Codespace: "sdk"}))},
		{"check_tx", "response", frame(abci.ToResponseCheckTx(&abci.ResponseCheckTx{Code: 0, Data: []byte{1}, Log: "[]", GasWanted: 200000, GasUsed: 51234, Events: []abci.Event{{Type: "tx", Attributes: []abci.EventAttribute{{Key: "fee", Value: "5achain", Index: true}}}}}))},
		{"commit", "response", frame(abci.ToResponseCommit(&abci.ResponseCommit{RetainHeight: 0}))},
		{"prepare_proposal", "response", frame(abci.ToResponsePrepareProposal(&abci.ResponsePrepareProposal{Txs: [][]byte{{1}, {2, 3}}}))},
		{"process_proposal", "response", frame(abci.ToResponseProcessProposal(&abci.ResponseProcessProposal{Status: abci.ResponseProcessProposal_ACCEPT}))},
		{"verify_vote_extension", "response", frame(abci.ToResponseVerifyVoteExtension(&abci.ResponseVerifyVoteExtension{Status: abci.ResponseVerifyVoteExtension_ACCEPT}))},
		{"finalize_block", "response", frame(abci.ToResponseFinalizeBlock(&abci.ResponseFinalizeBlock{
			Events:           []abci.Event{{Type: "mint", Attributes: []abci.EventAttribute{{Key: "amount", Value: "1", Index: true}, {Key: "mode", Value: "BeginBlock", Index: false}}}},
			TxResults:        []*abci.ExecTxResult{{Code: 0, Data: []byte{1}, Log: "ok", GasWanted: 100, GasUsed: 90}, {Code: 5, Codespace: "sdk", Log: "insufficient funds", GasWanted: 100, GasUsed: 20}},
			ValidatorUpdates: []abci.ValidatorUpdate{valUpdate},
			AppHash:          hash,
		}))},
	}
	out := map[string]any{
		"cometbft_version": version.TMCoreSemVer,
		"validator_pub_key": hex.EncodeToString(pk.Bytes()),
		"validator_address": hex.EncodeToString(addr),
		"vectors": vs,
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
}
