package jobs

import (
	"wkpi-web/core/graph"
	"wkpi-web/wasm/protocol"
)

// Summarise counts what the Data tab shows about a dataset.
func Summarise(ds *graph.Dataset) *protocol.Summary {
	s := &protocol.Summary{Name: ds.Name, Graphs: len(ds.Graphs), Names: ds.Names}
	counts := make([]int, len(ds.Classes))
	for _, l := range ds.Labels {
		counts[l]++
	}
	for i, c := range ds.Classes {
		s.Classes = append(s.Classes, protocol.Class{Label: c, Count: counts[i]})
	}
	nodes := make([]int, len(ds.Graphs))
	edges := make([]int, len(ds.Graphs))
	for i, g := range ds.Graphs {
		nodes[i], edges[i] = g.N, len(g.Edges)
		s.NodeLabels = s.NodeLabels || g.NodeLabels != nil
		s.EdgeLabels = s.EdgeLabels || g.EdgeLabels != nil
		if _, c := g.Components(); c > 1 {
			s.Disconnected++
		}
		deg := make([]int, g.N)
		for _, e := range g.Edges {
			deg[e.U]++
			deg[e.V]++
		}
		for _, d := range deg {
			if d == 0 {
				s.IsolatedNodes++
			}
		}
	}
	s.Nodes, s.Edges = stats(nodes), stats(edges)
	return s
}

func stats(v []int) protocol.Stats {
	if len(v) == 0 {
		return protocol.Stats{}
	}
	s := protocol.Stats{Min: v[0], Max: v[0]}
	for _, x := range v {
		s.Total += x
		s.Min = min(s.Min, x)
		s.Max = max(s.Max, x)
	}
	s.Mean = float64(s.Total) / float64(len(v))
	return s
}
