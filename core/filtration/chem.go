package filtration

import (
	"fmt"
	"slices"
	"strings"

	"wkpi-web/core/graph"
	"wkpi-web/core/smiles"
	"wkpi-web/core/spec"
)

// Chemistry-aware descriptors read a molecule: node labels are element
// symbols and edge labels bond types ("1" single, "2" double, "3"
// triple, "4" aromatic, "$" quadruple), as core/scaffold.Molecule gives
// them with aromatic rings perceived whichever way they were written.
//
//   - KindBonds is a bond-order filtration. A lower-star filtration lives
//     on vertices, so the molecule is first subdivided: every bond becomes
//     a vertex of its own between its two atoms (the barycentric
//     subdivision, whose persistence is that of the graph filtered with
//     atoms and bonds at their own values). Atoms take the value 0, bonds
//     the rank of their type: aromatic 1, single 2, double 3, triple 4,
//     quadruple 5. A ring's 1-dimensional point is born at its highest
//     bond rank, so aromatic rings, saturated rings and rings with a
//     double bond fall on three separate rows of the image, and the
//     0-dimensional points count the bond types of a spanning tree that
//     takes aromatic bonds first.
//   - KindElectronegativity gives each atom its Pauling electronegativity,
//     so that sublevel and superlevel sets sweep the molecule from its
//     metals and carbons to its N, O and halogens: a nitro group's two
//     oxygens, joined through their nitrogen before anything else, make a
//     point of their own.
//   - KindCharge gives each atom its Gasteiger-Marsili partial charge
//     (smiles.GasteigerCharges, RDKit's), which unlike the
//     electronegativity depends on the atom's neighbourhood: a carbonyl's
//     carbon is positive and its oxygen negative, an alkyl carbon near
//     zero. Sublevel sets start from the negative oxygens and nitrogens,
//     superlevel sets from the carbons bonded to them. With an element
//     group the charges are those of the whole molecule, restricted.
//   - Options.Atoms restricts any descriptor to the subgraph induced by an
//     element group (element-specific persistent homology, Cang and Wei,
//     "TopologyNet", PLoS Comput. Biol. 13(7), 2017, there on 3-D
//     structures, here on the bond graph): "C" keeps the carbon skeleton,
//     whose aromatic rings are the benzene-type rings, "N+O" the groups
//     made of nitrogen and oxygen alone (nitro, N-oxide, hydroxylamine).
//     A group written after "~" keeps the bonds to its atoms instead,
//     with the atoms at their other ends: "~O" holds every C=O, C-O-H and
//     N=O, so that bonds:~O tells a carbonyl (a component born at its
//     double bond) from a hydroxyl.
//
// Such a function lives on another graph than the input; Function.On says
// which, and maps its vertices and edges back to the input's atoms and
// bonds, so that explanations reach atoms and bonds all the same.

// The chemistry-aware kinds.
const (
	KindBonds             Kind = "bonds"
	KindElectronegativity Kind = "en"
	KindCharge            Kind = "charge"
)

// Derived is the graph a Function lives on when it is not the input graph
// itself (a subdivision or an induced subgraph), with the way back.
type Derived struct {
	Graph *graph.Graph
	// Vertex[i] is what vertex i of Graph stands for in the input graph.
	Vertex []Ref
	// Edge[j] is the input graph's edge that edge j of Graph lies on.
	Edge []int
}

// Ref is a vertex (Edge false) or an edge (Edge true) of the input graph.
type Ref struct {
	Index int
	Edge  bool
}

// Halogens is the element-group name that stands for F+Cl+Br+I.
const Halogens = "halogens"

// Around is the prefix of an element group that asks for the bonds to
// its atoms (bonds:~O) rather than the bonds among them.
const Around = "~"

// ParseAtoms reads a group: element symbols joined by "+" ("N+O"),
// where Halogens stands for F, Cl, Br and I, or node labels after
// spec.LabelCode ("#1+#2"), optionally after Around. It returns the
// symbols (labels) in the order given, each once, and whether the group
// asks for the bonds around its atoms.
func ParseAtoms(text string) (symbols []string, around bool, err error) {
	if err := spec.CheckGroup(text); err != nil {
		return nil, false, err
	}
	text, around = strings.CutPrefix(text, Around)
	labels := (spec.Descriptor{Atoms: text}).LabelGroup()
	var out []string
	for _, part := range strings.Split(text, "+") {
		part = strings.TrimSpace(part)
		names := []string{part}
		if part == Halogens {
			names = []string{"F", "Cl", "Br", "I"}
		}
		if labels {
			names = []string{strings.TrimPrefix(part, spec.LabelCode)}
		}
		for _, s := range names {
			if _, ok := pauling[s]; !ok && !labels {
				return nil, false, fmt.Errorf("element group %q: %q is not an element symbol (write C, N, Cl ..., or %s, optionally after %s)", text, part, Halogens, Around)
			}
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out, around, nil
}

// bondRank is the value of a bond's vertex under KindBonds.
func bondRank(label string) (float64, bool) {
	switch label {
	case "4":
		return 1, true
	case "1":
		return 2, true
	case "2":
		return 3, true
	case "3":
		return 4, true
	case "$":
		return 5, true
	}
	return 0, false
}

// Molecular says whether o needs a molecule (see chem.go).
func (o Options) Molecular() bool {
	return spec.Descriptor{Kind: string(o.Kind), Atoms: o.Atoms}.Molecular()
}

// LabelGroup says whether o is restricted to a group of node labels
// ("#3"), which needs node labels but no molecule.
func (o Options) LabelGroup() bool {
	return spec.Descriptor{Kind: string(o.Kind), Atoms: o.Atoms}.LabelGroup()
}

// checkMolecule reports the first node label that is no element symbol
// and the first edge label that is no bond type.
func checkMolecule(g *graph.Graph, o Options) error {
	if len(g.NodeLabels) != g.N {
		return fmt.Errorf("%s needs a molecule: the graph has no atom types (element symbols as node labels)", o.name())
	}
	for v, l := range g.NodeLabels {
		if _, ok := pauling[l]; !ok {
			if l == "*" {
				return fmt.Errorf("%s needs a molecule: atom %d is a dummy atom (*, an attachment point or R group), which stands for no element: write the atom or group it stands for", o.name(), v)
			}
			return fmt.Errorf("%s needs a molecule: node %d is labelled %q, not an element symbol it knows", o.name(), v, l)
		}
	}
	if len(g.EdgeLabels) != len(g.Edges) {
		return fmt.Errorf("%s needs a molecule: the graph has no bond types (edge labels)", o.name())
	}
	for i, l := range g.EdgeLabels {
		if _, ok := bondRank(l); !ok {
			return fmt.Errorf("%s needs a molecule: bond %d-%d is labelled %q, not a bond type", o.name(), g.Edges[i].U, g.Edges[i].V, l)
		}
	}
	return nil
}

// name is o as a descriptor list writes it (FormatList).
func (o Options) name() string { return FormatList([]Options{o}) }

// induced returns the subgraph of g on the atoms whose element (node
// label) is in group, with every bond among them, as a Derived graph; with around, the
// bonds with an end in group and the atoms at their ends instead.
func induced(g *graph.Graph, group []string, around bool) *Derived {
	keep := make([]bool, g.N)
	for v, l := range g.NodeLabels {
		keep[v] = slices.Contains(group, l)
	}
	if around {
		in := slices.Clone(keep)
		for _, e := range g.Edges {
			if in[e.U] || in[e.V] {
				keep[e.U], keep[e.V] = true, true
			}
		}
	}
	bonded := func(e graph.Edge) bool {
		if around {
			return slices.Contains(group, g.NodeLabels[e.U]) || slices.Contains(group, g.NodeLabels[e.V])
		}
		return keep[e.U] && keep[e.V]
	}
	index := make([]int, g.N)
	d := &Derived{}
	var labels []string
	for v, l := range g.NodeLabels {
		index[v] = -1
		if keep[v] {
			index[v] = len(d.Vertex)
			d.Vertex = append(d.Vertex, Ref{Index: v})
			labels = append(labels, l)
		}
	}
	var edges []graph.Edge
	var bonds []string // nil when g has no edge labels (label groups)
	if len(g.EdgeLabels) == len(g.Edges) {
		bonds = []string{}
	}
	for i, e := range g.Edges {
		if bonded(e) {
			edges = append(edges, graph.Edge{U: index[e.U], V: index[e.V]})
			if bonds != nil {
				bonds = append(bonds, g.EdgeLabels[i])
			}
			d.Edge = append(d.Edge, i)
		}
	}
	if labels == nil {
		labels = []string{}
	}
	// Edges of g are sorted and distinct, and index keeps the order, so
	// New keeps them in place and d.Edge stays aligned.
	h, err := graph.New(len(labels), edges, bonds, labels)
	if err != nil {
		panic("filtration: an induced subgraph is not a graph: " + err.Error())
	}
	d.Graph = h
	return d
}

// subdivide returns the subdivision of g (every bond a vertex of its own,
// numbered after the atoms) with atoms at 0 and bonds at their rank.
func subdivide(g *graph.Graph) (*Derived, []float64) {
	n := g.N + len(g.Edges)
	d := &Derived{Vertex: make([]Ref, n), Edge: make([]int, 0, 2*len(g.Edges))}
	values := make([]float64, n)
	edges := make([]graph.Edge, 0, 2*len(g.Edges))
	for v := range g.N {
		d.Vertex[v] = Ref{Index: v}
	}
	for i, e := range g.Edges {
		b := g.N + i
		d.Vertex[b] = Ref{Index: i, Edge: true}
		values[b], _ = bondRank(g.EdgeLabels[i])
		edges = append(edges, graph.Edge{U: e.U, V: b}, graph.Edge{U: e.V, V: b})
	}
	h, err := graph.New(n, edges, nil, nil)
	if err != nil {
		panic("filtration: a subdivision is not a graph: " + err.Error())
	}
	// New sorts the edges by their ends; each lies on the bond its higher
	// end stands for.
	for _, e := range h.Edges {
		d.Edge = append(d.Edge, e.V-g.N)
	}
	d.Graph = h
	return d, values
}

// through maps a Derived graph of a Derived graph back to the first
// one's input: inner lives on outer.Graph.
func through(outer, inner *Derived) *Derived {
	if outer == nil {
		return inner
	}
	if inner == nil {
		return outer
	}
	out := &Derived{Graph: inner.Graph, Vertex: make([]Ref, len(inner.Vertex)), Edge: make([]int, len(inner.Edge))}
	for i, r := range inner.Vertex {
		if r.Edge {
			out.Vertex[i] = Ref{Index: outer.Edge[r.Index], Edge: true}
		} else {
			out.Vertex[i] = outer.Vertex[r.Index]
		}
	}
	for j, e := range inner.Edge {
		out.Edge[j] = outer.Edge[e]
	}
	return out
}

// charges returns the Gasteiger charges of the input molecule's atoms
// that the graph on lives on (every atom when on is nil).
func charges(g *graph.Graph, on *Derived) []float64 {
	q := smiles.GasteigerCharges(g)
	if on == nil {
		return q
	}
	out := make([]float64, len(on.Vertex))
	for i, r := range on.Vertex {
		out[i] = q[r.Index]
	}
	return out
}

// electronegativity returns every atom's Pauling electronegativity.
func electronegativity(g *graph.Graph) []float64 {
	out := make([]float64, g.N)
	for v, l := range g.NodeLabels {
		out[v] = pauling[l]
	}
	return out
}

// pauling holds the Pauling electronegativities of the elements that have
// one (CRC Handbook of Chemistry and Physics, 97th ed., 9-103). Noble
// gases lighter than krypton have none and are not listed.
var pauling = map[string]float64{
	"H": 2.20, "Li": 0.98, "Be": 1.57, "B": 2.04, "C": 2.55, "N": 3.04, "O": 3.44, "F": 3.98,
	"Na": 0.93, "Mg": 1.31, "Al": 1.61, "Si": 1.90, "P": 2.19, "S": 2.58, "Cl": 3.16,
	"K": 0.82, "Ca": 1.00, "Sc": 1.36, "Ti": 1.54, "V": 1.63, "Cr": 1.66, "Mn": 1.55, "Fe": 1.83,
	"Co": 1.88, "Ni": 1.91, "Cu": 1.90, "Zn": 1.65, "Ga": 1.81, "Ge": 2.01, "As": 2.18, "Se": 2.55,
	"Br": 2.96, "Kr": 3.00, "Rb": 0.82, "Sr": 0.95, "Y": 1.22, "Zr": 1.33, "Nb": 1.6, "Mo": 2.16,
	"Tc": 1.9, "Ru": 2.2, "Rh": 2.28, "Pd": 2.20, "Ag": 1.93, "Cd": 1.69, "In": 1.78, "Sn": 1.96,
	"Sb": 2.05, "Te": 2.1, "I": 2.66, "Xe": 2.6, "Cs": 0.79, "Ba": 0.89, "La": 1.10, "Ce": 1.12,
	"Pr": 1.13, "Nd": 1.14, "Sm": 1.17, "Eu": 1.2, "Gd": 1.20, "Tb": 1.1, "Dy": 1.22, "Ho": 1.23,
	"Er": 1.24, "Tm": 1.25, "Yb": 1.1, "Lu": 1.27, "Hf": 1.3, "Ta": 1.5, "W": 2.36, "Re": 1.9,
	"Os": 2.2, "Ir": 2.20, "Pt": 2.28, "Au": 2.54, "Hg": 2.00, "Tl": 1.62, "Pb": 2.33, "Bi": 2.02,
	"Po": 2.0, "At": 2.2, "Fr": 0.7, "Ra": 0.9, "Ac": 1.1, "Th": 1.3, "Pa": 1.5, "U": 1.38,
	"Np": 1.36, "Pu": 1.28, "Am": 1.3, "Cm": 1.3, "Bk": 1.3, "Cf": 1.3, "Es": 1.3, "Fm": 1.3,
	"Md": 1.3, "No": 1.3, "Lr": 1.3,
}
