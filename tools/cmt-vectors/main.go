// Command cmt-vectors prints CometBFT v0.38 hashing test vectors as JSON.
//
// Everything is deterministic (fixed keys derived from secrets, fixed times),
// so re-running it produces byte-identical output. See README.md.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	abci "github.com/cometbft/cometbft/abci/types"
	"github.com/cometbft/cometbft/crypto/ed25519"
	"github.com/cometbft/cometbft/crypto/merkle"
	"github.com/cometbft/cometbft/crypto/tmhash"
	cmtproto "github.com/cometbft/cometbft/proto/tendermint/types"
	cmtversion "github.com/cometbft/cometbft/proto/tendermint/version"
	"github.com/cometbft/cometbft/types"
	"github.com/cometbft/cometbft/version"
	"github.com/cosmos/gogoproto/proto"
)

const chainID = "test-chain-1"

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func hx(b []byte) string { return hex.EncodeToString(b) }

func sha(b []byte) []byte { s := sha256.Sum256(b); return s[:] }

// ---------------------------------------------------------------- fixtures

type key struct {
	secret string
	priv   ed25519.PrivKey
}

func newKey(secret string) key { return key{secret, ed25519.GenPrivKeyFromSecret([]byte(secret))} }

func (k key) addr() types.Address { return k.priv.PubKey().Address() }

func ts(sec int64, nsec int64) time.Time { return time.Unix(sec, nsec).UTC() }

var keys = []key{newKey("validator-0"), newKey("validator-1"), newKey("validator-2")}

func blockIDOf(seed byte, total uint32) types.BlockID {
	return types.BlockID{Hash: sha([]byte{seed}), PartSetHeader: types.PartSetHeader{Total: total, Hash: sha([]byte{seed, 1})}}
}

// signCommit builds a commit whose signatures are real precommit signatures.
func signCommit(height int64, round int32, bid types.BlockID, flags []types.BlockIDFlag, t0 time.Time) *types.Commit {
	c := &types.Commit{Height: height, Round: round, BlockID: bid}
	for i, f := range flags {
		k := keys[i]
		if f == types.BlockIDFlagAbsent {
			c.Signatures = append(c.Signatures, types.NewCommitSigAbsent())
			continue
		}
		vbid := bid
		if f == types.BlockIDFlagNil {
			vbid = types.BlockID{}
		}
		v := &types.Vote{Type: cmtproto.PrecommitType, Height: height, Round: round, BlockID: vbid,
			Timestamp: t0.Add(time.Duration(i) * 1234567 * time.Nanosecond), ValidatorAddress: k.addr(), ValidatorIndex: int32(i)}
		sig, err := k.priv.Sign(types.VoteSignBytes(chainID, v.ToProto()))
		must(err)
		c.Signatures = append(c.Signatures, types.CommitSig{BlockIDFlag: f, ValidatorAddress: k.addr(), Timestamp: v.Timestamp, Signature: sig})
	}
	return c
}

func marshal(m proto.Message) []byte {
	bz, err := proto.Marshal(m)
	must(err)
	return bz
}

func cmtVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/cometbft/cometbft" {
				return d.Version
			}
		}
	}
	return "unknown"
}

// ---------------------------------------------------------------- main

func main() {
	out := map[string]any{
		"cometbft_version": cmtVersion(),
		"generator":        "tools/cmt-vectors (GOFLAGS=-mod=mod go run .)",
		"chain_id":         chainID,
		"block_part_size":  types.BlockPartSizeBytes,
	}

	// merkle.HashFromByteSlices
	var merkles []map[string]any
	for n := 0; n <= 9; n++ {
		items := [][]byte{}
		hs := []string{}
		for i := 0; i < n; i++ {
			items = append(items, []byte{byte(i), byte(n)})
			hs = append(hs, hx(items[i]))
		}
		merkles = append(merkles, map[string]any{"items": hs, "root": hx(merkle.HashFromByteSlices(items))})
	}
	odd := [][]byte{{}, []byte("hello"), make([]byte, 300)}
	merkles = append(merkles, map[string]any{"items": []string{"", hx(odd[1]), hx(odd[2])}, "root": hx(merkle.HashFromByteSlices(odd))})
	out["merkle"] = merkles

	// types.Txs.Proof / TxProof.Validate (tx and tx_search with prove=true)
	out["tx_proofs"] = txProofVectors()

	// consensus_state / dump_consensus_state of an idle validator between heights
	out["round_states"] = roundStateVectors()

	// keys / addresses
	var jkeys []map[string]any
	for _, k := range keys {
		jkeys = append(jkeys, map[string]any{"secret": k.secret, "pub_key": hx(k.priv.PubKey().Bytes()), "address": hx(k.addr())})
	}
	out["keys"] = jkeys

	// validator sets (NewValidatorSet sorts by power desc, then address asc)
	valSet1 := types.NewValidatorSet([]*types.Validator{types.NewValidator(keys[0].priv.PubKey(), 100)})
	valSet3 := types.NewValidatorSet([]*types.Validator{
		types.NewValidator(keys[0].priv.PubKey(), 10),
		types.NewValidator(keys[1].priv.PubKey(), 30),
		types.NewValidator(keys[2].priv.PubKey(), 30),
	})
	var jsets []map[string]any
	for _, vs := range []*types.ValidatorSet{valSet1, valSet3} {
		var vals []jValidator
		for _, v := range vs.Validators {
			vals = append(vals, toJValidator(v))
		}
		jsets = append(jsets, map[string]any{"validators": vals, "hash": hx(vs.Hash())})
	}
	out["validator_sets"] = jsets

	// consensus params
	var jparams []map[string]any
	p1 := types.DefaultConsensusParams()
	p2 := types.DefaultConsensusParams()
	p2.Block.MaxBytes, p2.Block.MaxGas = 4194304, 100000000
	p2.Evidence.MaxAgeDuration = 172800 * time.Second
	p2.ABCI.VoteExtensionsEnableHeight = 5
	p3 := types.ConsensusParams{}
	for _, p := range []*types.ConsensusParams{p1, p2, &p3} {
		jparams = append(jparams, map[string]any{
			"block":     map[string]any{"max_bytes": p.Block.MaxBytes, "max_gas": p.Block.MaxGas},
			"evidence":  map[string]any{"max_age_num_blocks": p.Evidence.MaxAgeNumBlocks, "max_age_duration": int64(p.Evidence.MaxAgeDuration), "max_bytes": p.Evidence.MaxBytes},
			"validator": map[string]any{"pub_key_types": p.Validator.PubKeyTypes},
			"version":   map[string]any{"app": p.Version.App},
			"abci":      map[string]any{"vote_extensions_enable_height": p.ABCI.VoteExtensionsEnableHeight},
			"hash":      hx(p.Hash()),
		})
	}
	out["consensus_params"] = jparams

	// last results hash
	resultSets := [][]*abci.ExecTxResult{
		{},
		{{Code: 0, Data: []byte("ok"), GasWanted: 200000, GasUsed: 51234, Log: "ignored", Info: "ignored"}},
		{
			{Code: 0, Data: nil, GasWanted: 0, GasUsed: 0},
			{Code: 5, Data: []byte{1, 2, 3}, GasWanted: 100, GasUsed: 100, Codespace: "sdk", Events: []abci.Event{{Type: "x"}}},
			{Code: 4294967295, Data: make([]byte, 200), GasWanted: 1 << 40, GasUsed: -1},
		},
	}
	var jres []map[string]any
	for _, rs := range resultSets {
		var items []map[string]any
		var protos []string
		for _, r := range rs {
			items = append(items, map[string]any{"code": r.Code, "data": hx(r.Data), "gas_wanted": r.GasWanted, "gas_used": r.GasUsed, "log": r.Log, "codespace": r.Codespace})
		}
		for _, r := range types.NewResults(rs) {
			protos = append(protos, hx(marshal(r)))
		}
		jres = append(jres, map[string]any{"results": items, "protos": protos, "hash": hx(types.NewResults(rs).Hash())})
	}
	out["results"] = jres

	// tx hashes
	var jtxs []map[string]any
	for _, tx := range []types.Tx{{}, []byte("abc"), genTx(3, 1000)} {
		jtxs = append(jtxs, map[string]any{"tx": hx(tx), "hash": hx(tx.Hash())})
	}
	out["tx_hashes"] = jtxs

	// commits
	t0 := ts(1700000000, 123456789)
	commits := []*types.Commit{
		{}, // what CometBFT uses as LastCommit at the initial height
		signCommit(1, 0, blockIDOf(1, 1), []types.BlockIDFlag{types.BlockIDFlagCommit}, t0),
		signCommit(7, 2, blockIDOf(7, 3), []types.BlockIDFlag{types.BlockIDFlagCommit, types.BlockIDFlagAbsent, types.BlockIDFlagNil}, t0),
	}
	var jcommits []map[string]any
	for _, c := range commits {
		jcommits = append(jcommits, map[string]any{"commit": toJCommit(c), "proto": hx(marshal(c.ToProto())), "hash": hx(c.Hash())})
	}
	out["commits"] = jcommits

	// headers
	ver := cmtversion.Consensus{Block: version.BlockProtocol, App: 0}
	emptyHash := tmhash.Sum(nil)
	h1 := types.Header{Version: ver, ChainID: chainID, Height: 1, Time: t0, LastBlockID: types.BlockID{},
		LastCommitHash: emptyHash, DataHash: emptyHash, ValidatorsHash: valSet1.Hash(), NextValidatorsHash: valSet1.Hash(),
		ConsensusHash: p1.Hash(), AppHash: nil, LastResultsHash: emptyHash, EvidenceHash: emptyHash, ProposerAddress: keys[0].addr()}
	h2 := h1
	h2.Version.App = 1
	h2.Height = 2
	h2.Time = ts(1700000001, 0)
	h2.LastBlockID = blockIDOf(2, 1)
	h2.LastCommitHash = commits[1].Hash()
	h2.AppHash = sha([]byte("app"))
	h2.LastResultsHash = types.NewResults(resultSets[1]).Hash()
	h3 := h2
	h3.Height = 1<<40 + 7
	h3.ChainID = "x"
	h3.Time = ts(0, 5)
	h3.ValidatorsHash = valSet3.Hash()
	h3.NextValidatorsHash = valSet1.Hash()
	h3.LastBlockID = blockIDOf(3, 300)
	h3.AppHash = []byte{0}
	h3.ProposerAddress = keys[2].addr()
	var jheaders []map[string]any
	for _, h := range []types.Header{h1, h2, h3} {
		jheaders = append(jheaders, map[string]any{"header": toJHeader(h), "proto": hx(marshal(h.ToProto())), "hash": hx(h.Hash())})
	}
	out["headers"] = jheaders

	// blocks
	type blockCase struct {
		name       string
		height     int64
		txs        []jTx
		lastCommit *types.Commit
		header     types.Header
	}
	seed := func(s int) *int { return &s }
	cases := []blockCase{
		{"height1-no-txs", 1, nil, &types.Commit{}, h1},
		{"height1-nil-last-commit", 1, nil, nil, h1},
		{"one-tx", 2, []jTx{{Hex: hx([]byte("hello=world"))}}, commits[1], h2},
		{"three-txs", 2, []jTx{{Hex: "01"}, {Seed: seed(9), Len: 200}, {Hex: hx([]byte("k=v"))}}, commits[1], h2},
		{"large-3-parts", 8, []jTx{{Seed: seed(1), Len: 100000}, {Seed: seed(2), Len: 50000}}, commits[2], h3},
		{"large-2-parts", 8, []jTx{{Seed: seed(5), Len: 65536}}, commits[2], h3},
	}
	var jblocks []map[string]any
	for _, bc := range cases {
		var txs []types.Tx
		for _, t := range bc.txs {
			if t.Seed != nil {
				txs = append(txs, genTx(*t.Seed, t.Len))
			} else {
				b, err := hex.DecodeString(t.Hex)
				must(err)
				txs = append(txs, b)
			}
		}
		b := types.MakeBlock(bc.height, txs, bc.lastCommit, nil)
		h := bc.header
		b.Populate(h.Version, h.ChainID, h.Time, h.LastBlockID, h.ValidatorsHash, h.NextValidatorsHash,
			h.ConsensusHash, h.AppHash, h.LastResultsHash, h.ProposerAddress)
		pbb, err := b.ToProto()
		must(err)
		bz := marshal(pbb)
		ps, err := b.MakePartSet(types.BlockPartSizeBytes)
		must(err)
		// Block.Hash() is nil when LastCommit is nil (an incomplete block).
		bid := types.BlockID{Hash: b.Hash(), PartSetHeader: ps.Header()}
		entry := map[string]any{
			"name": bc.name, "header": toJHeader(b.Header), "txs": bc.txs, "last_commit": toJCommit(bc.lastCommit),
			"data_hash": hx(b.Data.Hash()), "evidence_hash": hx(b.Evidence.Hash()), "last_commit_hash": hx(b.LastCommitHash),
			"header_hash": hx(b.Header.Hash()), "block_len": len(bz), "block_sha256": hx(sha(bz)),
			"block_id": toJBlockID(bid),
		}
		if len(bz) <= 4096 {
			entry["block_proto"] = hx(bz)
		}
		jblocks = append(jblocks, entry)
	}
	out["blocks"] = jblocks

	// votes
	type voteCase struct {
		typ    cmtproto.SignedMsgType
		height int64
		round  int32
		bid    types.BlockID
		t      time.Time
		idx    int32
	}
	vcs := []voteCase{
		{cmtproto.PrecommitType, 2, 0, blockIDOf(2, 1), t0, 0},
		{cmtproto.PrevoteType, 5, 3, blockIDOf(5, 2), ts(1700000100, 999999999), 1},
		{cmtproto.PrecommitType, 7, 1, types.BlockID{}, ts(1700000200, 0), 2},
		{cmtproto.PrevoteType, 1 << 40, 0, blockIDOf(9, 70), ts(1, 1), 0},
	}
	var jvotes []map[string]any
	for _, vc := range vcs {
		k := keys[vc.idx]
		v := &types.Vote{Type: vc.typ, Height: vc.height, Round: vc.round, BlockID: vc.bid, Timestamp: vc.t,
			ValidatorAddress: k.addr(), ValidatorIndex: vc.idx}
		sb := types.VoteSignBytes(chainID, v.ToProto())
		sig, err := k.priv.Sign(sb)
		must(err)
		v.Signature = sig
		must(v.Verify(chainID, k.priv.PubKey()))
		jvotes = append(jvotes, map[string]any{
			"chain_id": chainID,
			"vote": map[string]any{"type": int32(v.Type), "height": v.Height, "round": v.Round, "block_id": toJBlockID(v.BlockID),
				"timestamp": toJTime(v.Timestamp), "validator_address": hx(v.ValidatorAddress), "validator_index": v.ValidatorIndex,
				"signature": hx(v.Signature)},
			"pub_key": hx(k.priv.PubKey().Bytes()), "sign_bytes": hx(sb),
		})
	}
	out["votes"] = jvotes

	// sanity: the signed commits verify against CometBFT's own verifier
	must(valSet1.VerifyCommit(chainID, commits[1].BlockID, 1, commits[1]))

	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
