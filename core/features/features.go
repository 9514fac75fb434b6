package features

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/floats"

	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/persistence"
	"wkpi-web/core/pimage"
	"wkpi-web/core/progress"
)

// Settings are every choice between a graph and its image vector. They
// are stored in trained models so that new graphs are treated the same way.
type Settings struct {
	Filtration filtration.Options `json:"filtration"`
	// Channels lists the images per graph, each a "+"-joined set of
	// sub-diagrams among ord0, rel1, ext0, ext1.
	Channels []string `json:"channels"`
	Rows     int      `json:"rows"`
	Tau      float64  `json:"tau"` // Gaussian width; 0 picks one from the grid (see FitGrid)
	// TailCut is the fraction of a descriptor block's largest pixel below
	// which its pixels are 0, in [0, 1]; 0 takes DefaultTailCut, which
	// models saved before the field was kept rendered with.
	TailCut   float64          `json:"tail_cut,omitempty"`
	Weighting pimage.Weighting `json:"weighting"`
	// MaxPersistence scales the linear weighting; 0 takes the dataset's
	// largest persistence when the grid is fitted.
	MaxPersistence float64 `json:"max_persistence,omitempty"`
	KeepZero       bool    `json:"keep_zero"` // keep zero-persistence points
	Normalize      bool    `json:"normalize"` // scale each image vector to unit L2 norm
	// Extra lists further descriptor functions after Filtration; each adds
	// its own copy of every channel (see multi.go).
	Extra []filtration.Options `json:"extra,omitempty"`
	// Scales map each descriptor's values (Filtration, then Extra) onto
	// the shared grid; FitGrid resolves them when Extra is set.
	Scales []Affine `json:"scales,omitempty"`
	// Persistence transforms the persistence axis before rendering: ""
	// (none) or PersistenceSqrt.
	Persistence string `json:"persistence,omitempty"`
	// Labels turns on the node-label mode (see labels.go): nil is
	// structure only, the paper's protocol.
	Labels *Labels `json:"labels,omitempty"`
	// Codes are the dataset's label code tables, which chemistry-aware
	// descriptors read atoms and bonds through (see chem.go); nil when
	// the labels are element symbols and bond types already.
	Codes *Codes `json:"codes,omitempty"`
}

// Default returns the settings used when a user picks only a descriptor.
func Default(kind filtration.Kind) Settings {
	return Settings{
		Filtration: filtration.Options{Kind: kind},
		Channels:   []string{"ord0+ext0", "rel1+ext1"},
		Rows:       40,
		Weighting:  pimage.Constant,
		Normalize:  true,
	}
}

var subDiagrams = map[string]func(persistence.Diagrams) []persistence.Point{
	"ord0": func(d persistence.Diagrams) []persistence.Point { return d.Ord0 },
	"rel1": func(d persistence.Diagrams) []persistence.Point { return d.Rel1 },
	"ext0": func(d persistence.Diagrams) []persistence.Point { return d.Ext0 },
	"ext1": func(d persistence.Diagrams) []persistence.Point { return d.Ext1 },
}

// Validate reports the first setting that cannot work.
func (s Settings) Validate() error {
	if len(s.Channels) == 0 {
		return errors.New("features: no channels")
	}
	for _, c := range s.Channels {
		for _, part := range strings.Split(c, "+") {
			if subDiagrams[part] == nil {
				return fmt.Errorf("features: channel %q: unknown sub-diagram %q (want ord0, rel1, ext0, ext1)", c, part)
			}
		}
	}
	if s.Rows < 2 || s.Rows > 400 {
		return fmt.Errorf("features: rows %d out of range 2..400", s.Rows)
	}
	if s.Tau < 0 || math.IsNaN(s.Tau) || math.IsInf(s.Tau, 0) {
		return fmt.Errorf("features: tau %v must be a finite non-negative number", s.Tau)
	}
	if !(s.TailCut >= 0 && s.TailCut <= 1) {
		return fmt.Errorf("features: tail cut %v must be in [0, 1]", s.TailCut)
	}
	if s.Persistence != "" && s.Persistence != PersistenceSqrt {
		return fmt.Errorf("features: persistence transform %q (want sqrt or none)", s.Persistence)
	}
	if err := s.Labels.validate(); err != nil {
		return err
	}
	return s.validateScales()
}

// channelPoints gathers the points of one channel of a graph's diagrams.
func channelPoints(d persistence.Diagrams, channel string) []persistence.Point {
	var pts []persistence.Point
	for _, part := range strings.Split(channel, "+") {
		pts = append(pts, subDiagrams[part](d)...)
	}
	return pts
}

// Source says where a point of an image block comes from: its
// sub-diagram (ord0, rel1, ext0 or ext1) and its position there.
type Source struct {
	Diagram string `json:"diagram"`
	Index   int    `json:"index"`
}

// BlockPoints lists, for each image block of one graph's diagrams (in
// the order of Render: descriptor after descriptor, channel after
// channel), the points as Render places them on the grid (scaled) and
// where each comes from.
func BlockPoints(ds []persistence.Diagrams, s Settings) ([][]persistence.Point, [][]Source, error) {
	if len(ds) != s.descriptorCount() {
		return nil, nil, fmt.Errorf("features: %d diagrams for %d descriptors", len(ds), s.descriptorCount())
	}
	var pts [][]persistence.Point
	var srcs [][]Source
	for k, d := range ds {
		for _, c := range s.Channels {
			var src []Source
			for _, part := range strings.Split(c, "+") {
				for i := range subDiagrams[part](d) {
					src = append(src, Source{Diagram: part, Index: i})
				}
			}
			pts, srcs = append(pts, s.scaled(k, channelPoints(d, c))), append(srcs, src)
		}
	}
	return pts, srcs, nil
}

// ImageOptions are the rendering options of s's images.
func (s Settings) ImageOptions() pimage.Options {
	return pimage.Options{Rows: s.Rows, Tau: s.Tau, Weighting: s.Weighting, MaxPersistence: s.MaxPersistence}
}

// Diagram computes the descriptor function and the extended persistence
// diagrams of one graph.
func Diagram(g *graph.Graph, s Settings) (persistence.Diagrams, filtration.Function, error) {
	mol, err := s.molecule(g)
	if err != nil {
		return persistence.Diagrams{}, filtration.Function{}, err
	}
	d, _, f, err := diagramOf(g, mol, s.Filtration, s.KeepZero, nil)
	return d, f, err
}

// diagramOf is Diagram for one descriptor o, with the points' origins
// (in g's vertices and edges) when canon, the position of each node of g
// in its canonical order (canonicalOrder), is not nil. mol is g read as a
// molecule, for the descriptors that need one (nil otherwise).
func diagramOf(g, mol *graph.Graph, o filtration.Options, keepZero bool, canon []int) (persistence.Diagrams, persistence.Origins, filtration.Function, error) {
	on := g
	if o.Molecular() {
		on = mol
	}
	f, err := filtration.Compute(on, o)
	if err != nil {
		return persistence.Diagrams{}, persistence.Origins{}, f, err
	}
	// Values equal in exact arithmetic can differ in their last bits with
	// the order of a sum (so with how the atoms are numbered: Ricci
	// curvature, partial charges) or with the platform (HKS: math.Exp and
	// gonum's loops are assembly on amd64 and pure Go in the browser).
	snapTies(f.Vertex, f.Edge)
	withOrigins := canon != nil
	var ties []int
	if withOrigins {
		ties = tieOrder(canon, g, f.On)
	}
	if f.On != nil {
		on = f.On.Graph
	}
	d, orig := persist(on, f.Vertex, f.Edge, keepZero, withOrigins, ties)
	if withOrigins && f.On != nil {
		orig = originsBack(orig, f.On)
	}
	return d, orig, f, nil
}

// persist computes the diagrams of g filtered by vertex values (and edge
// values, when not nil), with their origins when withOrigins is set.
// ties, when not nil, is the order in which the sweeps take vertices of
// equal value (tieOrder), the position of each; nil is their index.
func persist(g *graph.Graph, vertex, edge []float64, keepZero, withOrigins bool, ties []int) (persistence.Diagrams, persistence.Origins) {
	if withOrigins && ties != nil {
		h, hv, he, edgeBack := renumbered(g, vertex, edge, ties)
		dc, oc := persist(h, hv, he, keepZero, true, nil)
		oc = originsOn(oc, ties, edgeBack)
		// The points in the order the features list them (Source.Index),
		// each with the origin of an equal point of the canonical sweep.
		d, _ := persist(g, vertex, edge, keepZero, false, nil)
		if o, ok := alignOrigins(d, dc, oc); ok {
			return d, o
		}
		return dc, oc
	}
	var d persistence.Diagrams
	var orig persistence.Origins
	if withOrigins {
		d, orig = persistence.ExtendedOrigins(g, vertex)
	} else {
		d = persistence.Extended(g, vertex)
	}
	if edge != nil {
		// The paper's edge-valued variant: 0-dim sublevel pairs with edges
		// at their own value replace the lower-star Ord0.
		if withOrigins {
			d.Ord0, orig.Ord0 = finite(persistence.Sublevel0Origins(g, vertex, edge))
		} else {
			d.Ord0, _ = finite(persistence.Sublevel0(g, vertex, edge), nil)
		}
	}
	switch {
	case keepZero:
	case withOrigins:
		d, orig = persistence.DropZeroOrigins(d, orig)
	default:
		d = d.DropZero()
	}
	return d, orig
}

// finite keeps the points of finite death and their origins (none when
// origins is nil).
func finite(pts []persistence.Point, origins []persistence.Origin) ([]persistence.Point, []persistence.Origin) {
	outP, outO := pts[:0:0], origins[:0:0]
	for i, p := range pts {
		if !math.IsInf(p.Death, 0) {
			outP = append(outP, p)
			if origins != nil {
				outO = append(outO, origins[i])
			}
		}
	}
	return outP, outO
}

// Diagrams computes Diagram for every graph, checking ctx between graphs.
func Diagrams(ctx context.Context, graphs []*graph.Graph, s Settings, prog progress.Func) ([]persistence.Diagrams, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	out := make([]persistence.Diagrams, len(graphs))
	for i, g := range graphs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		d, _, err := Diagram(g, s)
		if err != nil {
			return nil, fmt.Errorf("graph %d: %w", i, err)
		}
		out[i] = d
		prog.Report("diagrams", i+1, len(graphs))
	}
	return out, nil
}

// FitGrid fits the image grid over the given diagrams of a single
// descriptor; see FitGridAll.
func FitGrid(diagrams []persistence.Diagrams, s Settings) (pimage.Grid, Settings, error) {
	all := make([][]persistence.Diagrams, len(diagrams))
	for i, d := range diagrams {
		all[i] = []persistence.Diagrams{d}
	}
	return FitGridAll(all, s)
}

// FitGridAll fits the image grid over all points of all channels of every
// descriptor (all[i] holds graph i's diagrams, one per descriptor; see
// Settings.Extra), resolves the descriptors' Scales when there are several,
// and resolves an automatic Tau: with Tau = 0 the Gaussian width is about
// one pixel (the largest persistence over the rows left after the grid's
// padding of pimage.PadTaus widths on each side), which keeps
// neighbouring points apart at 40 rows.
func FitGridAll(all [][]persistence.Diagrams, s Settings) (pimage.Grid, Settings, error) {
	if err := s.Validate(); err != nil {
		return pimage.Grid{}, s, err
	}
	for i, ds := range all {
		if len(ds) != s.descriptorCount() {
			return pimage.Grid{}, s, fmt.Errorf("features: graph %d has %d diagrams for %d descriptors", i, len(ds), s.descriptorCount())
		}
	}
	if s.descriptorCount() > 1 && len(s.Scales) == 0 {
		s.Scales = fitScales(all, s)
	}
	var pts [][]persistence.Point
	for _, ds := range all {
		for k, d := range ds {
			for _, c := range s.Channels {
				pts = append(pts, s.scaled(k, channelPoints(d, c)))
			}
		}
	}
	maxPers := pimage.MaxPersistence(pts)
	if s.Weighting == pimage.Linear && s.MaxPersistence == 0 {
		s.MaxPersistence = maxPers
	}
	if s.Tau == 0 {
		s.Tau = maxPers / float64(max(1, s.Rows-2*pimage.PadTaus))
		if !(s.Tau > 0) {
			s.Tau = 1 // every point on the diagonal: any width shows them
		}
	}
	g, err := pimage.FitGrid(pts, s.Rows, s.Tau)
	return g, s, err
}

// Image renders one graph's channels on the grid and concatenates them;
// s has a single descriptor (see Render).
func Image(d persistence.Diagrams, grid pimage.Grid, s Settings) ([]float64, error) {
	return Render([]persistence.Diagrams{d}, grid, s)
}

// Render renders one graph's diagrams, one per descriptor, channel by
// channel on the grid and concatenates them, descriptor after descriptor.
// With Normalize each descriptor's block is scaled to unit L2 norm and
// the whole vector then by 1/sqrt(descriptors), so that it has unit norm
// and every descriptor weighs the same whatever its number of points.
func Render(ds []persistence.Diagrams, grid pimage.Grid, s Settings) ([]float64, error) {
	if len(ds) != s.descriptorCount() {
		return nil, fmt.Errorf("features: %d diagrams for %d descriptors", len(ds), s.descriptorCount())
	}
	opt := s.ImageOptions()
	block := len(s.Channels) * grid.Rows * grid.Cols
	vec := make([]float64, 0, len(ds)*block)
	for k, d := range ds {
		for _, c := range s.Channels {
			img, err := grid.Image(s.scaled(k, channelPoints(d, c)), opt)
			if err != nil {
				return nil, err
			}
			vec = append(vec, img...)
		}
		part := vec[k*block:]
		flushTails(part, s.tailCut())
		if s.Normalize {
			if norm := floats.Norm(part, 2); norm > 0 {
				floats.Scale(1/(norm*math.Sqrt(float64(len(ds)))), part)
			}
		}
	}
	return vec, nil
}

// DefaultTailCut is the fraction of a descriptor block's largest pixel
// below which a pixel is set to exactly 0 when Settings.TailCut is 0.
// The kernel's passes cost the pixels two images share; at the default
// width a point's Gaussian then covers about 7 x 7 pixels instead of
// 15 x 15, which makes whole runs 2-3 times faster. Measured against 1e-12
// (docs/notes/2026-11-speed-log.md): the same accuracy and ROC-AUC to the
// digits shown on every molecule set, and on NCI1 and PTC_MR one fold's
// inner choice of C flipped. 1e-2 is a third faster again and moves
// figures by up to 0.9 points (the same log).
const DefaultTailCut = 1e-3

// tailCut is the cut s renders with.
func (s Settings) tailCut() float64 {
	if s.TailCut == 0 {
		return DefaultTailCut
	}
	return s.TailCut
}

// flushTails sets the pixels of vec below cut of its largest to 0.
func flushTails(vec []float64, cut float64) {
	var peak float64
	for _, v := range vec {
		peak = math.Max(peak, math.Abs(v))
	}
	for i, v := range vec {
		if math.Abs(v) < cut*peak {
			vec[i] = 0
		}
	}
}

// Centres returns the pixel centre of every entry of an image vector: the
// grid's centres repeated once per channel and descriptor.
func Centres(grid pimage.Grid, s Settings) [][2]float64 {
	one := grid.Centers()
	out := make([][2]float64, 0, len(one)*s.Blocks())
	for range s.Blocks() {
		out = append(out, one...)
	}
	return out
}

// Points returns a graph's diagram points of all channels in the
// (birth, persistence) plane, as used to place the weight function's
// initial centres.
func Points(d persistence.Diagrams, s Settings) [][2]float64 {
	return AllPoints([]persistence.Diagrams{d}, s)
}

// AllPoints is Points for a graph's diagrams of every descriptor, each
// mapped onto the shared grid by its Scale.
func AllPoints(ds []persistence.Diagrams, s Settings) [][2]float64 {
	var out [][2]float64
	for k, d := range ds {
		for _, c := range s.Channels {
			for _, p := range s.scaled(k, channelPoints(d, c)) {
				if math.IsInf(p.Death, 0) {
					continue
				}
				x, y := pimage.Transform(p)
				out = append(out, [2]float64{x, y})
			}
		}
	}
	return out
}

// Set is a dataset's features: diagrams, the fitted grid and one image
// per graph (Render's vector, kept as its non-zero pixels), with the
// settings that made them (Tau resolved).
type Set struct {
	Settings Settings               `json:"settings"`
	Diagrams []persistence.Diagrams `json:"diagrams"` // of the first descriptor
	// Extra holds each graph's diagrams of Settings.Extra, then of its
	// label groups (Settings.Labels), in order.
	Extra  [][]persistence.Diagrams `json:"extra,omitempty"`
	Grid   pimage.Grid              `json:"grid"`
	Images []pimage.Sparse          `json:"images"`
}

// GraphDiagrams returns graph i's diagrams of every descriptor.
func (set *Set) GraphDiagrams(i int) []persistence.Diagrams {
	ds := []persistence.Diagrams{set.Diagrams[i]}
	if set.Extra != nil {
		ds = append(ds, set.Extra[i]...)
	}
	return ds
}

// Compute runs the whole feature stage over a dataset.
func Compute(ctx context.Context, ds *graph.Dataset, s Settings, prog progress.Func) (*Set, error) {
	all, err := AllDiagrams(ctx, ds.Graphs, s, prog)
	if err != nil {
		return nil, err
	}
	grid, s, err := FitGridAll(all, s)
	if err != nil {
		return nil, err
	}
	set := &Set{Settings: s, Grid: grid, Diagrams: make([]persistence.Diagrams, len(all)), Images: make([]pimage.Sparse, len(all))}
	if s.descriptorCount() > 1 {
		set.Extra = make([][]persistence.Diagrams, len(all))
	}
	for i, d := range all {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		img, err := Render(d, grid, s)
		if err != nil {
			return nil, fmt.Errorf("graph %d: %w", i, err)
		}
		set.Images[i], set.Diagrams[i] = pimage.NewSparse(img), d[0]
		if set.Extra != nil {
			set.Extra[i] = d[1:]
		}
		prog.Report("images", i+1, len(all))
	}
	return set, nil
}
