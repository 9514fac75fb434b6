package filtration

import (
	"fmt"
	"math"

	"wkpi-web/core/graph"
)

// Kind names a descriptor function.
type Kind string

// The descriptor functions. Ricci curvature and the Jaccard index live on
// edges, degree and HKS on vertices, and KindGiven takes the vertex values
// that came with the graph (graph.Graph.NodeValues, such as the geodesic
// distance to the soma of an SWC neuron).
const (
	KindRicci   Kind = "ricci"
	KindJaccard Kind = "jaccard"
	KindDegree  Kind = "degree"
	KindHKS     Kind = "hks"
	KindGiven   Kind = "given"
)

// Kinds lists every Kind that Compute accepts, for menus. KindGiven applies
// only to graphs that carry NodeValues.
func Kinds() []Kind {
	return []Kind{KindRicci, KindJaccard, KindDegree, KindHKS, KindGiven, KindBonds, KindElectronegativity, KindCharge}
}

// Rule says how an edge function extends to vertices.
type Rule string

// The extension rules. RuleMin is the paper's and the zero value's.
const (
	RuleMin  Rule = "min"
	RuleMean Rule = "mean"
)

// Default parameter values, used where an Options field is zero.
const (
	DefaultAlpha = 0.5
	// DefaultHKSTime favours the coarse shape of a graph: the normalised
	// Laplacian's eigenvalues lie in [0, 2], so at t = 10 every mode but the
	// lowest few has decayed, while at t near 0 HKS is almost constant.
	DefaultHKSTime = 10.0
)

// Options selects a descriptor function and its parameters. The zero value
// of each field picks a default, so Options{Kind: KindRicci} is complete.
type Options struct {
	Kind Kind `json:"kind"`
	// Alpha is the Ollivier-Ricci idleness in (0, 1]; 0 means DefaultAlpha.
	// (Idleness 0 itself is reachable only through RicciCurvature.)
	Alpha float64 `json:"alpha,omitempty"`
	// HKSTime is the heat kernel time t > 0; 0 means DefaultHKSTime.
	HKSTime float64 `json:"hks_time,omitempty"`
	// Rule extends an edge function to vertices; "" means RuleMin.
	Rule Rule `json:"rule,omitempty"`
	// Isolated is the value of a vertex without edges under an edge
	// function; the default is 0, as with any zero field. Vertex functions
	// ignore it.
	Isolated float64 `json:"isolated,omitempty"`
	// EdgeValued asks for each edge's own value, for the sublevel 0-dim
	// persistence of the paper's footnote, instead of the lower-star
	// extension. It requires RuleMin, under which no vertex exceeds an
	// incident edge; for a vertex function each edge gets the larger of its
	// endpoints' values, which is what lower-star gives it anyway.
	EdgeValued bool `json:"edge_valued,omitempty"`
	// Atoms restricts the descriptor to the subgraph induced by an element
	// group ("C", "N+O", "halogens"), or to the bonds around one ("~O");
	// see ParseAtoms. "" is the whole graph. An element group needs a
	// molecule (see chem.go); a group of node labels ("#3", "~#1+#2")
	// only node labels.
	Atoms string `json:"atoms,omitempty"`
}

// Function is a descriptor function evaluated on one graph.
type Function struct {
	Vertex []float64 // one per node (of On.Graph when On is set)
	Edge   []float64 // nil, or with Options.EdgeValued one per edge
	// On is nil when the function lives on the input graph, else the
	// graph it lives on (a subdivision or an induced subgraph) and the way
	// back to the input's atoms and bonds.
	On *Derived
}

// Compute evaluates the descriptor function o.Kind on g. It fails on an
// unknown kind or rule, a parameter out of range, EdgeValued under RuleMean,
// KindGiven on a graph without NodeValues, and a value that is not finite.
func Compute(g *graph.Graph, o Options) (Function, error) {
	o, err := o.withDefaults()
	if err != nil {
		return Function{}, err
	}
	var on *Derived
	input := g
	if o.Molecular() {
		if err := checkMolecule(g, o); err != nil {
			return Function{}, err
		}
	} else if o.LabelGroup() && len(g.NodeLabels) != g.N {
		return Function{}, fmt.Errorf("%s needs node labels: the graph has none", o.name())
	}
	if o.Atoms != "" {
		group, around, _ := ParseAtoms(o.Atoms) // checked by withDefaults
		on = induced(g, group, around)
		g = on.Graph
	}
	var f Function
	switch o.Kind {
	case KindRicci, KindJaccard:
		var edge []float64
		if o.Kind == KindRicci {
			edge = RicciCurvature(g, o.Alpha)
		} else {
			edge = JaccardIndex(g)
		}
		f.Vertex = extend(g, edge, o.Rule, o.Isolated)
		if o.EdgeValued {
			f.Edge = edge
		}
	default:
		switch o.Kind {
		case KindDegree:
			f.Vertex = Degree(g)
		case KindHKS:
			f.Vertex = HeatKernelSignature(g, o.HKSTime)
		case KindElectronegativity:
			f.Vertex = electronegativity(g)
		case KindCharge:
			f.Vertex = charges(input, on)
		case KindBonds:
			var sub *Derived
			sub, f.Vertex = subdivide(g)
			on, g = through(on, sub), sub.Graph
		default:
			if len(g.NodeValues) != g.N {
				return Function{}, fmt.Errorf("%s: graph has %d node values for %d nodes", o.Kind, len(g.NodeValues), g.N)
			}
			// A copy: callers may change a Function without touching the graph.
			f.Vertex = append([]float64(nil), g.NodeValues...)
		}
		if o.EdgeValued {
			f.Edge = make([]float64, len(g.Edges))
			for i, e := range g.Edges {
				f.Edge[i] = max(f.Vertex[e.U], f.Vertex[e.V])
			}
		}
	}
	f.On = on
	if err := finite("vertex", f.Vertex); err != nil {
		return Function{}, fmt.Errorf("%s: %w", o.Kind, err)
	}
	if err := finite("edge", f.Edge); err != nil {
		return Function{}, fmt.Errorf("%s: %w", o.Kind, err)
	}
	return f, nil
}

// withDefaults fills zero fields and validates the rest.
func (o Options) withDefaults() (Options, error) {
	switch o.Kind {
	case KindRicci, KindJaccard, KindDegree, KindHKS, KindGiven, KindBonds, KindElectronegativity, KindCharge:
	default:
		return o, fmt.Errorf("unknown descriptor function %q (want one of %v)", o.Kind, Kinds())
	}
	if o.Atoms != "" {
		if _, _, err := ParseAtoms(o.Atoms); err != nil {
			return o, err
		}
	}
	if o.Alpha == 0 {
		o.Alpha = DefaultAlpha
	}
	if !(o.Alpha > 0 && o.Alpha <= 1) {
		return o, fmt.Errorf("ricci idleness alpha %v outside (0, 1]", o.Alpha)
	}
	if o.HKSTime == 0 {
		o.HKSTime = DefaultHKSTime
	}
	if !(o.HKSTime > 0) || math.IsInf(o.HKSTime, 1) {
		return o, fmt.Errorf("hks time %v is not a positive finite number", o.HKSTime)
	}
	if o.Rule == "" {
		o.Rule = RuleMin
	}
	if o.Rule != RuleMin && o.Rule != RuleMean {
		return o, fmt.Errorf("unknown extension rule %q (want %q or %q)", o.Rule, RuleMin, RuleMean)
	}
	if math.IsNaN(o.Isolated) || math.IsInf(o.Isolated, 0) {
		return o, fmt.Errorf("isolated vertex value %v is not finite", o.Isolated)
	}
	if o.EdgeValued && o.Rule != RuleMin {
		// Under the mean a vertex can exceed an incident edge, so the
		// values would not define a filtration.
		return o, fmt.Errorf("edge-valued filtration needs rule %q, not %q", RuleMin, o.Rule)
	}
	return o, nil
}

// extend gives each vertex the min or mean of its incident edges' values,
// or isolated when it has none.
func extend(g *graph.Graph, edge []float64, rule Rule, isolated float64) []float64 {
	val := make([]float64, g.N)
	count := make([]int, g.N)
	for i, e := range g.Edges {
		for _, v := range [2]int{e.U, e.V} {
			switch {
			case count[v] == 0:
				val[v] = edge[i]
			case rule == RuleMin:
				val[v] = min(val[v], edge[i])
			default:
				val[v] += edge[i]
			}
			count[v]++
		}
	}
	for v, c := range count {
		switch {
		case c == 0:
			val[v] = isolated
		case rule == RuleMean:
			val[v] /= float64(c)
		}
	}
	return val
}

// finite reports the first value that is NaN or infinite.
func finite(what string, xs []float64) error {
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s %d has value %v", what, i, x)
		}
	}
	return nil
}
