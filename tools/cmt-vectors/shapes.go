package main

import (
	"time"

	"github.com/cometbft/cometbft/types"
)

// JSON shapes of the vectors (snake_case, hex bytes).

type jTime struct {
	Seconds int64 `json:"seconds"`
	Nanos   int32 `json:"nanos"`
}

func toJTime(t time.Time) jTime {
	// Same conversion as gogoproto StdTimeMarshal.
	return jTime{Seconds: t.Unix(), Nanos: int32(t.Nanosecond())}
}

type jPSH struct {
	Total uint32 `json:"total"`
	Hash  string `json:"hash"`
}

type jBlockID struct {
	Hash          string `json:"hash"`
	PartSetHeader jPSH   `json:"part_set_header"`
}

func toJBlockID(b types.BlockID) jBlockID {
	return jBlockID{Hash: hx(b.Hash), PartSetHeader: jPSH{Total: b.PartSetHeader.Total, Hash: hx(b.PartSetHeader.Hash)}}
}

type jVersion struct {
	Block uint64 `json:"block"`
	App   uint64 `json:"app"`
}

type jHeader struct {
	Version            jVersion `json:"version"`
	ChainID            string   `json:"chain_id"`
	Height             int64    `json:"height"`
	Time               jTime    `json:"time"`
	LastBlockID        jBlockID `json:"last_block_id"`
	LastCommitHash     string   `json:"last_commit_hash"`
	DataHash           string   `json:"data_hash"`
	ValidatorsHash     string   `json:"validators_hash"`
	NextValidatorsHash string   `json:"next_validators_hash"`
	ConsensusHash      string   `json:"consensus_hash"`
	AppHash            string   `json:"app_hash"`
	LastResultsHash    string   `json:"last_results_hash"`
	EvidenceHash       string   `json:"evidence_hash"`
	ProposerAddress    string   `json:"proposer_address"`
}

func toJHeader(h types.Header) jHeader {
	return jHeader{
		Version: jVersion{Block: h.Version.Block, App: h.Version.App}, ChainID: h.ChainID, Height: h.Height,
		Time: toJTime(h.Time), LastBlockID: toJBlockID(h.LastBlockID),
		LastCommitHash: hx(h.LastCommitHash), DataHash: hx(h.DataHash), ValidatorsHash: hx(h.ValidatorsHash),
		NextValidatorsHash: hx(h.NextValidatorsHash), ConsensusHash: hx(h.ConsensusHash), AppHash: hx(h.AppHash),
		LastResultsHash: hx(h.LastResultsHash), EvidenceHash: hx(h.EvidenceHash), ProposerAddress: hx(h.ProposerAddress),
	}
}

type jCommitSig struct {
	BlockIDFlag      int32  `json:"block_id_flag"`
	ValidatorAddress string `json:"validator_address"`
	Timestamp        jTime  `json:"timestamp"`
	Signature        string `json:"signature"`
}

type jCommit struct {
	Height     int64        `json:"height"`
	Round      int32        `json:"round"`
	BlockID    jBlockID     `json:"block_id"`
	Signatures []jCommitSig `json:"signatures"`
}

func toJCommit(c *types.Commit) *jCommit {
	if c == nil {
		return nil
	}
	out := &jCommit{Height: c.Height, Round: c.Round, BlockID: toJBlockID(c.BlockID), Signatures: []jCommitSig{}}
	for _, s := range c.Signatures {
		out.Signatures = append(out.Signatures, jCommitSig{
			BlockIDFlag: int32(s.BlockIDFlag), ValidatorAddress: hx(s.ValidatorAddress),
			Timestamp: toJTime(s.Timestamp), Signature: hx(s.Signature),
		})
	}
	return out
}

type jValidator struct {
	Address          string `json:"address"`
	PubKey           string `json:"pub_key"`
	VotingPower      int64  `json:"voting_power"`
	ProposerPriority int64  `json:"proposer_priority"`
}

func toJValidator(v *types.Validator) jValidator {
	return jValidator{Address: hx(v.Address), PubKey: hx(v.PubKey.Bytes()), VotingPower: v.VotingPower, ProposerPriority: v.ProposerPriority}
}

// jTx is either an explicit hex tx or a generated one: byte j = (j*31 + seed) & 0xff.
type jTx struct {
	Hex  string `json:"hex,omitempty"`
	Seed *int   `json:"seed,omitempty"`
	Len  int    `json:"len,omitempty"`
}

func genTx(seed, n int) types.Tx {
	b := make([]byte, n)
	for j := range b {
		b[j] = byte((j*31 + seed) & 0xff)
	}
	return b
}
