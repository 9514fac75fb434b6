package smiles

import (
	"math"
	"slices"
	"sort"

	"wkpi-web/core/graph"
)

// Sanitize fills g.Atoms as RDKit's default reading of a molfile does:
// every atom gets the implicit hydrogens of the valence model on top of
// its bonds (hydrogens written as nodes count as bonds), and aromaticity
// is perceived. g.Atoms, if present, supplies the charges and isotopes;
// if nil it is made with charge 0. Node labels must be element symbols;
// other labels count as the wildcard.
func Sanitize(g *graph.Graph) {
	if g.Atoms == nil {
		g.Atoms = make([]graph.Atom, g.N)
	}
	fixed := make([]int, g.N)
	for i := range fixed {
		fixed[i] = -1
	}
	sanitize(g, fixed, nil, nil)
}

// sanitize completes g.Atoms: the charges after RDKit's clean-up, the
// hydrogens (fixed[i] >= 0 is a written count, -1 asks for the implicit
// ones; removed[i] hydrogens were atoms bonded to i that are no nodes),
// and the aromaticity. lowercase marks atoms written aromatic (nil: those
// with an aromatic bond).
func sanitize(g *graph.Graph, fixed, removed []int, lowercase []bool) {
	m := newMolecule(g)
	if lowercase != nil {
		m.written = lowercase
	}
	for i := range g.Atoms {
		r := 0
		if removed != nil {
			r = removed[i]
		}
		h := fixed[i]
		if h < 0 {
			h = implicitHydrogens(m.z[i], m.charge[i], m.bondSum(i)+float64(r), m.written[i])
		}
		m.hs[i] = h + r
		g.Atoms[i].Charge, g.Atoms[i].Hydrogens = m.charge[i], m.hs[i]
	}
	arom, _ := m.sanitized()
	for i := range g.Atoms {
		g.Atoms[i].Aromatic = arom[i]
	}
}

// Sanitized returns what RDKit's sanitisation makes of a molecule: the
// aromaticity of each atom and the bond type of each edge, BondAromatic
// for a bond of an aromatic ring and otherwise its Kekulé order (aromatic
// bonds as written are kekulised first, then aromaticity is perceived
// afresh, as RDKit does), so that every writing of a molecule gets the
// same. g.Atoms holds the charges and hydrogen counts; a molecule without
// them (a TU dataset's) gets them as GasteigerCharges does.
func Sanitized(g *graph.Graph) (aromatic []bool, bonds []string) {
	return newMolecule(Charged(g)).sanitized()
}

// molecule is a graph with the per-atom facts the valence and
// aromaticity models need.
type molecule struct {
	g       *graph.Graph
	z       []int
	charge  []int
	hs      []int   // hydrogens that are not nodes
	written []bool  // atom has a bond written aromatic
	inc     [][]int // incident edge indices per atom
	order   []float64
	rings   []ring // the smallest set of smallest rings, once sanitized has run
}

func newMolecule(g *graph.Graph) *molecule {
	m := &molecule{
		g: g, z: make([]int, g.N), charge: make([]int, g.N), hs: make([]int, g.N),
		written: make([]bool, g.N), inc: make([][]int, g.N), order: make([]float64, len(g.Edges)),
	}
	for i := range g.N {
		if g.NodeLabels != nil {
			m.z[i] = AtomicNumber(g.NodeLabels[i])
		}
		if g.Atoms != nil {
			m.charge[i], m.hs[i] = g.Atoms[i].Charge, g.Atoms[i].Hydrogens
		}
	}
	for k, e := range g.Edges {
		label := BondSingle
		if g.EdgeLabels != nil {
			label = g.EdgeLabels[k]
		}
		m.order[k] = BondOrder(label)
		if label == BondAromatic {
			m.written[e.U], m.written[e.V] = true, true
		}
		m.inc[e.U] = append(m.inc[e.U], k)
		m.inc[e.V] = append(m.inc[e.V], k)
	}
	m.cleanUp()
	return m
}

// cleanUp is RDKit's clean-up of over-bonded groups before the valence
// model: a neutral five-valent nitrogen gives one double bond to oxygen
// (or a triple bond to nitrogen) as a charge pair, C[N+](=O)[O-] for
// CN(=O)=O and N=[N+]=[N-] for N=N#N; a neutral chlorine, bromine or
// iodine with only oxygen neighbours turns each double bond into a
// single one to [O-], Cl(=O)(=O)(=O)O becoming [Cl+3]([O-])([O-])([O-])O.
// A graph whose charges were already cleaned up (the node charges set,
// the written bonds still double) gets its bonds cleaned the same way.
func (m *molecule) cleanUp() {
	for a := range m.g.N {
		ev := m.explicit(a)
		switch m.z[a] {
		case 7:
			if ev != 5 || (m.charge[a] != 0 && m.charge[a] != 1) {
				continue
			}
			cleaned := m.charge[a] == 1
			for _, k := range m.inc[a] {
				b := m.other(k, a)
				if m.z[b] == 8 && m.order[k] == 2 && (!cleaned || m.charge[b] == -1) ||
					m.z[b] == 7 && m.order[k] == 3 && (!cleaned || m.charge[b] == -1) {
					m.order[k]--
					m.charge[a], m.charge[b] = 1, -1
					break
				}
			}
		case 17, 35, 53:
			if ev != 3 && ev != 5 && ev != 7 {
				continue
			}
			allO := true
			double := 0
			for _, k := range m.inc[a] {
				allO = allO && m.z[m.other(k, a)] == 8
				if m.order[k] == 2 {
					double++
				}
			}
			if !allO || (m.charge[a] != 0 && m.charge[a] != double) {
				continue
			}
			for _, k := range m.inc[a] {
				if m.order[k] == 2 {
					m.order[k] = 1
					m.charge[m.other(k, a)] = -1
				}
			}
			m.charge[a] = double
		}
	}
}

func (m *molecule) other(k, a int) int {
	if e := m.g.Edges[k]; e.U != a {
		return e.U
	}
	return m.g.Edges[k].V
}

// bondSum adds up the bond orders of atom a (aromatic 1.5).
func (m *molecule) bondSum(a int) float64 {
	s := 0.0
	for _, k := range m.inc[a] {
		s += m.order[k]
	}
	return s
}

func (m *molecule) sanitized() ([]bool, []string) {
	m.kekulize()
	ringBond := m.ringBonds()
	m.rings = m.sssr(ringBond)
	atoms, bondArom := m.aromaticity(m.rings, ringBond)
	bonds := make([]string, len(m.g.Edges))
	for k := range bonds {
		if bondArom[k] {
			bonds[k] = BondAromatic
		} else {
			bonds[k] = m.bondLabel(k) // 1.5: written aromatic and not kekulisable
		}
	}
	return atoms, bonds
}

// bondLabel is the bond type of edge k's order (its label as written
// when the order is none of the types').
func (m *molecule) bondLabel(k int) string {
	switch m.order[k] {
	case 1:
		return BondSingle
	case 2:
		return BondDouble
	case 3:
		return BondTriple
	case 4:
		return BondQuadruple
	case 1.5:
		return BondAromatic
	}
	return m.g.EdgeLabels[k]
}

// CleanedBonds returns g's bond types (its edge labels) after RDKit's
// clean-up of over-bonded groups, the bonds as a SMILES or molfile reader
// would have them after sanitisation without perceiving aromaticity
// anew: CN(=O)=O gets the bonds of C[N+](=O)[O-], N=N#N those of
// N=[N+]=[N-], Cl(=O)(=O)(=O)O single bonds to oxygen. Every other bond
// keeps its label. Node labels are element symbols; g.Atoms, when
// present, holds the charges (the readers set them by the same clean-up,
// which then picks the same bonds).
func CleanedBonds(g *graph.Graph) []string {
	m := newMolecule(g)
	bonds := slices.Clone(g.EdgeLabels)
	for k, label := range g.EdgeLabels {
		if m.order[k] != BondOrder(label) {
			bonds[k] = m.bondLabel(k)
		}
	}
	return bonds
}

// kekulize turns bonds written aromatic into single and double bonds: an
// atom whose valence (as RDKit counts an aromatic atom's, hydrogens
// included) exceeds its bonds taken as single needs one double bond, and
// the double bonds are a perfect matching of those atoms over the
// aromatic bonds, found by backtracking. If there is none the bonds stay
// aromatic (RDKit refuses such a molecule).
func (m *molecule) kekulize() {
	n := m.g.N
	need := make([]bool, n)
	any := false
	for a := range n {
		if !m.written[a] {
			continue
		}
		any = true
		single := float64(m.hs[a])
		for _, k := range m.inc[a] {
			single += math.Ceil(m.order[k] - 0.5) // aromatic counts 1
		}
		total := explicitValence(m.z[a], m.charge[a], m.bondSum(a)+float64(m.hs[a]), true)
		need[a] = float64(total)-single == 1
	}
	if !any {
		return
	}
	matched := make([]int, n) // partner edge, or -1
	for i := range matched {
		matched[i] = -1
	}
	budget := 100000 // backtracking steps; real molecules need few
	var solve func() bool
	solve = func() bool {
		// The unmatched atom with the fewest free partners goes first.
		best, bestOpts := -1, 1<<30
		for a := range n {
			if !need[a] || matched[a] >= 0 {
				continue
			}
			opts := 0
			for _, k := range m.inc[a] {
				if b := m.other(k, a); m.order[k] == 1.5 && need[b] && matched[b] < 0 {
					opts++
				}
			}
			if opts < bestOpts {
				best, bestOpts = a, opts
			}
		}
		if best < 0 {
			return true
		}
		if bestOpts == 0 {
			return false
		}
		for _, k := range m.inc[best] {
			b := m.other(k, best)
			if m.order[k] != 1.5 || !need[b] || matched[b] >= 0 {
				continue
			}
			if budget--; budget < 0 {
				return false
			}
			matched[best], matched[b] = k, k
			if solve() {
				return true
			}
			matched[best], matched[b] = -1, -1
		}
		return false
	}
	if !solve() {
		return
	}
	for k := range m.order {
		if m.order[k] == 1.5 {
			m.order[k] = 1
			if e := m.g.Edges[k]; matched[e.U] == k {
				m.order[k] = 2
			}
		}
	}
}

// InRing marks the atoms of g that lie on a cycle, RDKit's ring
// membership (an atom of some ring of the smallest set of smallest rings).
func InRing(g *graph.Graph) []bool {
	m := &molecule{g: g, inc: make([][]int, g.N)}
	for k, e := range g.Edges {
		m.inc[e.U] = append(m.inc[e.U], k)
		m.inc[e.V] = append(m.inc[e.V], k)
	}
	in := make([]bool, g.N)
	for k, r := range m.ringBonds() {
		if r {
			in[g.Edges[k].U], in[g.Edges[k].V] = true, true
		}
	}
	return in
}

// ringBonds marks the bonds that lie on a cycle (not bridges).
func (m *molecule) ringBonds() []bool {
	n := m.g.N
	ring := make([]bool, len(m.g.Edges))
	disc := make([]int, n)
	low := make([]int, n)
	for i := range disc {
		disc[i] = -1
	}
	t := 0
	var dfs func(a, via int)
	dfs = func(a, via int) {
		disc[a], low[a] = t, t
		t++
		for _, k := range m.inc[a] {
			if k == via {
				continue
			}
			b := m.other(k, a)
			if disc[b] < 0 {
				dfs(b, k)
				low[a] = min(low[a], low[b])
				if low[b] <= disc[a] {
					ring[k] = true
				}
			} else {
				low[a] = min(low[a], disc[b])
				ring[k] = true
			}
		}
	}
	for a := range n {
		if disc[a] < 0 {
			dfs(a, -1)
		}
	}
	return ring
}

// ring is a cycle as its atoms and bonds.
type ring struct{ atoms, bonds []int }

// sssr finds a smallest set of smallest rings (a minimum cycle basis) of
// the ring bonds: Horton's candidates (two shortest paths from a root
// and a bond joining their ends), shortest first, kept when independent
// of those kept before (Gaussian elimination over GF(2)).
func (m *molecule) sssr(ringBond []bool) []ring {
	n, nb := m.g.N, len(m.g.Edges)
	rank := 0 // the cycle space's dimension: ring bonds - ring atoms + ring components
	{
		seen := make([]bool, n)
		for k, r := range ringBond {
			if !r {
				continue
			}
			rank++
			for _, a := range [2]int{m.g.Edges[k].U, m.g.Edges[k].V} {
				if !seen[a] {
					seen[a] = true
					rank--
				}
			}
		}
		comp := make([]bool, n)
		for a := range n {
			if !seen[a] || comp[a] {
				continue
			}
			rank++
			stack := []int{a}
			comp[a] = true
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, k := range m.inc[x] {
					if y := m.other(k, x); ringBond[k] && !comp[y] {
						comp[y] = true
						stack = append(stack, y)
					}
				}
			}
		}
	}
	if rank == 0 {
		return nil
	}
	type cand struct {
		bits  []uint64
		atoms []int
		bonds []int
	}
	words := (nb + 63) / 64
	var cands []cand
	dist := make([]int, n)
	on := make([]bool, n) // atoms of the first path
	via := make([]int, n) // the bond to the BFS parent
	for root := range n {
		isRing := false
		for _, k := range m.inc[root] {
			isRing = isRing || ringBond[k]
		}
		if !isRing {
			continue
		}
		for i := range dist {
			dist[i], via[i] = -1, -1
		}
		dist[root] = 0
		queue := []int{root}
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, k := range m.inc[x] {
				if y := m.other(k, x); ringBond[k] && dist[y] < 0 {
					dist[y], via[y] = dist[x]+1, k
					queue = append(queue, y)
				}
			}
		}
		path := func(x int) (atoms, bonds []int) {
			for x != root {
				atoms = append(atoms, x)
				bonds = append(bonds, via[x])
				x = m.other(via[x], x)
			}
			return atoms, bonds
		}
		for k, r := range ringBond {
			if !r || via[m.g.Edges[k].U] == k || via[m.g.Edges[k].V] == k {
				continue
			}
			x, y := m.g.Edges[k].U, m.g.Edges[k].V
			if dist[x] < 0 || dist[y] < 0 {
				continue
			}
			ax, bx := path(x)
			ay, by := path(y)
			// The two paths must meet only at the root.
			for _, a := range ax {
				on[a] = true
			}
			disjoint := true
			for _, a := range ay {
				disjoint = disjoint && !on[a]
			}
			for _, a := range ax {
				on[a] = false
			}
			if !disjoint {
				continue
			}
			c := cand{bits: make([]uint64, words)}
			c.atoms = append(append(append(c.atoms, root), ax...), ay...)
			c.bonds = append(append(append(c.bonds, k), bx...), by...)
			for _, b := range c.bonds {
				c.bits[b/64] |= 1 << (b % 64)
			}
			// A ring found again from another root is dependent on
			// itself and falls out in the elimination.
			cands = append(cands, c)
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return len(cands[i].bonds) < len(cands[j].bonds) })
	var basis [][]uint64 // reduced rows, each with a distinct leading bit
	var lead []int
	var rings []ring
	for _, c := range cands {
		v := append([]uint64(nil), c.bits...)
		for i, row := range basis {
			if v[lead[i]/64]&(1<<(lead[i]%64)) != 0 {
				for w := range v {
					v[w] ^= row[w]
				}
			}
		}
		l := -1
		for b := 0; b < nb; b++ {
			if v[b/64]&(1<<(b%64)) != 0 {
				l = b
				break
			}
		}
		if l < 0 {
			continue
		}
		// Keep the rows reduced: clear the new leading bit elsewhere.
		for i, row := range basis {
			if row[l/64]&(1<<(l%64)) != 0 {
				for w := range row {
					basis[i][w] ^= v[w]
				}
			}
		}
		basis = append(basis, v)
		lead = append(lead, l)
		rings = append(rings, ring{atoms: c.atoms, bonds: c.bonds})
		if len(rings) == rank {
			break
		}
	}
	return rings
}

// Electron donor types of RDKit's aromaticity model.
const (
	donorVacant = iota
	donorOne
	donorTwo
	donorOneOrTwo
	donorAny
	donorNone
)

// maxFusedRingSize bounds the rings that join a fused system (RDKit: a
// bit more than a porphyrin's outer ring); maxFusedRings bounds how many
// rings of a fused system are tried together. maxRingSets bounds the
// ring sets tried in one fused system, which RDKit does not: a system of
// dozens of fused rings that are not aromatic alone would otherwise try
// millions of sets (real molecules try a few hundred at most).
const (
	maxFusedRingSize = 24
	maxFusedRings    = 6
	maxRingSets      = 20000
)

// aromaticity is RDKit's default aromaticity model on the Kekulé
// structure: ring atoms get an electron donor type; rings of candidate
// atoms are checked by Hückel's 4n+2 rule alone, then fused with their
// neighbours (up to six rings at once); the atoms of an aromatic ring
// set become aromatic, and its bonds that lie in one of its rings only.
func (m *molecule) aromaticity(rings []ring, ringBond []bool) (atoms, bonds []bool) {
	n := m.g.N
	atoms = make([]bool, n)
	bonds = make([]bool, len(m.g.Edges))
	donor := make([]int, n)
	cand := make([]bool, n)
	seen := make([]bool, n)
	var cr []ring
	for _, r := range rings {
		all, allDummy := true, true
		for _, a := range r.atoms {
			if m.z[a] != 0 {
				allDummy = false
			}
			if !seen[a] {
				seen[a] = true
				donor[a] = m.donorType(a, ringBond)
				cand[a] = m.candidate(a, donor[a])
			}
			all = all && cand[a]
		}
		if all && !allDummy {
			cr = append(cr, r)
		}
	}
	nr := len(cr)
	neigh := make([][]int, nr)
	for i := range nr {
		if len(cr[i].bonds) > maxFusedRingSize {
			continue
		}
		for j := i + 1; j < nr; j++ {
			if len(cr[j].bonds) > maxFusedRingSize || !shareAny(cr[i].bonds, cr[j].bonds) {
				continue
			}
			neigh[i] = append(neigh[i], j)
			neigh[j] = append(neigh[j], i)
		}
	}
	done := make([]bool, nr)
	for start := range nr {
		if done[start] {
			continue
		}
		var fused []int
		var pick func(r int)
		pick = func(r int) {
			done[r] = true
			fused = append(fused, r)
			for _, o := range neigh[r] {
				if !done[o] {
					pick(o)
				}
			}
		}
		pick(start)
		m.huckelFused(cr, fused, neigh, donor, atoms, bonds)
	}
	return atoms, bonds
}

func shareAny(a, b []int) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// huckelFused tries the rings of one fused system alone, then in
// connected pairs, triples and so on, until every bond is aromatic.
func (m *molecule) huckelFused(cr []ring, fused []int, neigh [][]int, donor []int, atoms, bonds []bool) {
	union := map[int]bool{}
	for _, r := range fused {
		for _, b := range cr[r].bonds {
			union[b] = true
		}
	}
	doneBonds := map[int]bool{}
	nf := len(fused)
	count := make([]int, m.g.N)
	tried := 0
	for size := 1; size <= min(nf, maxFusedRings) && len(doneBonds) < len(union) && tried < maxRingSets; size++ {
		comb := make([]int, size)
		for i := range comb {
			comb[i] = i
		}
		for {
			sub := make([]int, size)
			for i, c := range comb {
				sub[i] = fused[c]
			}
			if connected(sub, neigh) {
				for i := range count {
					count[i] = 0
				}
				for _, r := range sub {
					for _, a := range cr[r].atoms {
						count[a]++
					}
				}
				lo, hi := 0, 0
				for a, c := range count {
					if c == 1 || c == 2 {
						l, h := electrons(donor[a])
						lo += l
						hi += h
					}
				}
				if huckel(lo, hi) {
					bc := map[int]int{}
					for _, r := range sub {
						for _, a := range cr[r].atoms {
							atoms[a] = true
						}
						for _, b := range cr[r].bonds {
							bc[b]++
						}
					}
					for b, c := range bc {
						if c == 1 {
							bonds[b] = true
							doneBonds[b] = true
						}
					}
				}
			}
			if tried++; tried >= maxRingSets || !nextCombination(comb, nf) {
				break
			}
		}
	}
}

// nextCombination steps comb to the next size-k subset of 0..n-1 in
// lexicographic order, reporting false after the last.
func nextCombination(comb []int, n int) bool {
	k := len(comb)
	i := k - 1
	for i >= 0 && comb[i] == n-k+i {
		i--
	}
	if i < 0 {
		return false
	}
	comb[i]++
	for j := i + 1; j < k; j++ {
		comb[j] = comb[j-1] + 1
	}
	return true
}

// connected tells whether the rings sub form one fused system.
func connected(sub []int, neigh [][]int) bool {
	in := map[int]bool{}
	for _, r := range sub {
		in[r] = true
	}
	seen := map[int]bool{sub[0]: true}
	stack := []int{sub[0]}
	for len(stack) > 0 {
		r := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, o := range neigh[r] {
			if in[o] && !seen[o] {
				seen[o] = true
				stack = append(stack, o)
			}
		}
	}
	return len(seen) == len(sub)
}

func electrons(donor int) (lo, hi int) {
	switch donor {
	case donorAny:
		return 0, 2
	case donorOneOrTwo:
		return 1, 2
	case donorOne:
		return 1, 1
	case donorTwo:
		return 2, 2
	}
	return 0, 0
}

// huckel applies the 4n+2 rule to a ring system that can hold lo to hi
// pi electrons (two electrons: the cyclopropenyl cation).
func huckel(lo, hi int) bool {
	if hi >= 6 {
		for e := lo; e <= hi; e++ {
			if (e-2)%4 == 0 {
				return true
			}
		}
		return false
	}
	return hi == 2
}

// degree counts the atom's bonds that have an order (query bonds do not).
func (m *molecule) degree(a int) int {
	d := 0
	for _, k := range m.inc[a] {
		if m.order[k] > 0 {
			d++
		}
	}
	return d
}

// valence is the atom's bond orders (as integers) plus its hydrogens.
func (m *molecule) explicit(a int) int {
	return int(math.Round(m.bondSum(a) + 0.1))
}

// countElectrons is RDKit's count of the electrons atom a can give to a
// pi system, or -1 if it cannot take part (univalent, or more than three
// neighbours counting hydrogens).
func (m *molecule) countElectrons(a int) int {
	dv := defaultValence(m.z[a])
	if dv <= 1 {
		return -1
	}
	deg := m.degree(a) + m.hs[a]
	if deg > 3 {
		return -1
	}
	nlp := max(nOuter(m.z[a])-dv-m.charge[a], 0)
	res := dv - deg + nlp
	if res > 1 && m.explicit(a)-len(m.inc[a]) > 1 {
		res = 1
	}
	return res
}

// exocyclicMultiple returns the partner of a double or triple bond of a
// that lies on no ring, or -1.
func (m *molecule) exocyclicMultiple(a int, ringBond []bool) int {
	for _, k := range m.inc[a] {
		if !ringBond[k] && m.order[k] >= 2 {
			return m.other(k, a)
		}
	}
	return -1
}

func (m *molecule) donorType(a int, ringBond []bool) int {
	if m.z[a] == 0 {
		return donorAny
	}
	nelec := m.countElectrons(a)
	switch {
	case nelec < 0:
		return donorNone
	case nelec == 0:
		if m.exocyclicMultiple(a, ringBond) >= 0 {
			return donorVacant
		}
		for _, k := range m.inc[a] {
			if ringBond[k] && m.order[k] >= 2 {
				return donorOne
			}
		}
		return donorNone
	case nelec == 1:
		if who := m.exocyclicMultiple(a, ringBond); who >= 0 {
			if moreElectronegative(m.z[who], m.z[a]) {
				return donorVacant
			}
			return donorOne
		}
		if m.explicit(a) != m.degree(a) {
			return donorOne
		}
		if m.charge[a] == 1 {
			return donorVacant // tropylium, cyclopropenyl cation
		}
		return donorNone
	}
	if who := m.exocyclicMultiple(a, ringBond); who >= 0 && moreElectronegative(m.z[who], m.z[a]) {
		nelec--
	}
	if nelec%2 == 1 {
		return donorOne
	}
	return donorTwo
}

// candidate is RDKit's isAtomCandForArom: elements up to argon and Se,
// Te; a donor type; no valence above the default of the isoelectronic
// element; at most one double or triple bond.
func (m *molecule) candidate(a, donor int) bool {
	z := m.z[a]
	if z > 18 && z != 34 && z != 52 {
		return false
	}
	if donor == donorNone {
		return false
	}
	if dv := defaultValence(z); dv > 0 && m.explicit(a)+m.hs[a] > defaultValence(z-m.charge[a]) {
		return false
	}
	if m.explicit(a)-len(m.inc[a]) > 1 {
		mult := 0
		for _, k := range m.inc[a] {
			if m.order[k] == 2 || m.order[k] == 3 {
				mult++
			}
		}
		if mult > 1 {
			return false
		}
	}
	return true
}
