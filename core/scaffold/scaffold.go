package scaffold

import (
	"errors"
	"fmt"
	"strings"

	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
)

// Bond types: the edge labels of core/smiles and of the molfile reader.
const (
	Single    = smiles.BondSingle
	Double    = smiles.BondDouble
	Triple    = smiles.BondTriple
	Aromatic  = smiles.BondAromatic
	Quadruple = smiles.BondQuadruple
)

// ErrNoElements and ErrNoBonds say a graph is not a molecule that a
// scaffold can be computed of; the errors returned wrap them and then
// say where: `scaffold needs molecules with element symbols as node
// labels: graph 3, node 0 is labelled "5"`.
var (
	ErrNoElements = errors.New("scaffold needs molecules with element symbols as node labels")
	ErrNoBonds    = errors.New("scaffold needs molecules with bond types as edge labels (1 or single, 2 or double, 3 or triple, 4 or aromatic, $ or quadruple)")
)

// notMolecule is ErrNoElements or ErrNoBonds and where the graph fails.
type notMolecule struct {
	err   error
	where string
}

func (e *notMolecule) Error() string { return e.err.Error() + ": " + e.where }
func (e *notMolecule) Unwrap() error { return e.err }

// bondType reads an edge label as a bond type: the symbols of core/smiles
// or the words of a TU README's table (single, double, triple, aromatic).
func bondType(label string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(label)) {
	case Single, "single":
		return Single, true
	case Double, "double":
		return Double, true
	case Triple, "triple":
		return Triple, true
	case Aromatic, "aromatic":
		return Aromatic, true
	case Quadruple, "quadruple":
		return Quadruple, true
	}
	return "", false
}

// elements checks that every node label is an element symbol (or the
// wildcard *), as core/smiles writes them: the SMILES reader itself is
// asked, so the table of elements stays in one place.
type elements map[string]bool

func (e elements) check(label string) bool {
	ok, seen := e[label]
	if !seen {
		g, err := smiles.Parse("[" + label + "]")
		ok = err == nil && g.N == 1 && g.NodeLabels[0] == label
		e[label] = ok
	}
	return ok
}

// molecule is a graph read as a molecule: elements, bonds and rings.
type molecule struct {
	n      int
	labels []string
	edges  [][2]int
	bonds  []string // bond types, normalised (see normalise)
	ring   []bool   // ring[i]: edge i is on a cycle
	adj    [][]int  // edge indices at each atom
}

func read(g *graph.Graph, known elements) (*molecule, error) {
	if g.NodeLabels == nil && g.N > 0 {
		return nil, &notMolecule{ErrNoElements, "the graph has no node labels"}
	}
	for v, l := range g.NodeLabels {
		if !known.check(l) {
			return nil, &notMolecule{ErrNoElements, fmt.Sprintf("node %d is labelled %q", v, l)}
		}
	}
	if g.EdgeLabels == nil && len(g.Edges) > 0 {
		return nil, &notMolecule{ErrNoBonds, "the graph has no edge labels"}
	}
	m := &molecule{n: g.N, labels: g.NodeLabels, edges: make([][2]int, len(g.Edges)), bonds: make([]string, len(g.Edges)), adj: make([][]int, g.N)}
	for i, e := range g.Edges {
		b, ok := bondType(g.EdgeLabels[i])
		if !ok {
			return nil, &notMolecule{ErrNoBonds, fmt.Sprintf("edge %d-%d is labelled %q", e.U, e.V, g.EdgeLabels[i])}
		}
		m.edges[i], m.bonds[i] = [2]int{e.U, e.V}, b
		m.adj[e.U] = append(m.adj[e.U], i)
		m.adj[e.V] = append(m.adj[e.V], i)
	}
	m.ring = m.ringBonds()
	m.normalise()
	return m, nil
}

func (m *molecule) other(i, v int) int {
	if e := m.edges[i]; e[0] != v {
		return e[0]
	}
	return m.edges[i][1]
}

// ringBonds finds the edges on cycles: those that are not bridges
// (Tarjan's low-link, iteratively, so that long chains cannot overflow
// the stack).
func (m *molecule) ringBonds() []bool {
	ring := make([]bool, len(m.edges))
	for i := range ring {
		ring[i] = true
	}
	order, low := make([]int, m.n), make([]int, m.n)
	for i := range order {
		order[i] = -1
	}
	type frame struct{ v, via, next int } // atom, edge entered by, next edge to try
	count := 0
	for start := range m.n {
		if order[start] >= 0 {
			continue
		}
		order[start], low[start] = count, count
		count++
		stack := []frame{{start, -1, 0}}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next < len(m.adj[f.v]) {
				i := m.adj[f.v][f.next]
				f.next++
				if i == f.via {
					continue
				}
				w := m.other(i, f.v)
				if order[w] >= 0 {
					low[f.v] = min(low[f.v], order[w])
					continue
				}
				order[w], low[w] = count, count
				count++
				stack = append(stack, frame{w, i, 0})
				continue
			}
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				p := stack[len(stack)-1].v
				low[p] = min(low[p], low[f.v])
				if low[f.v] > order[p] {
					ring[f.via] = false
				}
			}
		}
	}
	return ring
}

// normalise makes the bond types independent of how the molecule was
// written, as RDKit's sanitisation does before it takes a scaffold:
//
//   - an aromatic bond outside rings (c1ccccc1c1ccccc1 written without
//     '-') is single, as RDKit makes it;
//   - ring bonds that alternate between single and double across the
//     Kekulé structures (benzene's, naphthalene's) are aromatic, so that
//     C1=CC=CC=C1 and c1ccccc1 are one scaffold (see alternating).
//
// Rings with a single Kekulé structure that RDKit still calls aromatic
// (pyrrole C1=CNC=C1, furan, thiophene, 2-pyridone) keep their single and
// double bonds: read from aromatic SMILES (c1cc[nH]c1) they are a
// different scaffold than read from Kekulé SMILES. A dataset written one
// way throughout is grouped as RDKit groups it; see the package
// documentation for the cases that differ.
func (m *molecule) normalise() {
	for i, b := range m.bonds {
		if b == Aromatic && !m.ring[i] {
			m.bonds[i] = Single
		}
	}
	// Atoms with one double bond and no other multiple bond can take
	// part in a Kekulé structure.
	multiple := make([]int, m.n)
	for i, b := range m.bonds {
		if b == Double || b == Triple || b == Quadruple {
			multiple[m.edges[i][0]]++
			multiple[m.edges[i][1]]++
		}
	}
	double := make([]bool, len(m.bonds))
	for i, b := range m.bonds {
		double[i] = b == Double && multiple[m.edges[i][0]] == 1 && multiple[m.edges[i][1]] == 1
	}
	for i, alt := range alternating(m.n, m.edges, double, m.ring) {
		if alt {
			m.bonds[i] = Aromatic
		}
	}
}

// murcko returns the atoms of the Bemis-Murcko scaffold as RDKit's
// MurckoDecompose keeps them: ring atoms, the atoms of the linkers
// between rings, and atoms joined to those by a double bond (the O of a
// ring C=O or of a linking sulfonyl).
func (m *molecule) murcko() []bool {
	keep := make([]bool, m.n)
	for i, r := range m.ring {
		if r {
			keep[m.edges[i][0]], keep[m.edges[i][1]] = true, true
		}
	}
	// Strip side chains: an atom off the rings with at most one
	// neighbour left is the end of a chain. What survives off the rings
	// lies on a path between two ring atoms, which is what RDKit keeps
	// by marking the shortest paths between rings: a chain atom (one in
	// no cycle) on one path between two atoms is on every such path.
	gone := make([]bool, m.n)
	degree := make([]int, m.n)
	var queue []int
	for v := range m.n {
		degree[v] = len(m.adj[v])
		if !keep[v] && degree[v] <= 1 {
			queue = append(queue, v)
			gone[v] = true
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, i := range m.adj[v] {
			w := m.other(i, v)
			if degree[w]--; !keep[w] && !gone[w] && degree[w] <= 1 {
				gone[w] = true
				queue = append(queue, w)
			}
		}
	}
	for v := range m.n {
		if !keep[v] && !gone[v] {
			keep[v] = true
		}
	}
	// Atoms double-bonded to the scaffold stay (RDKit: removeIt = false).
	extra := make([]bool, m.n)
	for i, b := range m.bonds {
		u, v := m.edges[i][0], m.edges[i][1]
		if b != Double {
			continue
		}
		if keep[u] && !keep[v] {
			extra[v] = true
		}
		if keep[v] && !keep[u] {
			extra[u] = true
		}
	}
	for v, x := range extra {
		keep[v] = keep[v] || x
	}
	return keep
}

// subgraph is the molecule on the atoms keep, in their order.
func (m *molecule) subgraph(keep []bool) *graph.Graph {
	index := make([]int, m.n)
	var labels []string
	for v, k := range keep {
		index[v] = -1
		if k {
			index[v] = len(labels)
			labels = append(labels, m.labels[v])
		}
	}
	var edges []graph.Edge
	var bonds []string
	for i, e := range m.edges {
		if keep[e[0]] && keep[e[1]] {
			edges = append(edges, graph.Edge{U: index[e[0]], V: index[e[1]]})
			bonds = append(bonds, m.bonds[i])
		}
	}
	if bonds == nil {
		bonds = []string{}
	}
	if labels == nil {
		labels = []string{}
	}
	g, err := graph.New(len(labels), edges, bonds, labels)
	if err != nil {
		panic("scaffold: a subgraph of a graph is not a graph: " + err.Error())
	}
	return g
}

// Of returns the Bemis-Murcko scaffold of the molecule g (Bemis and
// Murcko, J. Med. Chem. 39, 1996), as RDKit's GetScaffoldForMol computes
// it: the ring atoms, the linker atoms on paths between rings, and the
// atoms double-bonded to either, with the bonds among them. Nodes keep
// their order and element labels; edge labels are bond types, normalised
// as described in the package documentation (Kekulé rings that alternate
// become aromatic, aromatic bonds outside rings single). An acyclic
// molecule has the empty scaffold (no nodes).
//
// g's node labels must be element symbols (C, N, Cl, ...) and its edge
// labels bond types ("1", "2", "3", "4", "$", or single, double, triple,
// aromatic, quadruple); otherwise the error wraps ErrNoElements or
// ErrNoBonds.
func Of(g *graph.Graph) (*graph.Graph, error) {
	m, err := read(g, elements{})
	if err != nil {
		return nil, err
	}
	return m.subgraph(m.murcko()), nil
}

// Key returns a canonical key of g's scaffold: two molecules get the same
// key exactly when their scaffolds (Of) are isomorphic with elements and
// bond types, so the key groups molecules as RDKit's MurckoScaffoldSmiles
// does, up to the differences the package documentation lists. An
// acyclic molecule's key is "".
func Key(g *graph.Graph) (string, error) {
	return key(g, elements{})
}

func key(g *graph.Graph, known elements) (string, error) {
	m, err := read(g, known)
	if err != nil {
		return "", err
	}
	return Canonical(m.subgraph(m.murcko()))
}

// Groups gives each molecule of graphs the number of its scaffold's
// group, numbered from 0 in order of first appearance, and returns the
// groups' keys (Key) in that order. All acyclic molecules share the group
// of key "". An error names the first graph that is not a molecule
// ("graph 3, node 0 is labelled ...").
func Groups(graphs []*graph.Graph) (groups []int, keys []string, err error) {
	known := elements{}
	index := map[string]int{}
	groups = make([]int, len(graphs))
	for i, g := range graphs {
		k, err := key(g, known)
		if nm, ok := err.(*notMolecule); ok {
			return nil, nil, &notMolecule{nm.err, fmt.Sprintf("graph %d, %s", i, nm.where)}
		}
		if err != nil {
			return nil, nil, fmt.Errorf("graph %d: %w", i, err)
		}
		id, ok := index[k]
		if !ok {
			id = len(keys)
			index[k] = id
			keys = append(keys, k)
		}
		groups[i] = id
	}
	return groups, keys, nil
}
