package persistence

// Origin names the simplices of the graph that make one persistence
// point, so that whatever a point contributes to a prediction can be
// handed back to the graph (core/explain):
//
//   - an Ord0 or Rel1 point (and an essential class of Sublevel0): the
//     vertex at which its component is born, and the edge that merges it
//     into an elder component (none for an essential class);
//   - an Ext0 point: the vertices where f reaches its minimum and its
//     maximum over the component (one vertex when they coincide);
//   - an Ext1 point: the edges of a cycle that carries the class, the
//     edge that closes it in the superlevel sweep first, then the forest
//     path between its ends; the point is born at the cycle's largest
//     value of f and dies at its smallest.
//
// Vertices are node indices and Edges indices into Graph.Edges.
//
// Where values tie, which vertex a class is born at and which edge ends
// it depend on the order a sweep takes the tied ones in, which nothing
// about the graph decides. The 0-dimensional points' origins (Ord0,
// Rel1, Ext0) therefore name every simplex some order would give, with
// shares (see sharedOrigins): such a point may be born at several
// vertices and die at several edges, part by part, up to maxShared of
// each, past which it keeps the sweep's own. Ext1 points keep the one
// cycle of the sweep's order.
type Origin struct {
	Vertices []int `json:"vertices,omitempty"`
	Edges    []int `json:"edges,omitempty"`
	// VertexShares and EdgeShares are each listed vertex's (edge's) part
	// of what the point hands its vertices (edges), in the same order,
	// summing to 1; nil is equal parts.
	VertexShares []float64 `json:"vertexShares,omitempty"`
	EdgeShares   []float64 `json:"edgeShares,omitempty"`
}

// VertexShare is vertex i's (Vertices[i]'s) part of what o's point hands
// its vertices.
func (o Origin) VertexShare(i int) float64 { return share(o.VertexShares, len(o.Vertices), i) }

// EdgeShare is edge i's (Edges[i]'s) part of what o's point hands its
// edges.
func (o Origin) EdgeShare(i int) float64 { return share(o.EdgeShares, len(o.Edges), i) }

func share(shares []float64, n, i int) float64 {
	if shares == nil {
		return 1 / float64(n)
	}
	return shares[i]
}

// Origins holds the Origin of every point of a Diagrams, sub-diagram by
// sub-diagram and in the same order.
type Origins struct {
	Ord0 []Origin `json:"ord0"`
	Rel1 []Origin `json:"rel1"`
	Ext0 []Origin `json:"ext0"`
	Ext1 []Origin `json:"ext1"`
}

// DropZeroOrigins is Diagrams.DropZero that keeps the origins of the
// points it keeps.
func DropZeroOrigins(d Diagrams, o Origins) (Diagrams, Origins) {
	var outD Diagrams
	var outO Origins
	outD.Ord0, outO.Ord0 = dropZero(d.Ord0, o.Ord0)
	outD.Rel1, outO.Rel1 = dropZero(d.Rel1, o.Rel1)
	outD.Ext0, outO.Ext0 = dropZero(d.Ext0, o.Ext0)
	outD.Ext1, outO.Ext1 = dropZero(d.Ext1, o.Ext1)
	return outD, outO
}

func dropZero(ps []Point, os []Origin) ([]Point, []Origin) {
	if len(ps) != len(os) {
		panic("persistence: points and origins differ in number")
	}
	outP, outO := make([]Point, 0, len(ps)), make([]Origin, 0, len(os))
	for i, p := range ps {
		if p.Birth != p.Death {
			outP, outO = append(outP, p), append(outO, os[i])
		}
	}
	return outP, outO
}
