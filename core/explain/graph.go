package explain

import (
	"cmp"
	"math"
	"slices"

	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/persistence"
	"wkpi-web/core/scaffold"
	"wkpi-web/core/wire"
)

// toGraph shares the pixels' parts among the persistence points and
// hands the points' parts to g's nodes and edges (see the package doc).
// mol is g as a molecule (moleculeOf), nil when it is none.
func (e *Explainer) toGraph(out *Explanation, g, mol *graph.Graph, ds []persistence.Diagrams, origins []persistence.Origins, pixels []float64) error {
	m := e.m
	s := m.Features
	pts, srcs, err := features.BlockPoints(ds, s)
	if err != nil {
		return err
	}
	names := s.Descriptors()
	size := m.Grid.Rows * m.Grid.Cols
	nodeClass, edgeClass := seen(g, mol, s).SymmetryClasses()
	nodes, edges := newSpread(nodeClass), newSpread(edgeClass)
	for b := range pts {
		k := b / len(s.Channels)
		block := pixels[b*size : (b+1)*size]
		out.Blocks = append(out.Blocks, wire.BlockScore{Descriptor: names[k], Channel: s.Channels[b%len(s.Channels)], Pixels: block})
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
			ps := wire.PointScore{Descriptor: names[k], Diagram: src.Diagram, Index: src.Index, Birth: point.Birth, Death: point.Death, Score: score,
				Vertices: orig.Vertices, VertexShares: orig.VertexShares, EdgeShares: orig.EdgeShares}
			for _, ei := range orig.Edges {
				ps.Edges = append(ps.Edges, [2]int{g.Edges[ei].U, g.Edges[ei].V})
			}
			out.Points = append(out.Points, ps)
			e.share(nodes, edges, g, orig, score)
		}
	}
	slices.SortStableFunc(out.Points, func(a, b wire.PointScore) int { return cmp.Compare(math.Abs(b.Score), math.Abs(a.Score)) })
	nodeScores, edgeScores := nodes.scores(), edges.scores()
	for v, x := range nodeScores {
		out.Nodes = append(out.Nodes, wire.NodeScore{ID: v, Score: x})
	}
	for i, ed := range g.Edges {
		x := edgeScores[i]
		if e.opts.Attribution == Nodes {
			x = nodeScores[ed.U] + nodeScores[ed.V]
		}
		out.Edges = append(out.Edges, wire.EdgeScore{U: ed.U, V: ed.V, Score: x})
	}
	return nil
}

// share hands a point's score to its simplices: with vertices and edges
// (a 0-dimensional point) half to each kind, otherwise all to the kind
// it has, within a kind by the origin's shares; with Nodes an edge's part goes half
// to each end. Each part goes to the simplex's symmetry class (spread).
func (e *Explainer) share(nodes, edges *spread, g *graph.Graph, o persistence.Origin, score float64) {
	toVertices, toEdges := score, score
	if len(o.Vertices) > 0 && len(o.Edges) > 0 {
		toVertices, toEdges = score/2, score/2
	}
	for k, v := range o.Vertices {
		nodes.add(v, toVertices*o.VertexShare(k))
	}
	for k, i := range o.Edges {
		part := toEdges * o.EdgeShare(k)
		if e.opts.Attribution == Nodes {
			nodes.add(g.Edges[i].U, part/2)
			nodes.add(g.Edges[i].V, part/2)
		} else {
			edges.add(i, part)
		}
	}
}

// seen is g as the model reads it, for its symmetry classes: the
// structure, with the node labels when the model has label groups and the
// node values when a descriptor is made of them. A descriptor kind not
// known here to read the structure alone keeps all of g, so that its
// classes are never coarser than what the model can tell apart. mol is g
// as a molecule (moleculeOf).
func seen(g, mol *graph.Graph, s features.Settings) *graph.Graph {
	out := &graph.Graph{N: g.N, Edges: g.Edges}
	if s.Labels != nil {
		out.NodeLabels = g.NodeLabels
	}
	for _, o := range append([]filtration.Options{s.Filtration}, s.Extra...) {
		switch {
		case o.LabelGroup():
			// A group of node labels reads the labels as they are.
			out.NodeLabels = g.NodeLabels
		case !o.Molecular() && (o.Kind == filtration.KindRicci || o.Kind == filtration.KindJaccard || o.Kind == filtration.KindDegree || o.Kind == filtration.KindHKS):
		case o.Kind == filtration.KindGiven:
			out.NodeValues = g.NodeValues
		default:
			// Chemistry-aware descriptors (element groups too) read the
			// molecule: elements and bond types as normalised (a Kekulé
			// ring's bonds alike), and the bonds a resonance form swaps
			// (a nitro group's N=O and N-O) alike, since which one a
			// file writes double is the writer's choice.
			if mol != nil && s.Molecular() {
				return resonant(mol)
			}
			return g
		}
	}
	return out
}

// resonant is mol with the bonds of scaffold.ResonanceBonds labelled
// alike.
func resonant(mol *graph.Graph) *graph.Graph {
	marked := scaffold.ResonanceBonds(mol)
	if !slices.Contains(marked, true) {
		return mol
	}
	out := *mol
	out.EdgeLabels = slices.Clone(mol.EdgeLabels)
	for k, m := range marked {
		if m {
			out.EdgeLabels[k] = resonanceBond
		}
	}
	return &out
}

// resonanceBond labels the bonds a resonance form swaps, for the
// symmetry classes alone.
const resonanceBond = "resonance"

// spread holds the parts given to the nodes (or edges) of a graph by
// symmetry class (graph.Graph.SymmetryClasses), so that each ends up
// spread evenly over its class. Ties in a filtration are broken by index,
// which hands a point to one of several symmetric simplices, and to
// another one when last-bit differences of the descriptor (another
// platform's math.Exp) reorder them; the class is the same either way.
type spread struct {
	class []int     // per node (edge)
	size  []int     // per class, its members
	total []float64 // per class, the parts given to its members
}

func newSpread(class []int) *spread {
	n := 0
	for _, c := range class {
		n = max(n, c+1)
	}
	s := &spread{class: class, size: make([]int, n), total: make([]float64, n)}
	for _, c := range class {
		s.size[c]++
	}
	return s
}

// add gives part to member i.
func (s *spread) add(i int, part float64) { s.total[s.class[i]] += part }

// scores are the members' scores: each class's parts in equal shares.
func (s *spread) scores() []float64 {
	out := make([]float64, len(s.class))
	for i, c := range s.class {
		out[i] = s.total[c] / float64(s.size[c])
	}
	return out
}

// originOf and pointOf look a block point's source up in its descriptor's
// origins and diagrams.
func originOf(o persistence.Origins, src features.Source) persistence.Origin {
	return map[string][]persistence.Origin{"ord0": o.Ord0, "rel1": o.Rel1, "ext0": o.Ext0, "ext1": o.Ext1}[src.Diagram][src.Index]
}

func pointOf(d persistence.Diagrams, src features.Source) persistence.Point {
	return map[string][]persistence.Point{"ord0": d.Ord0, "rel1": d.Rel1, "ext0": d.Ext0, "ext1": d.Ext1}[src.Diagram][src.Index]
}
