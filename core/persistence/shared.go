package persistence

import (
	"maps"
	"slices"

	"wkpi-web/core/graph"
)

// sharedOrigins gives the pairs and the essential classes of s, a sweep
// of g with vertex values f and edge values w in direction d, origins
// that do not depend on how the sweep breaks ties: the same for every
// order of tied vertices and edges (see Origin).
//
// The sweep takes the edges of one value, a level, together. Each
// component before the level has a birth value (its elder's) and a
// vertex distribution, where its class is born: a vertex alone is born
// at itself. The level's edges join these components into clusters; in a
// cluster, those with the elder-most birth value are its candidates, any
// of which a tie order could keep. A candidate dies with probability
// (k-1)/k of k, any other component surely, and the cluster's survivor
// is born where its candidates are, evenly (their mean distribution).
// The pairs of a cluster with one birth value are alike to every image,
// so they share one origin: their components' distributions, weighted by
// those probabilities, and the level's edges incident to each of them,
// evenly per component, weighted alike. The shares of every pair sum to
// one, so an explanation stays complete.
//
// Written here because no persistence library names more than one
// simplex per point (GUDHI's persistence pairs are one per point too).
func sharedOrigins(g *graph.Graph, f, w []float64, d direction, s sweepResult) (pairs, elders []Origin) {
	parent := graph.NewDisjointSets(g.N)
	find := parent.Find
	born := make([]map[int]float64, g.N) // per root; nil: the root alone
	dist := func(r int) map[int]float64 {
		if born[r] == nil {
			return map[int]float64{r: 1}
		}
		return born[r]
	}
	value := slices.Clone(f) // per root: its birth value
	elder := func(a, b float64) bool { return a != b && (a < b) == bool(d) }

	// groups[c] are the shared origins of cluster c by birth value;
	// clusterOf[e] is the cluster of edge e's level that e joins, and
	// alone[e] the origin of the pair an edge alone at its level ends.
	var groups []map[float64]Origin
	clusterOf := make([]int, len(w))
	alone := make([]Origin, len(w))
	for lo := 0; lo < len(s.order); {
		hi := lo + 1
		for hi < len(s.order) && w[s.order[hi]] == w[s.order[lo]] {
			hi++
		}
		level := s.order[lo:hi]
		lo = hi
		if len(level) == 1 {
			// One edge, the common case where values are distinct: it
			// ends the younger component, or either of two born alike.
			e := level[0]
			a, b := find(g.Edges[e].U), find(g.Edges[e].V)
			if a == b {
				continue
			}
			if elder(value[b], value[a]) {
				a, b = b, a
			}
			var o Origin
			if value[a] != value[b] {
				if born[b] == nil {
					o.Vertices = []int{b}
				} else {
					o.Vertices, o.VertexShares = weighted(born[b])
				}
			} else {
				mean := map[int]float64{}
				for _, r := range []int{a, b} {
					for v, p := range dist(r) {
						mean[v] += p / 2
					}
				}
				born[a] = mean
				o.Vertices, o.VertexShares = weighted(mean)
			}
			o.Edges = []int{e}
			parent[b] = a
			alone[e] = o
			continue
		}
		// The components each edge joins, before the level.
		ends := make([][2]int, len(level))
		incident := map[int][]int{}
		for k, e := range level {
			a, b := find(g.Edges[e].U), find(g.Edges[e].V)
			ends[k] = [2]int{a, b}
			if a != b {
				incident[a] = append(incident[a], e)
				incident[b] = append(incident[b], e)
			}
		}
		for _, ab := range ends {
			if a, b := find(ab[0]), find(ab[1]); a != b {
				parent[b] = a
			}
		}
		members := map[int][]int{} // cluster root -> its components
		for _, r := range slices.Sorted(maps.Keys(incident)) {
			c := find(r)
			members[c] = append(members[c], r)
		}
		index := map[int]int{}
		for c, rs := range members {
			index[c] = len(groups)
			groups = append(groups, clusterOrigins(rs, value, dist, incident, elder))
			mean, best := candidatesMean(rs, value, dist, elder)
			born[c], value[c] = mean, best
		}
		for k, e := range level {
			if ends[k][0] != ends[k][1] {
				clusterOf[e] = index[find(ends[k][0])]
			}
		}
	}
	pairs = make([]Origin, len(s.pairs))
	for i, p := range s.pairs {
		if e := s.killer[i]; alone[e].Edges != nil {
			pairs[i] = alone[e]
		} else {
			pairs[i] = groups[clusterOf[e]][p.Birth]
		}
	}
	elders = make([]Origin, len(s.elders))
	for i, v := range s.elders {
		elders[i] = Origin{}
		elders[i].Vertices, elders[i].VertexShares = weighted(dist(find(v)))
	}
	return pairs, elders
}

// candidatesMean is the birth distribution and value of the component
// that a cluster of components rs becomes: the mean of its candidates'.
func candidatesMean(rs []int, value []float64, dist func(int) map[int]float64, elder func(a, b float64) bool) (map[int]float64, float64) {
	best := value[rs[0]]
	for _, r := range rs {
		if elder(value[r], best) {
			best = value[r]
		}
	}
	var cands []int
	for _, r := range rs {
		if value[r] == best {
			cands = append(cands, r)
		}
	}
	if len(cands) == 1 {
		return dist(cands[0]), best
	}
	mean := map[int]float64{}
	for _, r := range cands {
		for v, p := range dist(r) {
			mean[v] += p / float64(len(cands))
		}
	}
	return mean, best
}

// clusterOrigins is the origin shared by a cluster's pairs of each birth
// value (see sharedOrigins).
func clusterOrigins(rs []int, value []float64, dist func(int) map[int]float64, incident map[int][]int, elder func(a, b float64) bool) map[float64]Origin {
	best := value[rs[0]]
	for _, r := range rs {
		if elder(value[r], best) {
			best = value[r]
		}
	}
	k := 0
	for _, r := range rs {
		if value[r] == best {
			k++
		}
	}
	type mix struct{ vertices, edges map[int]float64 }
	byValue := map[float64]*mix{}
	for _, r := range rs {
		dies := 1.0
		if value[r] == best {
			dies = float64(k-1) / float64(k)
		}
		if dies == 0 {
			continue
		}
		m := byValue[value[r]]
		if m == nil {
			m = &mix{map[int]float64{}, map[int]float64{}}
			byValue[value[r]] = m
		}
		for v, p := range dist(r) {
			m.vertices[v] += dies * p
		}
		for _, e := range incident[r] {
			m.edges[e] += dies / float64(len(incident[r]))
		}
	}
	out := make(map[float64]Origin, len(byValue))
	for b, m := range byValue {
		var o Origin
		o.Vertices, o.VertexShares = weighted(m.vertices)
		o.Edges, o.EdgeShares = weighted(m.edges)
		out[b] = o
	}
	return out
}

// weighted lists a distribution's members in increasing order with their
// shares (Shares).
func weighted(m map[int]float64) ([]int, []float64) {
	keys := slices.Sorted(maps.Keys(m))
	w := make([]float64, len(keys))
	for i, k := range keys {
		w[i] = m[k]
	}
	return keys, Shares(w)
}

// Shares is weights w normalised to sum to one, as Origin's shares; nil,
// equal parts, when every weight is the same.
func Shares(w []float64) []float64 {
	var sum float64
	equal := true
	for _, x := range w {
		sum += x
		equal = equal && x == w[0]
	}
	if equal {
		return nil
	}
	out := make([]float64, len(w))
	for i, x := range w {
		out[i] = x / sum
	}
	return out
}
