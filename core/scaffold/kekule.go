package scaffold

// The Kekulé structures of one molecule differ only along alternating
// cycles: rings whose bonds alternate single and double, where swapping
// every bond's order gives another Kekulé structure (benzene's two, or
// naphthalene's three). A bond is on such a cycle exactly when it is
// double in some Kekulé structure and single in another, so marking
// those bonds aromatic makes a graph independent of the Kekulé structure
// it was written in. Which bonds they are is a matching question: the
// double bonds are a perfect matching of their atoms, and a single bond
// (u, v) lies on an alternating cycle exactly when the atoms without u
// and v still have a perfect matching, that is, when the partners of u
// and v can be joined by an augmenting path (Berge's lemma). Fused rings
// with odd cycles (azulene's five-membered ring, a pyrrole fused to a
// benzene) make the graph non-bipartite, so the path is found with
// Edmonds' blossom algorithm (Edmonds, "Paths, trees, and flowers",
// Canad. J. Math. 17, 1965), written here because no pure-Go matching
// library offers it (gonum has bipartite flows only).

// alternating returns which edges of a molecule lie on an alternating
// cycle of its double bonds. double[i] says whether edge i is a double
// bond that can take part (both ends have no other multiple bond), ring[i]
// whether edge i is in a ring (only ring bonds alternate).
func alternating(n int, edges [][2]int, double, ring []bool) []bool {
	partner := make([]int, n) // the atom across an atom's double bond, or -1
	for i := range partner {
		partner[i] = -1
	}
	for i, e := range edges {
		if double[i] && ring[i] {
			partner[e[0]], partner[e[1]] = e[1], e[0]
		}
	}
	// The alternation graph: ring bonds between atoms with a ring double
	// bond. Atoms whose double bond leaves the ring (C=O of a quinone or
	// a pyridone) are fixed and stay out.
	adj := make([][]int, n)
	for i, e := range edges {
		u, v := e[0], e[1]
		if ring[i] && partner[u] >= 0 && partner[v] >= 0 {
			adj[u] = append(adj[u], v)
			adj[v] = append(adj[v], u)
		}
	}
	out := make([]bool, len(edges))
	allowed := make([]bool, n) // atoms with an alternating single bond
	m := newMatcher(adj)
	for i, e := range edges {
		u, v := e[0], e[1]
		if !ring[i] || double[i] || partner[u] < 0 || partner[v] < 0 || partner[u] == v {
			continue
		}
		if m.augmentable(partner, u, v) {
			out[i] = true
			allowed[u], allowed[v] = true, true
		}
	}
	// A double bond is on an alternating cycle when a single bond at
	// either end is: the cycle through that bond continues along it.
	for i, e := range edges {
		if double[i] && ring[i] && partner[e[0]] == e[1] && (allowed[e[0]] || allowed[e[1]]) {
			out[i] = true
		}
	}
	return out
}

// matcher finds augmenting paths in one graph by Edmonds' algorithm.
type matcher struct {
	adj                 [][]int
	match, parent, base []int
	used, blossom, seen []bool
	queue               []int
}

func newMatcher(adj [][]int) *matcher {
	n := len(adj)
	return &matcher{adj: adj, match: make([]int, n), parent: make([]int, n), base: make([]int, n),
		used: make([]bool, n), blossom: make([]bool, n), seen: make([]bool, n)}
}

// augmentable says whether, with the double bonds partner and atoms u and
// v (joined by a single bond) removed, the partners of u and v are joined
// by an augmenting path: whether bond u-v is double in another Kekulé
// structure.
func (m *matcher) augmentable(partner []int, u, v int) bool {
	copy(m.match, partner)
	root, goal := partner[u], partner[v]
	m.match[u], m.match[v], m.match[root], m.match[goal] = -2, -2, -1, -1 // -2: removed
	return m.path(root) == goal
}

// path searches an augmenting path from the exposed atom root and returns
// the exposed atom it reaches, or -1.
func (m *matcher) path(root int) int {
	for i := range m.adj {
		m.used[i], m.parent[i], m.base[i] = false, -1, i
	}
	m.used[root] = true
	m.queue = append(m.queue[:0], root)
	for len(m.queue) > 0 {
		x := m.queue[0]
		m.queue = m.queue[1:]
		for _, y := range m.adj[x] {
			if m.match[y] == -2 || m.base[x] == m.base[y] || m.match[x] == y {
				continue
			}
			if y == root || (m.match[y] >= 0 && m.parent[m.match[y]] != -1) {
				// An odd cycle: contract the blossom into its base.
				b := m.ancestor(x, y)
				for i := range m.blossom {
					m.blossom[i] = false
				}
				m.markPath(x, b, y)
				m.markPath(y, b, x)
				for i := range m.adj {
					if m.blossom[m.base[i]] {
						m.base[i] = b
						if !m.used[i] {
							m.used[i] = true
							m.queue = append(m.queue, i)
						}
					}
				}
			} else if m.parent[y] == -1 {
				m.parent[y] = x
				if m.match[y] == -1 {
					return y
				}
				m.used[m.match[y]] = true
				m.queue = append(m.queue, m.match[y])
			}
		}
	}
	return -1
}

// ancestor is the base of the blossom that the edge x-y closes.
func (m *matcher) ancestor(x, y int) int {
	for i := range m.seen {
		m.seen[i] = false
	}
	for {
		x = m.base[x]
		m.seen[x] = true
		if m.match[x] < 0 {
			break
		}
		x = m.parent[m.match[x]]
	}
	for {
		y = m.base[y]
		if m.seen[y] {
			return y
		}
		y = m.parent[m.match[y]]
	}
}

// markPath marks the blossom's atoms from x down to base b, pointing
// their parents along the cycle through child.
func (m *matcher) markPath(x, b, child int) {
	for m.base[x] != b {
		m.blossom[m.base[x]], m.blossom[m.base[m.match[x]]] = true, true
		m.parent[x] = child
		child = m.match[x]
		x = m.parent[m.match[x]]
	}
}
