package persistence

import (
	"cmp"
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
	born := make([]spread, g.N) // per root; empty: the root alone
	value := slices.Clone(f)    // per root: its birth value
	elder := func(a, b float64) bool { return a != b && (a < b) == bool(d) }

	// clusters[c] are the shared origins of cluster c by birth value;
	// clusterOf[e] is the cluster of edge e's level that e joins.
	var clusters [][]group
	clusterOf := make([]int, len(w))
	var incident []componentEdge
	for lo := 0; lo < len(s.order); {
		hi := lo + 1
		for hi < len(s.order) && w[s.order[hi]] == w[s.order[lo]] {
			hi++
		}
		level := s.order[lo:hi]
		lo = hi
		// The components each edge joins, before the level, and the
		// level's edges around each.
		incident = incident[:0]
		for _, e := range level {
			a, b := find(g.Edges[e].U), find(g.Edges[e].V)
			if a != b {
				incident = append(incident, componentEdge{component: a, edge: e}, componentEdge{component: b, edge: e})
			}
		}
		for _, e := range level {
			if a, b := find(g.Edges[e].U), find(g.Edges[e].V); a != b {
				parent[b] = a
			}
		}
		// By cluster, then birth value, then component.
		for k := range incident {
			incident[k].cluster = find(incident[k].component)
		}
		incident = sortedEdges(incident, value)
		for start := 0; start < len(incident); {
			end := start
			for end < len(incident) && incident[end].cluster == incident[start].cluster {
				end++
			}
			c := incident[start].cluster
			groups, survivor, best := cluster(incident[start:end], born, value, elder)
			for _, ce := range incident[start:end] {
				clusterOf[ce.edge] = len(clusters)
			}
			clusters = append(clusters, groups)
			born[c], value[c] = survivor, best
			start = end
		}
	}
	pairs = make([]Origin, len(s.pairs))
	for i, p := range s.pairs {
		e := s.killer[i]
		for _, gr := range clusters[clusterOf[e]] {
			switch {
			case gr.birth != p.Birth:
			case gr.wide:
				pairs[i] = Origin{Vertices: []int{s.born[i]}, Edges: []int{e}}
			default:
				pairs[i] = gr.origin
			}
		}
	}
	elders = make([]Origin, len(s.elders))
	for i, v := range s.elders {
		var at spread
		at.add(born, find(v), 1)
		elders[i].Vertices, elders[i].VertexShares = at.shares()
		if at.wide {
			elders[i].Vertices = []int{v}
		}
	}
	return pairs, elders
}

// sortedEdges is incident sorted by cluster, then birth value, then
// component, then edge. It sorts positions, not the structs: a sort of
// its own for componentEdge would add to the WebAssembly programs.
func sortedEdges(incident []componentEdge, value []float64) []componentEdge {
	order := make([]int, len(incident))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		x, y := incident[i], incident[j]
		return cmp.Or(cmp.Compare(x.cluster, y.cluster), cmp.Compare(value[x.component], value[y.component]), cmp.Compare(x.component, y.component), cmp.Compare(x.edge, y.edge))
	})
	out := make([]componentEdge, len(incident))
	for k, i := range order {
		out[k] = incident[i]
	}
	return out
}

// componentEdge is an edge of a level at one of the components it joins,
// and the cluster the level makes of them.
type componentEdge struct {
	component, edge, cluster int
}

// group is the origin a cluster's pairs of one birth value share.
type group struct {
	birth  float64
	origin Origin
	wide   bool // over maxShared vertices or edges: the sweep's own
}

// cluster gives the shared origins of a cluster's pairs, by birth value,
// and the survivor's spread and birth value (see sharedOrigins). edges
// are the level's edges at each of the cluster's components, sorted by
// birth value, then component.
func cluster(edges []componentEdge, born []spread, value []float64, elder func(a, b float64) bool) ([]group, spread, float64) {
	best := value[edges[0].component]
	for _, ce := range edges {
		if elder(value[ce.component], best) {
			best = value[ce.component]
		}
	}
	// runs[i]: the first entry of each component.
	var runs []int
	k := 0
	for i, ce := range edges {
		if i == 0 || ce.component != edges[i-1].component {
			runs = append(runs, i)
			if value[ce.component] == best {
				k++
			}
		}
	}
	runs = append(runs, len(edges))
	var groups []group
	var survivor spread
	var vertices spread
	var around []componentEdge // edge and its weight, in cluster's place
	var weights []float64
	flush := func(birth float64) {
		if len(vertices.vertices) == 0 && !vertices.wide {
			return
		}
		gr := group{birth: birth, wide: vertices.wide}
		if !gr.wide {
			gr.origin.Vertices, gr.origin.VertexShares = vertices.shares()
			gr.origin.Edges, gr.origin.EdgeShares = mergedEdges(around, weights)
			gr.wide = len(gr.origin.Edges) > maxShared
		}
		groups = append(groups, gr)
		vertices, around, weights = spread{}, nil, nil
	}
	for r := 0; r+1 < len(runs); r++ {
		from, to := runs[r], runs[r+1]
		comp := edges[from].component
		if r > 0 && value[comp] != value[edges[runs[r-1]].component] {
			flush(value[edges[runs[r-1]].component])
		}
		dies := 1.0
		if value[comp] == best {
			dies = float64(k-1) / float64(k)
			survivor.add(born, comp, 1/float64(k))
		}
		if dies == 0 {
			continue
		}
		vertices.add(born, comp, dies)
		for _, ce := range edges[from:to] {
			around = append(around, ce)
			weights = append(weights, dies/float64(to-from))
		}
	}
	flush(value[edges[runs[len(runs)-2]].component])
	return groups, survivor, best
}

// mergedEdges lists the edges of around once each, in increasing order,
// with their summed weights as shares.
func mergedEdges(around []componentEdge, weights []float64) ([]int, []float64) {
	order := make([]int, len(around))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return cmp.Compare(around[x].edge, around[y].edge) })
	var ids []int
	var sum []float64
	for _, i := range order {
		if n := len(ids); n > 0 && ids[n-1] == around[i].edge {
			sum[n-1] += weights[i]
			continue
		}
		ids, sum = append(ids, around[i].edge), append(sum, weights[i])
	}
	return ids, Shares(sum)
}

// spread is where a component's class is born: vertices and their
// weights. A root whose spread is empty is born at itself alone.
type spread struct {
	vertices []int
	weights  []float64
	wide     bool // over maxShared vertices: not listed
}

// maxShared is the most vertices (edges) a point is shared among. A
// point that ties with more, such as the leaves of a social graph's hub,
// keeps the vertex and edge of the sweep's own order: listing them all
// took REDDIT-BINARY's explanations from 216 s and 0.8 GB to 679 s and
// 5.5 GB (explain log).
const maxShared = 64

// add appends root r's spread in born, its weights times scale.
// Components are disjoint, so no vertex is listed twice. Not inlined: its
// appends would be copied into each of its callers, and the WebAssembly
// programs are measured by the byte.
//
//go:noinline
func (s *spread) add(born []spread, r int, scale float64) {
	switch {
	case s.wide:
	case born[r].wide:
		s.wide = true
	case len(born[r].vertices) == 0:
		s.vertices, s.weights = append(s.vertices, r), append(s.weights, scale)
	default:
		for i, v := range born[r].vertices {
			s.vertices, s.weights = append(s.vertices, v), append(s.weights, scale*born[r].weights[i])
		}
	}
	if s.wide || len(s.vertices) > maxShared {
		s.vertices, s.weights, s.wide = nil, nil, true
	}
}

// shares lists the spread's vertices in increasing order with their
// shares (Shares).
func (s spread) shares() ([]int, []float64) {
	order := make([]int, len(s.vertices))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return cmp.Compare(s.vertices[x], s.vertices[y]) })
	ids, w := make([]int, len(order)), make([]float64, len(order))
	for k, i := range order {
		ids[k], w[k] = s.vertices[i], s.weights[i]
	}
	return ids, Shares(w)
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
