package graphfile

import (
	"fmt"
	"strings"

	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
)

// Molfile writes a molecule as an MDL molfile (V2000) that ReadFile reads
// back as the same graph: node labels are element symbols, edge labels
// bond types (smiles.BondSingle to smiles.BondAromatic), and the charges
// and isotopes of g.Atoms follow in M  CHG and M  ISO lines; a graph
// without Atoms (a TU dataset's) gets a nitro group's charges
// (smiles.Charged), which its file would have. A molecule whose
// chemistry RDKit refuses (smiles.Check) is written, but not read back. Atom i is node i. Every coordinate is 0: a drawing lays the
// molecule out. It is an error when g is not such a molecule or is too
// big for V2000 (999 atoms or bonds).
func Molfile(title string, g *graph.Graph) (string, error) {
	if g.N > 999 || len(g.Edges) > 999 {
		return "", fmt.Errorf("%d atoms and %d bonds: a V2000 molfile holds at most 999 of each", g.N, len(g.Edges))
	}
	if len(g.NodeLabels) != g.N || len(g.EdgeLabels) != len(g.Edges) {
		return "", fmt.Errorf("not a molecule: the graph has no element symbols or no bond types")
	}
	var b strings.Builder
	// Header: title, program line, comment; then the counts line.
	fmt.Fprintf(&b, "%s\n  wkpi\n\n%3d%3d  0  0  0  0  0  0  0  0999 V2000\n", strings.ReplaceAll(title, "\n", " "), g.N, len(g.Edges))
	for v, l := range g.NodeLabels {
		if !isSymbol(l) {
			return "", fmt.Errorf("not a molecule: node %d is labelled %q, not an element symbol", v, l)
		}
		fmt.Fprintf(&b, "%10.4f%10.4f%10.4f %-3s 0  0  0  0  0  0  0  0  0  0  0  0\n", 0.0, 0.0, 0.0, l)
	}
	for i, e := range g.Edges {
		switch t := g.EdgeLabels[i]; t {
		case smiles.BondSingle, smiles.BondDouble, smiles.BondTriple, smiles.BondAromatic:
			fmt.Fprintf(&b, "%3d%3d%3s  0\n", e.U+1, e.V+1, t)
		default:
			return "", fmt.Errorf("not a molecule: edge %d-%d is labelled %q, not a molfile bond type", e.U, e.V, t)
		}
	}
	var charges, isotopes [][2]int
	for v, a := range smiles.Charged(g).Atoms {
		if a.Charge != 0 {
			charges = append(charges, [2]int{v + 1, a.Charge})
		}
		if a.Isotope != 0 {
			isotopes = append(isotopes, [2]int{v + 1, a.Isotope})
		}
	}
	properties(&b, "CHG", charges)
	properties(&b, "ISO", isotopes)
	b.WriteString("M  END\n")
	return b.String(), nil
}

// properties writes atom properties as M  key lines of at most 8 pairs.
func properties(b *strings.Builder, key string, pairs [][2]int) {
	for len(pairs) > 0 {
		n := min(len(pairs), 8)
		fmt.Fprintf(b, "M  %s%3d", key, n)
		for _, p := range pairs[:n] {
			fmt.Fprintf(b, " %3d %3d", p[0], p[1])
		}
		b.WriteString("\n")
		pairs = pairs[n:]
	}
}
