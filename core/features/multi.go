package features

import (
	"context"
	"fmt"
	"math"
	"strings"

	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/persistence"
	"wkpi-web/core/pimage"
	"wkpi-web/core/progress"
)

// Several descriptors at once (the paper's stated future work): with
// Settings.Extra every graph gets one set of channels per descriptor
// function. Their values live on different scales (Ricci curvature in
// [-2, 1], HKS in (0, 1], degree 1..n), so each descriptor's diagram
// points are first mapped by an affine map fitted over the whole dataset
// onto [0, 1] (births and deaths alike, so persistence scales by the same
// factor), and all channels then share one grid, one Tau and one weight
// function; the pixel centres repeat per block as they do per channel.
// The maps are fitted without labels, like the grid itself.

// NoExtra is the descriptor-set text that asks for the main descriptor
// alone (the paper's protocol).
const NoExtra = "none"

// DefaultExtra lists the descriptors added to main when the user names
// none: the heat kernel signature (t = 10) and degree, less main itself.
// On the shared datasets this set is never below the main descriptor
// alone (Ricci: NCI1 69.3 -> 75.6 %, REDDIT-BINARY 85.5 -> 90.5 %;
// docs/results.md). KindGiven (a user's own vertex values) and node-label
// mode, whose label groups are the added descriptors there, get none.
func DefaultExtra(main filtration.Kind, labels bool) []filtration.Options {
	if labels || main == filtration.KindGiven {
		return nil
	}
	var out []filtration.Options
	for _, k := range []filtration.Kind{filtration.KindHKS, filtration.KindDegree} {
		if k != main {
			out = append(out, filtration.Options{Kind: k})
		}
	}
	return out
}

// ExtraFor reads a descriptor-set text as the CLI's -extra and the page's
// Training.Extra give it: "" is DefaultExtra, NoExtra the main descriptor
// alone, anything else a filtration.ParseList list.
func ExtraFor(main filtration.Kind, labels bool, text string) ([]filtration.Options, error) {
	switch strings.TrimSpace(text) {
	case "":
		return DefaultExtra(main, labels), nil
	case NoExtra:
		return nil, nil
	}
	return filtration.ParseList(text)
}

// Affine maps a descriptor value v to (v - Shift) / Scale.
type Affine struct {
	Shift float64 `json:"shift"`
	Scale float64 `json:"scale"`
}

// descriptorCount is the number of descriptor functions: Filtration,
// every Extra and every label group (Labels).
func (s Settings) descriptorCount() int { return 1 + len(s.Extra) + s.Labels.groups() }

// Descriptors names the descriptor functions in image order: their kinds,
// then "label X" for each label group (X the label's name when the
// dataset gave one) and "label other".
func (s Settings) Descriptors() []string {
	name := func(o filtration.Options) string {
		if o.Atoms != "" {
			return string(o.Kind) + ":" + o.Atoms
		}
		return string(o.Kind)
	}
	out := []string{name(s.Filtration)}
	for _, o := range s.Extra {
		out = append(out, name(o))
	}
	if s.Labels != nil {
		for _, v := range s.Labels.Vocabulary {
			if name, ok := s.Labels.Names[v]; ok {
				v = name
			}
			out = append(out, "label "+v)
		}
		out = append(out, "label other")
	}
	return out
}

// Blocks returns the number of images per graph: channels times
// descriptors. An image vector has Blocks()·Rows·Cols entries.
func (s Settings) Blocks() int { return len(s.Channels) * s.descriptorCount() }

func (s Settings) validateScales() error {
	if len(s.Scales) == 0 {
		return nil
	}
	if len(s.Scales) != s.descriptorCount() {
		return fmt.Errorf("features: %d scales for %d descriptors", len(s.Scales), s.descriptorCount())
	}
	for k, a := range s.Scales {
		if !(a.Scale > 0) || math.IsInf(a.Scale, 0) || math.IsNaN(a.Shift) || math.IsInf(a.Shift, 0) {
			return fmt.Errorf("features: descriptor %d: scale %v, shift %v (want a positive finite scale)", k, a.Scale, a.Shift)
		}
	}
	return nil
}

// scaled maps descriptor k's points by its Affine (unchanged without
// Scales, the single-descriptor case), then applies the persistence
// transform (Settings.Persistence).
func (s Settings) scaled(k int, pts []persistence.Point) []persistence.Point {
	if len(s.Scales) == 0 && s.Persistence == "" {
		return pts
	}
	a := Affine{Scale: 1}
	if len(s.Scales) > 0 {
		a = s.Scales[k]
	}
	out := make([]persistence.Point, len(pts))
	for i, p := range pts {
		b, d := (p.Birth-a.Shift)/a.Scale, (p.Death-a.Shift)/a.Scale
		if s.Persistence == PersistenceSqrt {
			// The point keeps its birth and the side of the diagonal it
			// lies on; only its distance to the diagonal is compressed.
			pers := math.Sqrt(math.Abs(d - b))
			if d < b {
				pers = -pers
			}
			d = b + pers
		}
		out[i] = persistence.Point{Birth: b, Death: d}
	}
	return out
}

// PersistenceSqrt is the Settings.Persistence that takes the square root
// of every point's persistence before rendering: it spreads the many
// short-lived points near the diagonal over more rows and pulls the few
// long-lived ones in, so that a handful of outliers no longer squash the
// rest into a few pixels.
const PersistenceSqrt = "sqrt"

// fitScales maps the range of the finite birth and death values of each
// descriptor's channel points over the dataset onto [0, 1]; a descriptor
// without a finite point, or with a single value, gets a unit scale.
func fitScales(all [][]persistence.Diagrams, s Settings) []Affine {
	out := make([]Affine, s.descriptorCount())
	for k := range out {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, ds := range all {
			for _, c := range s.Channels {
				for _, p := range channelPoints(ds[k], c) {
					for _, v := range [...]float64{p.Birth, p.Death} {
						if !math.IsInf(v, 0) && !math.IsNaN(v) {
							lo, hi = min(lo, v), max(hi, v)
						}
					}
				}
			}
		}
		out[k] = Affine{Shift: 0, Scale: 1}
		if lo <= hi {
			out[k].Shift = lo
			if hi > lo {
				out[k].Scale = hi - lo
			}
		}
	}
	return out
}

// GraphDiagramsOf computes a graph's diagrams of every descriptor of s
// (Filtration, then Extra, then the label groups of Labels).
func GraphDiagramsOf(g *graph.Graph, s Settings) ([]persistence.Diagrams, error) {
	ds, _, err := graphDiagrams(g, nil, s, false)
	return ds, err
}

// GraphOrigins is GraphDiagramsOf with the origin of every point, the
// vertices and edges of g behind it (persistence.Origin), one Origins per
// descriptor. The diagrams are GraphDiagramsOf's, point for point; the
// origins do not depend on how g numbers its nodes, up to its
// automorphisms: tied values are taken in a canonical order (tieOrder).
// mol, when not nil, is g as s reads it (Settings.Molecule), which a
// caller that needs it too passes so that it is read once; nil reads it
// here.
func GraphOrigins(g, mol *graph.Graph, s Settings) ([]persistence.Diagrams, []persistence.Origins, error) {
	return graphDiagrams(g, mol, s, true)
}

func graphDiagrams(g, mol *graph.Graph, s Settings, withOrigins bool) ([]persistence.Diagrams, []persistence.Origins, error) {
	out := make([]persistence.Diagrams, 0, s.descriptorCount())
	origins := make([]persistence.Origins, 0, s.descriptorCount())
	if mol == nil || !s.Molecular() {
		var err error
		if mol, err = s.molecule(g); err != nil {
			return nil, nil, err
		}
	}
	var canon []int
	if withOrigins {
		canon = canonicalOrder(g, mol)
	}
	for k, o := range append([]filtration.Options{s.Filtration}, s.Extra...) {
		d, orig, _, err := diagramOf(g, mol, o, s.KeepZero, canon)
		if err != nil {
			if k > 0 {
				return nil, nil, fmt.Errorf("descriptor %d (%s): %w", k, o.Kind, err)
			}
			return nil, nil, err
		}
		out, origins = append(out, d), append(origins, orig)
	}
	if s.Labels != nil {
		ls, orig, err := s.Labels.labelDiagrams(g, mol, s.KeepZero, canon)
		if err != nil {
			return nil, nil, err
		}
		out, origins = append(out, ls...), append(origins, orig...)
	}
	return out, origins, nil
}

// AllDiagrams computes GraphDiagramsOf for every graph, checking ctx
// between graphs.
func AllDiagrams(ctx context.Context, graphs []*graph.Graph, s Settings, prog progress.Func) ([][]persistence.Diagrams, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	out := make([][]persistence.Diagrams, len(graphs))
	for i, g := range graphs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ds, err := GraphDiagramsOf(g, s)
		if err != nil {
			return nil, fmt.Errorf("graph %d: %w", i, err)
		}
		out[i] = ds
		prog.Report("diagrams", i+1, len(graphs))
	}
	return out, nil
}

// Rerender returns the set with its images rendered again from the same
// diagrams on the same grid under s, which must describe the same
// descriptors (normalisation or weighting may differ): the size-aware
// images of a set, or its PI-PL images, without computing any descriptor
// twice.
func (set *Set) Rerender(s Settings) (*Set, error) {
	if s.descriptorCount() != set.Settings.descriptorCount() {
		return nil, fmt.Errorf("features: %d descriptors to render a set of %d", s.descriptorCount(), set.Settings.descriptorCount())
	}
	out := *set
	out.Settings = s
	out.Images = make([]pimage.Sparse, len(set.Images))
	for i := range set.Images {
		img, err := Render(set.GraphDiagrams(i), set.Grid, s)
		if err != nil {
			return nil, fmt.Errorf("graph %d: %w", i, err)
		}
		out.Images[i] = pimage.NewSparse(img)
	}
	return &out, nil
}
