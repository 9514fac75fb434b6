package compare

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"wkpi-web/core/fingerprint"
	"wkpi-web/core/graph"
	"wkpi-web/core/progress"
	"wkpi-web/core/smiles"
)

// ErrNotApplicable marks a method that cannot run on the dataset (ecfp on
// graphs that are not molecules); Run leaves such a method out and names
// it in Result.Skipped.
var ErrNotApplicable = errors.New("does not apply")

// bondNames maps the bond names of TU README tables to bond types.
var bondNames = map[string]string{
	"single": smiles.BondSingle, "double": smiles.BondDouble, "triple": smiles.BondTriple,
	"aromatic": smiles.BondAromatic, "quadruple": smiles.BondQuadruple,
}

// Molecules returns the graphs as molecules with atom chemistry for
// fingerprints. A graph read from SMILES or a molfile is one already. A
// graph whose node labels are element symbols, or codes that nodeNames (a
// TU dataset's README table, tu.NodeLabelNames) turns into them, and
// whose edge labels are bond types ("1" "2" "3" "4"), codes that
// edgeNames turns into bond names (MUTAG: 0 aromatic, 1 single), or
// absent (all single), becomes one: its hydrogens come from RDKit's
// valence model on the heavy-atom graph (TU files have none), charges are
// 0, aromaticity is perceived (smiles.Sanitize). Anything else wraps
// ErrNotApplicable, naming the first graph and label that is not a
// molecule's.
func Molecules(graphs []*graph.Graph, nodeNames, edgeNames map[string]string) ([]*graph.Graph, error) {
	out := make([]*graph.Graph, len(graphs))
	for i, g := range graphs {
		if g.Atoms != nil {
			out[i] = g
			continue
		}
		h := *g
		if g.NodeLabels == nil {
			return nil, fmt.Errorf("%w: graph %d has no node labels, so no elements", ErrNotApplicable, i)
		}
		h.NodeLabels = make([]string, g.N)
		for v, l := range g.NodeLabels {
			if name, ok := nodeNames[l]; ok {
				l = name
			}
			if smiles.AtomicNumber(l) == 0 {
				hint := ""
				if nodeNames == nil {
					hint = " (no table names the node label codes: a TU dataset's README.txt can)"
				}
				return nil, fmt.Errorf("%w: graph %d, node %d: label %q is not an element symbol%s", ErrNotApplicable, i, v, g.NodeLabels[v], hint)
			}
			h.NodeLabels[v] = l
		}
		if g.EdgeLabels != nil {
			h.EdgeLabels = make([]string, len(g.Edges))
			for k, l := range g.EdgeLabels {
				if name, ok := edgeNames[l]; ok {
					l = bondNames[strings.ToLower(name)]
				}
				switch l {
				case smiles.BondSingle, smiles.BondDouble, smiles.BondTriple, smiles.BondAromatic, smiles.BondQuadruple:
				default:
					return nil, fmt.Errorf("%w: graph %d, edge %d-%d: label %q is not a bond type", ErrNotApplicable, i, g.Edges[k].U, g.Edges[k].V, g.EdgeLabels[k])
				}
				h.EdgeLabels[k] = l
			}
		}
		h.Atoms = nil
		smiles.Sanitize(&h)
		out[i] = &h
	}
	return out, nil
}

// ecfpGram is the MinMax (Tanimoto) kernel of the molecules' Morgan
// count fingerprints, radius 2 (ECFP4).
func ecfpGram(ctx context.Context, graphs []*graph.Graph, nodeNames, edgeNames map[string]string, prog progress.Func) ([][]float64, error) {
	mols, err := Molecules(graphs, nodeNames, edgeNames)
	if err != nil {
		return nil, err
	}
	fps := make([]fingerprint.Sparse, len(mols))
	for i, g := range mols {
		if fps[i], err = (fingerprint.Morgan{}).Counts(g); err != nil {
			return nil, fmt.Errorf("graph %d: %w", i, err)
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		prog.Report("fingerprints", i+1, len(mols))
	}
	k := fingerprint.Gram(fps)
	out := make([][]float64, len(fps))
	for i := range out {
		out[i] = make([]float64, len(fps))
		for j := range out[i] {
			out[i][j] = k.At(i, j)
		}
	}
	return out, nil
}
