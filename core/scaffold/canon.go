package scaffold

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"wkpi-web/core/graph"
)

// No Go library gives canonical forms of labelled graphs: nauty, bliss
// and Traces are C (cgo would not build for WebAssembly), RDKit's and
// CDK's canonical SMILES are C++ and Java, and the pure-Go graph packages
// (gonum's graph among them) offer no canonical labelling. So Canonical
// is written here, after the individualisation-refinement scheme of
// McKay's nauty (McKay and Piperno, "Practical graph isomorphism, II",
// J. Symb. Comput. 60, 2014), kept small for molecular graphs: colour
// refinement to an equitable partition, a search tree that individualises
// each vertex of the first smallest non-singleton cell in turn, and
// pruning by the automorphisms that equal leaves reveal. Every leaf of
// the tree is examined or is the image of an examined one under an
// automorphism, so the smallest leaf certificate is exact: no hash, no
// chance of two different graphs sharing a key.

// ErrTooSymmetric is returned when the canonical search would exceed
// MaxSearchNodes: a guard against graphs far more symmetric than
// molecules, not a limit molecules reach.
var ErrTooSymmetric = errors.New("scaffold: graph too symmetric for a canonical form within the search limit")

// MaxSearchNodes bounds the nodes of the canonical search tree.
const MaxSearchNodes = 1 << 20

// Canonical returns the canonical form of a labelled graph: a string
// that is equal for two graphs exactly when they are isomorphic with
// their node labels and edge labels (nil labels count as empty ones).
// It lists the node labels in canonical order, then each edge as the
// canonical positions of its ends and its label:
//
//	C,C,O|0-1:1,1-2:2
//
// is C-C=O (positions 0, 1, 2; bonds "1" and "2"). The empty graph gives "".
func Canonical(g *graph.Graph) (string, error) {
	if g.N == 0 {
		return "", nil
	}
	c := newCanon(g)
	pos, err := c.search()
	if err != nil {
		return "", err
	}
	at := make([]int, g.N) // at[p] is the node at canonical position p
	for v, p := range pos {
		at[p] = v
	}
	var b strings.Builder
	for p, v := range at {
		if p > 0 {
			b.WriteByte(',')
		}
		b.WriteString(c.nodeLabel(v))
	}
	b.WriteByte('|')
	type edge struct {
		u, v  int
		label string
	}
	edges := make([]edge, len(g.Edges))
	for i, e := range g.Edges {
		u, v := pos[e.U], pos[e.V]
		if u > v {
			u, v = v, u
		}
		edges[i] = edge{u, v, c.edgeLabel(i)}
	}
	slices.SortFunc(edges, func(a, b edge) int { return cmp.Or(cmp.Compare(a.u, b.u), cmp.Compare(a.v, b.v)) })
	for i, e := range edges {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d-%d:%s", e.u, e.v, e.label)
	}
	return b.String(), nil
}

// canon is one canonical search: the graph with its labels ranked.
type canon struct {
	g    *graph.Graph
	adj  [][]arc
	node []int // rank of each node's label among the graph's labels
	// best is the smallest certificate so far and bestPos its labelling;
	// autos are the automorphisms found, as permutations.
	best    []int
	bestPos []int
	autos   [][]int
	nodes   int
	// exhaustive turns pruning off, for the tests' oracle.
	exhaustive bool
}

// arc is a neighbour and the rank of the edge's label.
type arc struct{ to, label int }

func (c *canon) nodeLabel(v int) string {
	if c.g.NodeLabels == nil {
		return ""
	}
	return c.g.NodeLabels[v]
}

func (c *canon) edgeLabel(i int) string {
	if c.g.EdgeLabels == nil {
		return ""
	}
	return c.g.EdgeLabels[i]
}

// ranks numbers the distinct values of labels in sorted order, so that
// the numbers depend on the labels alone, not on node order.
func ranks(labels []string) []int {
	sorted := slices.Clone(labels)
	slices.Sort(sorted)
	sorted = slices.Compact(sorted)
	out := make([]int, len(labels))
	for i, l := range labels {
		out[i], _ = slices.BinarySearch(sorted, l)
	}
	return out
}

func newCanon(g *graph.Graph) *canon {
	c := &canon{g: g, adj: make([][]arc, g.N)}
	nodeLabels := make([]string, g.N)
	for v := range nodeLabels {
		nodeLabels[v] = c.nodeLabel(v)
	}
	c.node = ranks(nodeLabels)
	edgeLabels := make([]string, len(g.Edges))
	for i := range edgeLabels {
		edgeLabels[i] = c.edgeLabel(i)
	}
	er := ranks(edgeLabels)
	for i, e := range g.Edges {
		c.adj[e.U] = append(c.adj[e.U], arc{e.V, er[i]})
		c.adj[e.V] = append(c.adj[e.V], arc{e.U, er[i]})
	}
	return c
}

// A colouring gives every node the start of its cell in an ordered
// partition of 0..n-1: nodes of colour k come after all nodes of
// smaller colours, and a discrete colouring is a labelling.

// initial colours the nodes by label.
func (c *canon) initial() []int {
	order := make([]int, c.g.N)
	for v := range order {
		order[v] = v
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(c.node[a], c.node[b]) })
	col := make([]int, c.g.N)
	for i, v := range order {
		if i > 0 && c.node[v] == c.node[order[i-1]] {
			col[v] = col[order[i-1]]
		} else {
			col[v] = i
		}
	}
	return col
}

// refine splits cells until the colouring is equitable: nodes of one
// colour have, for each edge label and colour, as many neighbours of it.
// Cells split in the order of their nodes' neighbour lists, which depend
// on colours and labels only, so refining commutes with relabelling.
// Each round recolours all cells at once from the previous colours.
func (c *canon) refine(col []int) []int {
	n := c.g.N
	col = slices.Clone(col)
	order := make([]int, n) // nodes by colour: a counting sort
	count := make([]int, n+1)
	for _, k := range col {
		count[k+1]++
	}
	for k := 1; k <= n; k++ {
		count[k] += count[k-1]
	}
	for v, k := range col {
		order[count[k]] = v
		count[k]++
	}
	sig := make([][]int, n)
	next := slices.Clone(col)
	for {
		split := false
		for a := 0; a < n; {
			b := a + 1
			for b < n && col[order[b]] == col[order[a]] {
				b++
			}
			if b-a > 1 {
				split = c.split(order[a:b], col, next, sig) || split
			}
			a = b
		}
		if !split {
			return col
		}
		copy(col, next)
	}
}

// split orders the nodes of one cell by their neighbours' labels and
// colours (under col) and writes their new colours into next; it says
// whether the cell split.
func (c *canon) split(cell, col, next []int, sig [][]int) bool {
	n := len(col)
	for _, v := range cell {
		s := sig[v][:0]
		for _, a := range c.adj[v] {
			s = append(s, a.label*n+col[a.to])
		}
		slices.Sort(s)
		sig[v] = s
	}
	slices.SortFunc(cell, func(a, b int) int { return slices.Compare(sig[a], sig[b]) })
	start := col[cell[0]]
	for i, v := range cell {
		if i > 0 && slices.Equal(sig[v], sig[cell[i-1]]) {
			next[v] = next[cell[i-1]]
		} else {
			next[v] = start + i
		}
	}
	return next[cell[len(cell)-1]] != start
}

// sortPairs sorts s as a list of (label, position) pairs.
func sortPairs(s []int) {
	k := len(s) / 2
	for i := 1; i < k; i++ { // insertion sort: degrees are small
		for j := i; j > 0 && (s[2*j-2] > s[2*j] || (s[2*j-2] == s[2*j] && s[2*j-1] > s[2*j+1])); j-- {
			s[2*j-2], s[2*j], s[2*j-1], s[2*j+1] = s[2*j], s[2*j-2], s[2*j+1], s[2*j-1]
		}
	}
}

// target is the first smallest non-singleton cell, in node order; nil
// when the colouring is discrete.
func target(col []int) []int {
	size := make([]int, len(col))
	for _, k := range col {
		size[k]++
	}
	best := -1
	for k, s := range size {
		if s > 1 && (best < 0 || s < size[best]) {
			best = k
		}
	}
	if best < 0 {
		return nil
	}
	var cell []int
	for v, k := range col {
		if k == best {
			cell = append(cell, v)
		}
	}
	return cell
}

// search runs the canonical search and returns the canonical labelling.
func (c *canon) search() ([]int, error) {
	if err := c.visit(c.refine(c.initial()), nil); err != nil {
		return nil, err
	}
	return c.bestPos, nil
}

func (c *canon) visit(col []int, path []int) error {
	if c.nodes++; c.nodes > MaxSearchNodes {
		return ErrTooSymmetric
	}
	cell := target(col)
	if cell == nil {
		c.leaf(col)
		return nil
	}
	var done []int
	for _, v := range cell {
		if c.equivalent(v, done, path) {
			continue
		}
		child := slices.Clone(col)
		for _, u := range cell {
			if u != v {
				child[u] = col[v] + 1
			}
		}
		if err := c.visit(c.refine(child), append(path, v)); err != nil {
			return err
		}
		done = append(done, v)
	}
	return nil
}

// equivalent says whether v is in the orbit of a node in done under the
// automorphisms found so far that fix every node of path: v's subtree is
// then the image of an examined one, with the same certificates.
func (c *canon) equivalent(v int, done, path []int) bool {
	if len(done) == 0 || c.exhaustive {
		return false
	}
	parent := make([]int, c.g.N)
	for i := range parent {
		parent[i] = i
	}
	find := func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for _, a := range c.autos {
		fixes := true
		for _, p := range path {
			if a[p] != p {
				fixes = false
				break
			}
		}
		if !fixes {
			continue
		}
		for x, y := range a {
			if rx, ry := find(x), find(y); rx != ry {
				parent[rx] = ry
			}
		}
	}
	rv := find(v)
	for _, u := range done {
		if find(u) == rv {
			return true
		}
	}
	return false
}

// leaf compares a discrete colouring's certificate with the best one; an
// equal certificate reveals an automorphism.
func (c *canon) leaf(pos []int) {
	cert := c.certificate(pos)
	switch {
	case c.best == nil || slices.Compare(cert, c.best) < 0:
		c.best, c.bestPos = cert, slices.Clone(pos)
	case slices.Equal(cert, c.best):
		// v and the node at v's position in the best labelling play the
		// same part: v -> that node is an automorphism.
		at := make([]int, c.g.N)
		for v, p := range c.bestPos {
			at[p] = v
		}
		auto := make([]int, c.g.N)
		for v, p := range pos {
			auto[v] = at[p]
		}
		c.autos = append(c.autos, auto)
	}
}

// certificate lists, position by position, the node's label and its
// neighbours' positions and edge labels, sorted: equal certificates are
// equal labelled graphs.
func (c *canon) certificate(pos []int) []int {
	at := make([]int, len(pos))
	for v, p := range pos {
		at[p] = v
	}
	cert := make([]int, 0, len(pos)*2+4*len(c.g.Edges))
	for _, v := range at {
		cert = append(cert, c.node[v], len(c.adj[v]))
		start := len(cert)
		for _, a := range c.adj[v] {
			cert = append(cert, pos[a.to], a.label)
		}
		sortPairs(cert[start:])
	}
	return cert
}
