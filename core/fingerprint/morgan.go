package fingerprint

import (
	"errors"
	"slices"
	"sort"

	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
)

// ErrNoChemistry reports a graph that is not a molecule: its nodes carry
// no element symbols and atom chemistry (graph.Graph.Atoms), as TU,
// GraphML and edge-list graphs do not.
var ErrNoChemistry = errors.New("not a molecule: the graph has no element symbols and atom chemistry (read it from SMILES or a molfile, or translate a TU dataset's label codes)")

// Morgan computes Morgan (ECFP) fingerprints as RDKit's default Morgan
// generator does.
type Morgan struct {
	// Radius is the largest environment radius; 0 means the default 2
	// (ECFP4, diameter 4).
	Radius int
}

// Env is one atom environment: the atom at its centre, its radius and
// its identifier.
type Env struct {
	Atom, Radius int
	ID           uint32
}

func (m Morgan) radius() int {
	if m.Radius <= 0 {
		return 2
	}
	return m.Radius
}

// Environments lists the environments of a molecule: every atom at
// radius 0, then for each radius 1..R those whose bond set no
// environment of a smaller radius, nor one earlier in RDKit's order at
// the same radius, already has.
func (m Morgan) Environments(g *graph.Graph) ([]Env, error) {
	if g.Atoms == nil || g.NodeLabels == nil || len(g.Atoms) != g.N {
		return nil, ErrNoChemistry
	}
	_, bondTypes := smiles.Sanitized(g)
	inRing := smiles.InRing(g)
	n, nb := g.N, len(g.Edges)
	z := make([]int, n)
	for i, l := range g.NodeLabels {
		z[i] = smiles.AtomicNumber(l)
	}
	type incident struct{ bond, other int }
	adj := make([][]incident, n)
	for k, e := range g.Edges {
		adj[e.U] = append(adj[e.U], incident{k, e.V})
		adj[e.V] = append(adj[e.V], incident{k, e.U})
	}
	cur := make([]uint32, n)
	for i, a := range g.Atoms {
		hs := a.Hydrogens
		for _, in := range adj[i] {
			if z[in.other] == 1 {
				hs++ // RDKit counts hydrogen neighbours too
			}
		}
		comp := []uint32{uint32(z[i]), uint32(len(adj[i]) + a.Hydrogens), uint32(hs), uint32(int32(a.Charge)), uint32(int32(deltaMass(z[i], a.Isotope)))}
		if inRing[i] {
			comp = append(comp, 1)
		}
		var h uint32
		for _, c := range comp {
			h = combine(h, c)
		}
		cur[i] = h
	}
	bondInv := make([]int32, nb)
	for k, t := range bondTypes {
		bondInv[k] = rdkitBondType(t)
	}

	envs := make([]Env, 0, n*(m.radius()+1))
	for i := range n {
		envs = append(envs, Env{Atom: i, Radius: 0, ID: cur[i]})
	}
	words := (nb + 63) / 64
	nbhd := make([][]uint64, n)
	for i := range nbhd {
		nbhd[i] = make([]uint64, words)
	}
	var seen [][]uint64 // bond sets of the environments kept
	dead := make([]bool, n)
	for layer := range m.radius() {
		next := make([]uint32, n) // a dead atom's invariant becomes 0, as in RDKit
		round := make([][]uint64, n)
		type cand struct {
			bits []uint64
			id   uint32
			atom int
		}
		var cands []cand
		for i := range n {
			round[i] = nbhd[i]
			if dead[i] {
				continue
			}
			if len(adj[i]) == 0 {
				dead[i] = true
				continue
			}
			bits := slices.Clone(nbhd[i])
			type pair struct {
				bond  int32
				other uint32
			}
			pairs := make([]pair, 0, len(adj[i]))
			for _, in := range adj[i] {
				bits[in.bond/64] |= 1 << (in.bond % 64)
				for w := range bits {
					bits[w] |= nbhd[in.other][w]
				}
				pairs = append(pairs, pair{bondInv[in.bond], cur[in.other]})
			}
			sort.Slice(pairs, func(a, b int) bool {
				if pairs[a].bond != pairs[b].bond {
					return pairs[a].bond < pairs[b].bond
				}
				return pairs[a].other < pairs[b].other
			})
			inv := combine(uint32(layer), cur[i])
			for _, p := range pairs {
				inv = combine(inv, combine(combine(0, uint32(p.bond)), p.other))
			}
			next[i] = inv
			round[i] = bits
			cands = append(cands, cand{bits, inv, i})
			if containsSet(seen, bits) {
				dead[i] = true
			}
		}
		// Among equal bond sets the smallest identifier, then the lowest
		// atom, comes first and is kept (RDKit sorts them so).
		sort.SliceStable(cands, func(a, b int) bool {
			if c := compareBits(cands[a].bits, cands[b].bits); c != 0 {
				return c < 0
			}
			if cands[a].id != cands[b].id {
				return cands[a].id < cands[b].id
			}
			return cands[a].atom < cands[b].atom
		})
		for _, c := range cands {
			if containsSet(seen, c.bits) {
				dead[c.atom] = true
				continue
			}
			envs = append(envs, Env{Atom: c.atom, Radius: layer + 1, ID: c.id})
			seen = append(seen, c.bits)
		}
		cur, nbhd = next, round
	}
	return envs, nil
}

// Counts is the molecule's sparse count fingerprint: how often each
// environment identifier occurs.
func (m Morgan) Counts(g *graph.Graph) (Sparse, error) {
	envs, err := m.Environments(g)
	if err != nil {
		return Sparse{}, err
	}
	counts := map[uint32]int{}
	for _, e := range envs {
		counts[e.ID]++
	}
	return newSparse(counts), nil
}

// combine is boost's hash_combine on 32-bit seeds, RDKit's hash for
// invariants (an integer hashes to itself).
func combine(seed, v uint32) uint32 {
	return seed ^ (v + 0x9e3779b9 + (seed << 6) + (seed >> 2))
}

// rdkitBondType is RDKit's Bond::BondType number of a sanitised bond type.
func rdkitBondType(t string) int32 {
	switch t {
	case smiles.BondSingle:
		return 1
	case smiles.BondDouble:
		return 2
	case smiles.BondTriple:
		return 3
	case smiles.BondQuadruple:
		return 4
	case smiles.BondAromatic:
		return 12
	}
	return 0 // unspecified (molfile query bonds)
}

func containsSet(sets [][]uint64, bits []uint64) bool {
	for _, s := range sets {
		if slices.Equal(s, bits) {
			return true
		}
	}
	return false
}

func compareBits(a, b []uint64) int {
	for w := len(a) - 1; w >= 0; w-- {
		if a[w] != b[w] {
			if a[w] < b[w] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// deltaMass is RDKit's mass invariant: the isotope's mass minus the
// element's standard atomic weight, truncated; 0 without an isotope.
func deltaMass(z, isotope int) int {
	if isotope == 0 || z <= 0 || z >= len(atomicWeight) {
		return 0
	}
	return int(isotopeMass(z, isotope) - atomicWeight[z])
}

// isotopeMass is the exact mass of common isotopes, else the mass number
// (off by less than 0.1 u, which the truncation rarely notices).
func isotopeMass(z, a int) float64 {
	if m, ok := isotopeMasses[[2]int{z, a}]; ok {
		return m
	}
	return float64(a)
}

var isotopeMasses = map[[2]int]float64{
	{1, 2}: 2.014101778, {1, 3}: 3.016049278, {6, 11}: 11.0114336, {6, 13}: 13.00335484, {6, 14}: 14.00324199,
	{7, 15}: 15.0001089, {8, 17}: 16.99913170, {8, 18}: 17.999161, {9, 18}: 18.000938,
	{15, 32}: 31.97390727, {16, 35}: 34.96903216, {53, 123}: 122.905589, {53, 125}: 124.9046302, {53, 131}: 130.9061246,
}
