package compare

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/persistence"
	"wkpi-web/core/pimage"
)

// Data is one dataset ready for the comparison: its graphs and labels
// and the features WKPI uses (diagrams, grid and images). Methods keep
// what they compute on it for as long as Data lives, so WKPI-init reuses
// WKPI's run.
type Data struct {
	Name    string
	Graphs  []*graph.Graph
	Labels  []int
	Classes int
	Set     *features.Set

	channels [][][]persistence.Point // [channel][graph]: the channel's points
	union    [][]persistence.Point   // [graph]: all channels' points
	maxPers  float64                 // largest persistence of any point
	medPers  float64                 // median persistence of the points
	wkpi     *eval.WKPI
	reports  map[string]eval.Report // WKPI's cross-validation per protocol and variant
}

// NewData prepares a dataset whose features set has computed.
func NewData(ds *graph.Dataset, set *features.Set) (*Data, error) {
	if len(ds.Graphs) != len(set.Diagrams) {
		return nil, fmt.Errorf("compare: %d graphs for %d diagrams", len(ds.Graphs), len(set.Diagrams))
	}
	w, err := eval.NewWKPI(set, ds.Labels, len(ds.Classes))
	if err != nil {
		return nil, err
	}
	d := &Data{Name: ds.Name, Graphs: ds.Graphs, Labels: ds.Labels, Classes: len(ds.Classes), Set: set,
		wkpi: w, reports: map[string]eval.Report{}}
	d.union = make([][]persistence.Point, len(set.Diagrams))
	var pers []float64
	for _, c := range set.Settings.Channels {
		ch := make([][]persistence.Point, len(set.Diagrams))
		for g, dg := range set.Diagrams {
			ch[g] = channelPoints(dg, c)
			d.union[g] = append(d.union[g], ch[g]...)
			for _, p := range ch[g] {
				pers = append(pers, math.Abs(p.Death-p.Birth))
			}
		}
		d.channels = append(d.channels, ch)
	}
	if len(pers) == 0 {
		return nil, fmt.Errorf("compare: %s: every persistence diagram is empty", ds.Name)
	}
	slices.Sort(pers)
	d.maxPers, d.medPers = pers[len(pers)-1], pers[len(pers)/2]
	if !(d.maxPers > 0) {
		return nil, fmt.Errorf("compare: %s: every diagram point has persistence 0", ds.Name)
	}
	if !(d.medPers > 0) {
		d.medPers = d.maxPers
	}
	return d, nil
}

// channelPoints gathers the finite points of one channel ("ord0+ext0")
// of a graph's diagrams, in the (birth, death) plane where the diagram
// kernels measure distances. (features keeps its own helper unexported;
// this one also drops essential points, which these kernels reject.)
func channelPoints(d persistence.Diagrams, channel string) []persistence.Point {
	var pts []persistence.Point
	for _, part := range strings.Split(channel, "+") {
		var sub []persistence.Point
		switch part {
		case "ord0":
			sub = d.Ord0
		case "rel1":
			sub = d.Rel1
		case "ext0":
			sub = d.Ext0
		case "ext1":
			sub = d.Ext1
		}
		for _, p := range sub {
			if !math.IsInf(p.Birth, 0) && !math.IsInf(p.Death, 0) {
				pts = append(pts, p)
			}
		}
	}
	return pts
}

// linearImages renders every graph's persistence images again with the
// piecewise-linear weighting (PI-PL) on the same grid, every descriptor
// of the set included.
func (d *Data) linearImages(ctx context.Context) ([][]float64, error) {
	s := d.Set.Settings
	s.Weighting, s.MaxPersistence = pimage.Linear, 0
	all := make([][]persistence.Diagrams, len(d.Set.Diagrams))
	for i := range all {
		all[i] = d.Set.GraphDiagrams(i)
	}
	_, s, err := features.FitGridAll(all, s) // resolves MaxPersistence; the grid is unchanged
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	set, err := d.Set.Rerender(s)
	if err != nil {
		return nil, err
	}
	return pimage.DenseAll(set.Images), nil
}
