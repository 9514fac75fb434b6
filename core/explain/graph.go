package explain

import (
	"cmp"
	"math"
	"slices"

	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/persistence"
)

// toGraph shares the pixels' parts among the persistence points and
// hands the points' parts to g's nodes and edges (see the package doc).
func (e *Explainer) toGraph(out *Explanation, g *graph.Graph, ds []persistence.Diagrams, origins []persistence.Origins, pixels []float64) error {
	m := e.m
	s := m.Features
	pts, srcs, err := features.BlockPoints(ds, s)
	if err != nil {
		return err
	}
	names := s.Descriptors()
	size := m.Grid.Rows * m.Grid.Cols
	nodes := make([]float64, g.N)
	edges := make([]float64, len(g.Edges))
	for b := range pts {
		k := b / len(s.Channels)
		block := pixels[b*size : (b+1)*size]
		out.Blocks = append(out.Blocks, BlockScore{Descriptor: names[k], Channel: s.Channels[b%len(s.Channels)], Pixels: block})
		masses, err := m.Grid.Masses(pts[b], s.ImageOptions())
		if err != nil {
			return err
		}
		if len(masses.Index) == 0 {
			continue
		}
		// Each pixel's part per unit of raw mass there.
		perMass := make([]float64, size)
		for px, part := range block {
			if part == 0 {
				continue
			}
			r, c := px/m.Grid.Cols, px%m.Grid.Cols
			var mass float64
			for q := range masses.Index {
				mass += masses.Rows.At(q, r) * masses.Cols.At(q, c)
			}
			if mass > 0 {
				perMass[px] = part / mass
			}
		}
		for q, i := range masses.Index {
			rows, cols := masses.Rows.RawRowView(q), masses.Cols.RawRowView(q)
			var score float64
			for r, mr := range rows {
				if mr == 0 {
					continue
				}
				line := perMass[r*m.Grid.Cols : (r+1)*m.Grid.Cols]
				for c, mc := range cols {
					score += line[c] * mr * mc
				}
			}
			if score == 0 {
				continue
			}
			src := srcs[b][i]
			orig := originOf(origins[k], src)
			p := ds[k]
			point := pointOf(p, src)
			ps := PointScore{Descriptor: names[k], Diagram: src.Diagram, Index: src.Index, Birth: point.Birth, Death: point.Death, Score: score, Vertices: orig.Vertices}
			for _, ei := range orig.Edges {
				ps.Edges = append(ps.Edges, [2]int{g.Edges[ei].U, g.Edges[ei].V})
			}
			out.Points = append(out.Points, ps)
			e.share(nodes, edges, g, orig, score)
		}
	}
	slices.SortStableFunc(out.Points, func(a, b PointScore) int { return cmp.Compare(math.Abs(b.Score), math.Abs(a.Score)) })
	for v, x := range nodes {
		out.Nodes = append(out.Nodes, NodeScore{ID: v, Score: x})
	}
	for i, ed := range g.Edges {
		x := edges[i]
		if e.opts.Attribution == Nodes {
			x = nodes[ed.U] + nodes[ed.V]
		}
		out.Edges = append(out.Edges, EdgeScore{U: ed.U, V: ed.V, Score: x})
	}
	return nil
}

// share hands a point's score to its simplices: with vertices and edges
// (a 0-dimensional point) half to each kind, otherwise all to the kind
// it has, equal parts within a kind; with Nodes an edge's part goes half
// to each end.
func (e *Explainer) share(nodes, edges []float64, g *graph.Graph, o persistence.Origin, score float64) {
	toVertices, toEdges := score, score
	if len(o.Vertices) > 0 && len(o.Edges) > 0 {
		toVertices, toEdges = score/2, score/2
	}
	for _, v := range o.Vertices {
		nodes[v] += toVertices / float64(len(o.Vertices))
	}
	for _, i := range o.Edges {
		part := toEdges / float64(len(o.Edges))
		if e.opts.Attribution == Nodes {
			nodes[g.Edges[i].U] += part / 2
			nodes[g.Edges[i].V] += part / 2
		} else {
			edges[i] += part
		}
	}
}

// originOf and pointOf look a block point's source up in its descriptor's
// origins and diagrams.
func originOf(o persistence.Origins, src features.Source) persistence.Origin {
	return map[string][]persistence.Origin{"ord0": o.Ord0, "rel1": o.Rel1, "ext0": o.Ext0, "ext1": o.Ext1}[src.Diagram][src.Index]
}

func pointOf(d persistence.Diagrams, src features.Source) persistence.Point {
	return map[string][]persistence.Point{"ord0": d.Ord0, "rel1": d.Rel1, "ext0": d.Ext0, "ext1": d.Ext1}[src.Diagram][src.Index]
}
