package explain

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
	"wkpi-web/core/wire"
)

// Bond types of a molecule, as features.Settings.Molecule writes them.
const (
	single   = "1"
	double   = "2"
	triple   = "3"
	aromatic = "4"
)

// moleculeOf is g as the chemistry-aware descriptors read it, whether or
// not the model has any: elements, and bond types with Kekulé rings
// aromatic (features.Settings.Molecule), with the model's code tables.
func moleculeOf(g *graph.Graph, codes *features.Codes) (*graph.Graph, error) {
	read := features.Settings{Extra: []filtration.Options{{Kind: filtration.KindBonds}}, Codes: codes}
	return read.Molecule(g)
}

// groupScores finds the functional groups of g, read as the molecule
// mol (moleculeOf), and scores them from out's nodes and edges. A graph
// that is no molecule (labels that are neither element symbols nor codes
// the model's tables name; mol nil) has no groups.
func (e *Explainer) groupScores(out *Explanation, g, mol *graph.Graph) {
	if mol == nil {
		return
	}
	var total float64
	for _, n := range out.Nodes {
		total += math.Abs(n.Score)
	}
	if e.opts.Attribution == Simplices {
		for _, ed := range out.Edges {
			total += math.Abs(ed.Score)
		}
	}
	for _, gr := range FindGroups(mol) {
		in := make([]bool, g.N)
		for _, v := range gr.Atoms {
			in[v] = true
			gr.Score += out.Nodes[v].Score
		}
		if e.opts.Attribution == Simplices {
			for _, ed := range out.Edges {
				if in[ed.U] && in[ed.V] {
					gr.Score += ed.Score
				}
			}
		}
		if total > 0 {
			gr.Share = gr.Score / total
		}
		out.Groups = append(out.Groups, gr)
	}
	slices.SortStableFunc(out.Groups, func(a, b wire.GroupScore) int { return cmp.Compare(math.Abs(b.Score), math.Abs(a.Score)) })
}

// FindGroups finds the functional groups of a molecule whose node labels
// are element symbols and edge labels bond types ("1", "2", "3", "4"
// aromatic), as features.Settings.Molecule gives it; their scores are 0.
// Aromaticity is RDKit's (see perceived). The groups, with the atoms each
// holds:
//
//   - nitro: an N with two terminal O, one double-bonded ([N+](=O)[O-]
//     and N(=O)=O alike); the N and those O. With three terminal O
//     (nitric acid, the nitrate ion) a nitrate.
//   - sulfonamide, sulfonic acid, sulfonyl: an S with two double-bonded
//     terminal O; with the N single-bonded to it (sulfonamide), else its
//     single-bonded terminal O (sulfonic acid), else the S and two O.
//   - carboxylic acid, amide, ester, carbonyl: a C that is not aromatic
//     and has no other multiple bond, double-bonded to a terminal O
//     (SMARTS [CX3]=[OX1]); with a single-bonded terminal O it is a
//     carboxylic acid, else with single-bonded N an amide (those N in
//     it), else with a single-bonded O an ester (that O in it), else a
//     carbonyl.
//   - nitrile: a C triple-bonded to an N.
//   - hydroxyl: a terminal O single-bonded to a C, in none of the above.
//   - amine: an N, not aromatic, whose bonds are all single, in none of
//     the above.
//   - thiol: a terminal S single-bonded to a C; thioether: an S with two
//     single bonds, both to C; either in none of the above.
//   - aromatic rings: for each aromatic bond, the shortest cycles through
//     it of aromatic bonds and single bonds between aromatic atoms, each
//     atom set once; a benzene ring when it is six carbons, a pyridine
//     ring when it is five carbons and a nitrogen, else an aromatic ring.
//     Fused rings share atoms.
//   - fluorine, chlorine, bromine, iodine: each such atom.
//
// Groups are listed in that order, atom by atom within each item.
func FindGroups(mol *graph.Graph) []wire.GroupScore {
	m := newMolView(perceived(mol))
	var out []wire.GroupScore
	add := func(name string, atoms ...int) {
		atoms = slices.Clone(atoms)
		slices.Sort(atoms)
		for _, v := range atoms {
			m.used[v] = true
		}
		out = append(out, wire.GroupScore{Name: name, Atoms: atoms})
	}
	for v := range m.n {
		if m.el[v] != "N" {
			continue
		}
		os := m.terminal(v, "O", "")
		if len(os) < 2 || len(m.terminal(v, "O", double)) == 0 {
			continue
		}
		if len(os) == 2 {
			add("nitro", v, os[0], os[1])
		} else {
			add("nitrate", append([]int{v}, os...)...)
		}
	}
	for v := range m.n {
		if m.el[v] != "S" || len(m.terminal(v, "O", double)) < 2 {
			continue
		}
		atoms := append([]int{v}, m.terminal(v, "O", double)...)
		if ns := m.neighbours(v, "N", single); len(ns) > 0 {
			add("sulfonamide", append(atoms, ns...)...)
		} else if os := m.terminal(v, "O", single); len(os) > 0 {
			add("sulfonic acid", append(atoms, os...)...)
		} else {
			add("sulfonyl", atoms...)
		}
	}
	for v := range m.n {
		if m.el[v] != "C" || m.arom[v] || m.multiple(v) != 1 {
			continue
		}
		o := m.terminal(v, "O", double)
		if len(o) != 1 {
			continue
		}
		atoms := []int{v, o[0]}
		if acid := m.terminal(v, "O", single); len(acid) > 0 {
			add("carboxylic acid", append(atoms, acid[0])...)
		} else if ns := m.neighbours(v, "N", single); len(ns) > 0 {
			add("amide", append(atoms, ns...)...)
		} else if os := m.neighbours(v, "O", single); len(os) > 0 {
			add("ester", append(atoms, os[0])...)
		} else {
			add("carbonyl", atoms...)
		}
	}
	for v := range m.n {
		if m.el[v] == "C" {
			for _, w := range m.neighbours(v, "N", triple) {
				add("nitrile", v, w)
			}
		}
	}
	for v := range m.n {
		if m.used[v] {
			continue
		}
		switch m.el[v] {
		case "O":
			if len(m.adj[v]) == 1 && len(m.neighbours(v, "C", single)) == 1 {
				add("hydroxyl", v)
			}
		case "N":
			if m.multiple(v) == 0 && !m.arom[v] {
				add("amine", v)
			}
		case "S":
			cs := m.neighbours(v, "C", single)
			switch {
			case len(m.adj[v]) == 1 && len(cs) == 1:
				add("thiol", v)
			case len(m.adj[v]) == 2 && len(cs) == 2:
				add("thioether", v)
			}
		}
	}
	for _, ring := range m.aromaticRings() {
		name := "aromatic ring"
		if len(ring) == 6 {
			carbons, nitrogens := 0, 0
			for _, v := range ring {
				switch m.el[v] {
				case "C":
					carbons++
				case "N":
					nitrogens++
				}
			}
			switch {
			case carbons == 6:
				name = "benzene ring"
			case carbons == 5 && nitrogens == 1:
				name = "pyridine ring"
			}
		}
		add(name, ring...)
	}
	halogens := map[string]string{"F": "fluorine", "Cl": "chlorine", "Br": "bromine", "I": "iodine"}
	for v := range m.n {
		if name, ok := halogens[m.el[v]]; ok {
			add(name, v)
		}
	}
	return out
}

// perceived is mol with the bond types of RDKit's sanitisation
// (smiles.Sanitized), aromatic bonds where RDKit's aromaticity model puts
// them, so that a ring with an exocyclic C=O (a pyridone, a coumarin) or
// a quinoid benzene is aromatic as chemists' tools say, and which atoms
// are aromatic. Atoms without charges and hydrogen counts (TU graphs)
// get those of the valence model.
func perceived(mol *graph.Graph) (*graph.Graph, []bool) {
	h := *mol
	if h.Atoms == nil {
		smiles.Sanitize(&h)
	}
	arom, bonds := smiles.Sanitized(&h)
	h.EdgeLabels = bonds
	return &h, arom
}

// molView is a molecule's atoms and bonds, for finding its groups.
type molView struct {
	n    int
	el   []string
	arom []bool // RDKit's aromatic atoms
	adj  [][]arc
	used []bool // atoms already in a group of a kind that claims them
}

// arc is a bond seen from one end: the atom at the other end, the bond's
// type and index.
type arc struct {
	to   int
	bond string
	edge int
}

func newMolView(mol *graph.Graph, arom []bool) *molView {
	m := &molView{n: mol.N, el: mol.NodeLabels, arom: arom, adj: make([][]arc, mol.N), used: make([]bool, mol.N)}
	for i, ed := range mol.Edges {
		b := mol.EdgeLabels[i]
		m.adj[ed.U] = append(m.adj[ed.U], arc{ed.V, b, i})
		m.adj[ed.V] = append(m.adj[ed.V], arc{ed.U, b, i})
	}
	return m
}

// neighbours are v's neighbours of element el joined by bond type bond
// ("" for any).
func (m *molView) neighbours(v int, el, bond string) []int {
	var out []int
	for _, a := range m.adj[v] {
		if m.el[a.to] == el && (bond == "" || a.bond == bond) {
			out = append(out, a.to)
		}
	}
	return out
}

// terminal are v's neighbours of element el joined by bond (or any bond)
// that have no other neighbour.
func (m *molView) terminal(v int, el, bond string) []int {
	return slices.DeleteFunc(m.neighbours(v, el, bond), func(w int) bool { return len(m.adj[w]) != 1 })
}

// multiple counts v's double and triple bonds.
func (m *molView) multiple(v int) int {
	k := 0
	for _, a := range m.adj[v] {
		if a.bond == double || a.bond == triple {
			k++
		}
	}
	return k
}

// inRing says whether the bond a from x can lie on an aromatic ring: an
// aromatic bond, or a single bond between aromatic atoms (the bond where
// two rings of an aromatic fused system meet may be single in RDKit's
// model, as in a xanthone; SMARTS c1ccccc1 matches across it).
func (m *molView) inRing(x int, a arc) bool {
	return a.bond == aromatic || (a.bond == single && m.arom[x] && m.arom[a.to])
}

// maxPaths bounds the shortest cycles collected through one bond, a guard
// against graphs far more symmetric than molecules.
const maxPaths = 64

// aromaticRings are, for each aromatic bond, the shortest cycles of
// ring bonds (inRing) through it as sorted atom sets, each once, in the order
// found. Taking every shortest cycle, not one, keeps the rings whose
// bonds all lie on other rings too (the middle ring of coronene).
func (m *molView) aromaticRings() [][]int {
	var rings [][]int
	seen := map[string]bool{}
	dist := make([]int, m.n)
	for v := range m.n {
		for _, a := range m.adj[v] {
			if a.bond != aromatic || a.to < v {
				continue
			}
			// Breadth-first distances from a.to to v without this bond.
			for i := range dist {
				dist[i] = -1
			}
			dist[a.to] = 0
			queue := []int{a.to}
			for len(queue) > 0 && dist[v] < 0 {
				x := queue[0]
				queue = queue[1:]
				for _, b := range m.adj[x] {
					if m.inRing(x, b) && b.edge != a.edge && dist[b.to] < 0 {
						dist[b.to] = dist[x] + 1
						queue = append(queue, b.to)
					}
				}
			}
			if dist[v] < 0 {
				continue
			}
			for _, path := range m.shortestPaths(v, a.edge, dist) {
				slices.Sort(path)
				key := fmt.Sprint(path)
				if !seen[key] {
					seen[key] = true
					rings = append(rings, path)
				}
			}
		}
	}
	return rings
}

// shortestPaths walks back from v to the start (distance 0) along
// ring bonds (inRing) other than skip, each step one closer, and returns the
// atoms of each path found (at most maxPaths).
func (m *molView) shortestPaths(v, skip int, dist []int) [][]int {
	var out [][]int
	var walk func(path []int)
	walk = func(path []int) {
		x := path[len(path)-1]
		if dist[x] == 0 {
			out = append(out, slices.Clone(path))
			return
		}
		for _, b := range m.adj[x] {
			if len(out) < maxPaths && m.inRing(x, b) && b.edge != skip && dist[b.to] == dist[x]-1 {
				walk(append(path, b.to))
			}
		}
	}
	walk([]int{v})
	return out
}
