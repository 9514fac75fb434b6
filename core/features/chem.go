package features

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/persistence"
	"wkpi-web/core/scaffold"
)

// Codes are a dataset's label code tables: a TU README's "Node labels"
// (MUTAG: "0" -> "C") and "Edge labels" ("0" -> "aromatic") tables. A
// graph whose node labels are all integers is read through them before a
// chemistry-aware descriptor sees it; graphs with element symbols (from
// SMILES or SD files) are read as they are, so that a model trained on a
// TU dataset takes both.
type Codes struct {
	Nodes map[string]string `json:"nodes,omitempty"`
	Edges map[string]string `json:"edges,omitempty"`
}

// Molecular says whether any descriptor of s needs molecules: element
// symbols and bond types (filtration.Options.Molecular), as the label
// groups of bonding types do (Labels.Bonding).
func (s Settings) Molecular() bool {
	if s.Labels != nil && s.Labels.Bonding {
		return true
	}
	for _, o := range append([]filtration.Options{s.Filtration}, s.Extra...) {
		if o.Molecular() {
			return true
		}
	}
	return false
}

// Molecule is g as the chemistry-aware descriptors of s read it
// (scaffold.Molecule: element symbols, bonds normalised, aromatic rings
// perceived), or nil when none of them needs a molecule.
func (s Settings) Molecule(g *graph.Graph) (*graph.Graph, error) { return s.molecule(g) }

// molecule is Molecule.
func (s Settings) molecule(g *graph.Graph) (*graph.Graph, error) {
	if !s.Molecular() {
		return nil, nil
	}
	var nodes, edges map[string]string
	if s.Codes != nil && codedLabels(g.NodeLabels) {
		nodes, edges = s.Codes.Nodes, s.Codes.Edges
	}
	mol, err := scaffold.Molecule(g, nodes, edges)
	if err != nil && s.Codes == nil && codedLabels(g.NodeLabels) {
		return nil, fmt.Errorf("chemistry-aware descriptors: %w (the node labels are codes and no table says which element each stands for: a TU dataset's README.txt can; -labels reads codes as atom types without one)", err)
	}
	if err != nil {
		return nil, fmt.Errorf("chemistry-aware descriptors: %w", err)
	}
	return mol, nil
}

// AreMolecules says whether graphs are molecules that chemistry-aware
// descriptors can read: every one has element symbols (or integer codes
// that codes names as elements) and bond types. It is how front ends
// choose the molecules preset for a dataset.
func AreMolecules(graphs []*graph.Graph, codes *Codes) bool {
	s := Settings{Extra: []filtration.Options{{Kind: filtration.KindBonds}}, Codes: codes}
	for _, g := range graphs {
		if _, err := s.molecule(g); err != nil {
			return false
		}
	}
	return len(graphs) > 0
}

// AtomCodes returns the node labels of graphs by decreasing frequency
// when every graph's atoms are typed by integer codes and codes names no
// element for them (NCI1: no README table), else nil. Such labels are
// the atom types of spec.AtomTypes.
func AtomCodes(graphs []*graph.Graph, codes *Codes) []string {
	if len(graphs) == 0 || (codes != nil && len(codes.Nodes) > 0) {
		return nil
	}
	for _, g := range graphs {
		if g.N > 0 && (len(g.NodeLabels) != g.N || !codedLabels(g.NodeLabels)) {
			return nil
		}
	}
	return FitVocabulary(graphs, nil, math.MaxInt, nil)
}

// codedLabels says whether every label is an integer code.
func codedLabels(labels []string) bool {
	for _, l := range labels {
		if _, err := strconv.Atoi(l); err != nil {
			return false
		}
	}
	return len(labels) > 0
}

// originsBack maps origins found on a derived graph (a subdivision or an
// induced subgraph) to the input graph's vertices and edges: a bond's
// vertex of a subdivision becomes that bond, and each edge the input
// edge it lies on, listed once with the shares of all the derived
// simplices it stands for.
func originsBack(o persistence.Origins, on *filtration.Derived) persistence.Origins {
	back := func(os []persistence.Origin) []persistence.Origin {
		out := make([]persistence.Origin, len(os))
		for i, x := range os {
			vertices, edges := &parts{}, &parts{}
			for k, v := range x.Vertices {
				if r := on.Vertex[v]; r.Edge {
					edges.add(r.Index, x.VertexShare(k))
				} else {
					vertices.add(r.Index, x.VertexShare(k))
				}
			}
			for k, e := range x.Edges {
				edges.add(on.Edge[e], x.EdgeShare(k))
			}
			out[i] = persistence.Origin{Vertices: vertices.ids, Edges: edges.ids, VertexShares: persistence.Shares(vertices.weight), EdgeShares: persistence.Shares(edges.weight)}
		}
		return out
	}
	return persistence.Origins{Ord0: back(o.Ord0), Rel1: back(o.Rel1), Ext0: back(o.Ext0), Ext1: back(o.Ext1)}
}

// parts sums the shares that simplices of a derived graph hand to the
// input graph's simplices they stand for: a bond's vertex and its two
// half-bonds all stand for the bond.
type parts struct {
	ids    []int
	weight []float64
}

func (p *parts) add(id int, w float64) {
	if k := slices.Index(p.ids, id); k >= 0 {
		p.weight[k] += w
		return
	}
	p.ids, p.weight = append(p.ids, id), append(p.weight, w)
}
