package graph

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
)

// No Go library gives canonical labellings of labelled graphs: nauty,
// bliss and Traces are C (cgo would not build for WebAssembly), RDKit's
// and CDK's canonical atom ranks are C++ and Java, and the pure-Go graph
// packages (gonum's graph among them) offer none. So it is written here,
// after the individualisation-refinement scheme of McKay's nauty (McKay
// and Piperno, "Practical graph isomorphism, II", J. Symb. Comput. 60,
// 2014), kept small for molecular graphs: colour refinement to an
// equitable partition, a search tree that individualises each vertex of
// the first smallest non-singleton cell in turn, and pruning by the
// automorphisms that equal leaves reveal. Every leaf of the tree is
// examined or is the image of an examined one under an automorphism, so
// the smallest leaf certificate is exact: no hash, no chance of two
// different graphs sharing a labelling's form.

// CanonicalLabelling returns a position for every node of g, a
// permutation of 0..N-1 read from g's node labels, node values and edge
// labels (each only when present) and not from how its nodes are
// numbered: two numberings of one graph get labellings that an
// automorphism maps onto each other.
//
// With exact true, g renumbered by the labelling (Renumbered) is one and
// the same labelled graph for every numbering of g: a canonical form.
// When the search would examine more than maxNodes nodes of its tree
// (graphs far more symmetric than molecules), it returns the labelling
// of the tree's first leaf instead, with exact false: still one up to
// automorphism for every numbering whenever the nodes it sets apart
// could be mapped onto each other by automorphisms, as in nearly every
// graph of the datasets; a class of nodes that colour refinement cannot
// split and no automorphism relates is then split by index. The first
// leaf is always reached, whatever maxNodes.
func (g *Graph) CanonicalLabelling(maxNodes int) (pos []int, exact bool) {
	if g.N == 0 {
		return []int{}, true
	}
	c := newCanon(g)
	c.maxNodes = maxNodes
	if !c.visit(c.refine(c.initial()), nil) {
		return c.first, false
	}
	return c.bestPos, true
}

// canon is one canonical search: the graph with its labels ranked.
type canon struct {
	n    int
	adj  [][]arc
	node []int // rank of each node's label (and value) among the graph's
	// first is the first leaf's labelling; best is the smallest
	// certificate so far and bestPos its labelling; autos are the
	// automorphisms found, as permutations.
	first    []int
	best     []int
	bestPos  []int
	autos    [][]int
	nodes    int
	maxNodes int
	// exhaustive turns pruning off, for the tests' oracle.
	exhaustive bool
}

// arc is a neighbour and the rank of the edge's label.
type arc struct{ to, label int }

// ranks numbers the distinct values of keys in sorted order, so that
// the numbers depend on the keys alone, not on node order.
func ranks(keys []string) []int {
	sorted := slices.Compact(slices.Sorted(slices.Values(keys)))
	out := make([]int, len(keys))
	for i, k := range keys {
		out[i], _ = slices.BinarySearch(sorted, k)
	}
	return out
}

func newCanon(g *Graph) *canon {
	c := &canon{n: g.N, adj: make([][]arc, g.N)}
	keys := make([]string, g.N)
	for v := range keys {
		if g.NodeLabels != nil {
			keys[v] = g.NodeLabels[v]
		}
		if g.NodeValues != nil {
			keys[v] += "\x00" + string(binary.BigEndian.AppendUint64(nil, math.Float64bits(g.NodeValues[v]+0))) // +0: -0 becomes 0
		}
	}
	c.node = ranks(keys)
	edgeLabels := make([]string, len(g.Edges))
	for i := range edgeLabels {
		edgeLabels[i] = g.edgeLabel(i)
	}
	er := ranks(edgeLabels)
	for i, e := range g.Edges {
		c.adj[e.U] = append(c.adj[e.U], arc{e.V, er[i]})
		c.adj[e.V] = append(c.adj[e.V], arc{e.U, er[i]})
	}
	return c
}

func (g *Graph) edgeLabel(i int) string {
	if g.EdgeLabels == nil {
		return ""
	}
	return g.EdgeLabels[i]
}

// A colouring gives every node the start of its cell in an ordered
// partition of 0..n-1: nodes of colour k come after all nodes of
// smaller colours, and a discrete colouring is a labelling.

// initial colours the nodes by label.
func (c *canon) initial() []int {
	order := make([]int, c.n)
	for v := range order {
		order[v] = v
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(c.node[a], c.node[b]) })
	col := make([]int, c.n)
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
	n := c.n
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

// visit examines the subtree at colouring col, reached by
// individualising path; it reports false when the search went over
// maxNodes after its first leaf.
func (c *canon) visit(col []int, path []int) bool {
	if c.nodes++; c.nodes > c.maxNodes && c.first != nil {
		return false
	}
	cell := target(col)
	if cell == nil {
		c.leaf(col)
		return true
	}
	if !c.exhaustive && c.twins(cell) {
		// Every permutation of the cell is an automorphism that fixes
		// path, so all its children are alike: set the whole cell apart
		// at once, in node order.
		child := slices.Clone(col)
		for i, v := range cell {
			child[v] = col[v] + i
		}
		return c.visit(c.refine(child), append(path, cell...))
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
		if !c.visit(c.refine(child), append(path, v)) {
			return false
		}
		done = append(done, v)
	}
	return true
}

// twins says whether every permutation of cell (nodes of one colour) is
// an automorphism: they have the same neighbours outside the cell, over
// edges of the same labels, and among themselves no edge or every edge,
// all of one label. A star's leaves and a CF3's fluorines are twins; set
// apart one at a time, a star of k leaves would take a search of k²
// nodes.
func (c *canon) twins(cell []int) bool {
	in := make(map[int]bool, len(cell))
	for _, v := range cell {
		in[v] = true
	}
	outside := func(v int) (out []arc, inner []int) {
		for _, a := range c.adj[v] {
			if in[a.to] {
				inner = append(inner, a.label)
			} else {
				out = append(out, a)
			}
		}
		slices.SortFunc(out, func(a, b arc) int { return cmp.Or(cmp.Compare(a.to, b.to), cmp.Compare(a.label, b.label)) })
		return out, inner
	}
	first, firstInner := outside(cell[0])
	for _, v := range cell {
		out, inner := outside(v)
		if !slices.Equal(out, first) || len(inner) != len(firstInner) || (len(inner) != 0 && len(inner) != len(cell)-1) {
			return false
		}
		for _, l := range inner {
			if l != firstInner[0] {
				return false
			}
		}
	}
	return true
}

// equivalent says whether v is in the orbit of a node in done under the
// automorphisms found so far that fix every node of path: v's subtree is
// then the image of an examined one, with the same certificates.
func (c *canon) equivalent(v int, done, path []int) bool {
	if len(done) == 0 || c.exhaustive {
		return false
	}
	parent := NewDisjointSets(c.n)
	find := parent.Find
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
	if c.first == nil {
		c.first = slices.Clone(pos)
	}
	cert := c.certificate(pos)
	switch {
	case c.best == nil || slices.Compare(cert, c.best) < 0:
		c.best, c.bestPos = cert, slices.Clone(pos)
	case slices.Equal(cert, c.best):
		// v and the node at v's position in the best labelling play the
		// same part: v -> that node is an automorphism.
		at := make([]int, c.n)
		for v, p := range c.bestPos {
			at[p] = v
		}
		auto := make([]int, c.n)
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
	cert := make([]int, 0, 2*c.n)
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
