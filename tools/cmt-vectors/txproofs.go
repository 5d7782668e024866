package main

import (
	"encoding/json"
	"fmt"

	cmtjson "github.com/cometbft/cometbft/libs/json"
	"github.com/cometbft/cometbft/types"
)

// txProofVectors: for 1–7 txs (and uneven sizes), every index's `Txs.Proof(i)` as the RPC
// writes it (libs/json), the block's data hash, and `TxProof.Validate` results for the
// proof and for tampered copies.
func txProofVectors() []map[string]any {
	var out []map[string]any
	sets := map[string]types.Txs{}
	var names []string
	for n := 1; n <= 7; n++ {
		txs := types.Txs{}
		for i := 0; i < n; i++ {
			txs = append(txs, types.Tx(fmt.Sprintf("tx-%d-of-%d", i, n)))
		}
		name := fmt.Sprintf("%d txs", n)
		sets[name] = txs
		names = append(names, name)
	}
	sets["uneven"] = types.Txs{types.Tx{0}, types.Tx("hello"), types.Tx(make([]byte, 300)), types.Tx("x")}
	names = append(names, "uneven")

	for _, name := range names {
		txs := sets[name]
		dataHash := txs.Hash()
		var proofs []json.RawMessage
		var tampered []map[string]any
		for i := range txs {
			p := txs.Proof(i)
			if err := p.Validate(dataHash); err != nil {
				panic(err)
			}
			bz, err := cmtjson.Marshal(p)
			must(err)
			proofs = append(proofs, bz)
			// tampered copies: what Validate says about each
			errOf := func(tp types.TxProof, dh []byte) string {
				if err := tp.Validate(dh); err != nil {
					return err.Error()
				}
				return ""
			}
			wrongRoot := append([]byte{}, dataHash...)
			wrongRoot[0] ^= 1
			otherTx := p
			otherTx.Data = types.Tx("another tx")
			badLeaf := p
			badLeaf.Proof.LeafHash = append([]byte{}, p.Proof.LeafHash...)
			badLeaf.Proof.LeafHash[0] ^= 1
			entry := map[string]any{
				"index":           i,
				"wrong_data_hash": errOf(p, wrongRoot),
				"other_tx":        errOf(otherTx, dataHash),
				"bad_leaf_hash":   errOf(badLeaf, dataHash),
			}
			if len(p.Proof.Aunts) > 0 {
				badAunt := p
				badAunt.Proof.Aunts = append([][]byte{}, p.Proof.Aunts...)
				badAunt.Proof.Aunts[0] = append([]byte{}, p.Proof.Aunts[0]...)
				badAunt.Proof.Aunts[0][0] ^= 1
				entry["bad_aunt"] = errOf(badAunt, dataHash)
				dropAunt := p
				dropAunt.Proof.Aunts = p.Proof.Aunts[:len(p.Proof.Aunts)-1]
				entry["dropped_aunt"] = errOf(dropAunt, dataHash)
			}
			tampered = append(tampered, entry)
		}
		jtxs := []string{}
		for _, tx := range txs {
			jtxs = append(jtxs, hx(tx))
		}
		out = append(out, map[string]any{"name": name, "txs": jtxs, "data_hash": hx(dataHash), "proofs": proofs, "tampered": tampered})
	}
	return out
}
