package protocol

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"wkpi-web/core/spec"
)

func TestRequestRoundTrip(t *testing.T) {
	r := Request{ID: 3, Kind: Explore, Dataset: "demo:MUTAG", Graph: 5,
		Descriptor: Descriptor{Kind: "ricci", Alpha: 0.25},
		Files:      []File{{Name: "a.txt", Data: []byte("1, 2\n")}, {Name: "b.txt", Data: []byte{}}}}
	e, err := r.Envelope()
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Blobs) != 2 || string(e.Blobs[0]) != "1, 2\n" {
		t.Fatalf("blobs %q", e.Blobs)
	}
	if strings.Contains(string(e.Header), "1, 2") {
		t.Fatalf("file contents leaked into the JSON header: %s", e.Header)
	}
	got, err := DecodeRequest(e)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Fatalf("round trip\n got %+v\nwant %+v", got, r)
	}
}

func TestResponseRoundTrip(t *testing.T) {
	r := Response{ID: 9, Event: Done,
		Explored: &Explored{Graph: 1, Grid: Grid{MinX: -1, MinY: 0, Pixel: 0.5, Rows: 2, Cols: 3}, Channels: []string{"ord0+ext0", "rel1+ext1"},
			Diagrams: Diagrams{Ord0: []Point{{Birth: 0, Death: 1}, {Birth: 0, Death: math.Inf(1)}}, Ext1: []Point{{Birth: 2, Death: 1}}}},
		Arrays: map[string][]float64{
			"values": {1, -2.5, math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64, math.MaxFloat64},
			"image":  {},
		}}
	e, err := r.Envelope()
	if err != nil {
		t.Fatal(err)
	}
	// Blobs follow the sorted array names; each float takes 8 bytes.
	if len(e.Blobs) != 2 || len(e.Blobs[0]) != 0 || len(e.Blobs[1]) != 48 {
		t.Fatalf("blob sizes %d", len(e.Blobs))
	}
	got, err := DecodeResponse(e)
	if err != nil {
		t.Fatal(err)
	}
	if got.Explored.Grid != r.Explored.Grid || !reflect.DeepEqual(got.Explored.Diagrams, r.Explored.Diagrams) ||
		!reflect.DeepEqual(got.Explored.Channels, r.Explored.Channels) {
		t.Fatalf("explored %+v", got.Explored)
	}
	if !reflect.DeepEqual(got.Arrays["values"], r.Arrays["values"]) || len(got.Arrays["image"]) != 0 {
		t.Fatalf("arrays %v", got.Arrays)
	}
	nan, err := DecodeResponse(mustEnvelope(t, Response{Arrays: map[string][]float64{"x": {math.NaN()}}}))
	if err != nil || !math.IsNaN(nan.Arrays["x"][0]) {
		t.Fatalf("NaN did not survive: %v %v", nan.Arrays, err)
	}
}

func mustRequest(t *testing.T, r Request) Envelope {
	t.Helper()
	e, err := r.Envelope()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func mustEnvelope(t *testing.T, r Response) Envelope {
	e, err := r.Envelope()
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestFloat64BytesLayout(t *testing.T) {
	// 1.0 is 0x3FF0000000000000; little-endian puts the low byte first,
	// as a Float64Array over the same buffer reads it.
	b := Float64Bytes([]float64{1})
	if want := []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x3f}; !reflect.DeepEqual(b, want) {
		t.Fatalf("bytes %x, want %x", b, want)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"request not JSON", second(DecodeRequest(Envelope{Header: []byte("{")})), "decoding request"},
		{"request blob count", second(DecodeRequest(Envelope{Header: []byte(`{"id":4,"files":[{"name":"a"}]}`)})), "request 4: 0 blobs for 1 files"},
		{"response blob count", second(DecodeResponse(Envelope{Header: []byte(`{"id":5,"arrays":["x"]}`)})), "response 5: 0 blobs for 1 arrays"},
		{"response ragged blob", second(DecodeResponse(Envelope{Header: []byte(`{"id":6,"arrays":["x"]}`), Blobs: [][]byte{{1, 2, 3}}})), `response 6 array "x": 3 bytes`},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, tc.err, tc.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func Example() {
	// The worker side: a result with a large float array.
	e, _ := Response{ID: 1, Event: Done, Arrays: map[string][]float64{"image": {0.5, 0.25}}}.Envelope()
	fmt.Printf("header %s, %d blob of %d bytes\n", e.Header, len(e.Blobs), len(e.Blobs[0]))
	// The page side.
	r, _ := DecodeResponse(e)
	fmt.Println(r.Event, r.Arrays["image"])
	// Output:
	// header {"id":1,"event":"done","arrays":["image"]}, 1 blob of 16 bytes
	// done [0.5 0.25]
}

func TestModelAndInputsRoundTrip(t *testing.T) {
	req := Request{ID: 4, Kind: Predict,
		Files:    []File{{Name: "DS_A.txt", Data: []byte("1, 2\n")}},
		Inputs:   []File{{Name: "a.mol", Data: []byte("mol")}, {Name: "b.edges", Data: []byte("0 1\n")}},
		Model:    []byte(`{"format":"wkpi-model"}`),
		Training: &Training{Spec: spec.Defaults(), Only: []int{2, 7}}}
	e, err := req.Envelope()
	if err != nil {
		t.Fatal(err)
	}
	// Files, then inputs, then the model.
	if len(e.Blobs) != 4 || string(e.Blobs[1]) != "mol" || string(e.Blobs[3]) != string(req.Model) {
		t.Fatalf("blobs %q", e.Blobs)
	}
	got, err := DecodeRequest(e)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, req) {
		t.Fatalf("round trip\n got %+v\nwant %+v", got, req)
	}
	e.Blobs = e.Blobs[:3]
	if _, err := DecodeRequest(e); err == nil {
		t.Fatal("a missing model blob went unnoticed")
	}

	resp := Response{ID: 4, Event: Done, Model: []byte("{}"), Arrays: map[string][]float64{"after": {1, 2}},
		Info: &Info{Dataset: "MUTAG", Classes: []string{"-1", "1"}, Cost: []float64{3, 2}}}
	re, err := resp.Envelope()
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeResponse(re)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, resp) {
		t.Fatalf("round trip\n got %+v\nwant %+v", back, resp)
	}
}

// TestPartialRoundTrip: a finished fold travels in the header, whole; its
// event and fields survive, and nothing goes to blobs.
func TestPartialRoundTrip(t *testing.T) {
	resp := Response{ID: 7, Event: Partial, Fold: &Fold{
		Index: 3, Config: FoldConfig{Sigma: 0.01, C: 100, Learn: FoldLearn{M: 5}, Gauss: 1}, Accuracy: 0.75, Baseline: 0.5,
		Trace: Trace{Cost: []float64{2.5, 1.25, 1}, Iterations: 2, Converged: true},
		Test:  []int{4, 9, 11, 20}, Predicted: []int{0, 1, 1, 0}, BaselinePredicted: []int{1, 1, 1, 1},
	}}
	e, err := resp.Envelope()
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Blobs) != 0 || !strings.Contains(string(e.Header), `"event":"partial"`) {
		t.Fatalf("header %s, %d blobs", e.Header, len(e.Blobs))
	}
	got, err := DecodeResponse(e)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, resp) {
		t.Fatalf("round trip\n got %+v\nwant %+v", got, resp)
	}
	// Other events carry no fold.
	if strings.Contains(string(mustEnvelope(t, Response{ID: 7, Event: Progress}).Header), "fold") {
		t.Error("a progress message names a fold")
	}
}

// TestTrainingSettingsRoundTrip: every setting of the Train form crosses
// postMessage; a prior or contrast of 0 (the paper's objective) stays 0
// and is not taken for "unset" (the default); Info's centres and stop,
// and a prediction's own label, travel too.
func TestTrainingSettingsRoundTrip(t *testing.T) {
	tr := Training{Spec: spec.Defaults(), Only: []int{1, 3}}
	s := &tr.Spec
	s.Descriptor, s.Extra, s.Init, s.M, s.Sigma, s.C, s.Folds, s.Seed = "jaccard", "hks@0.5,degree", "kmeans", 4, 0.1, 10, 5, 2
	s.Channels, s.Rows, s.Tau, s.Iterations, s.Prior, s.Contrast = "ord0+ext0+rel1+ext1", 20, 0.05, 100, 0, 0.5
	s.Grid, s.Select, s.Inner = "paper", "cost", 3
	s.Labels, s.Raw, s.Auto, s.Objective, s.ChannelScales, s.SVMChoice, s.Gauss = true, true, false, "cka", true, false, 1.5
	e, err := Request{ID: 1, Kind: CrossValidate, Training: &tr}.Envelope()
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeRequest(e)
	if err != nil || !reflect.DeepEqual(*got.Training, tr) {
		t.Fatalf("training %+v (%v), want %+v", got.Training, err, tr)
	}
	// A zero prior is sent, not left out: it is the paper's objective,
	// not the default.
	if !strings.Contains(string(e.Header), `"prior":0,`) || got.Training.Prior != 0 {
		t.Errorf("a zero prior did not travel as 0: %s", e.Header)
	}
	// The defaults travel as they are, prior and contrast included.
	d := Training{Spec: spec.Defaults()}
	if back, err := DecodeRequest(mustRequest(t, Request{Training: &d})); err != nil || !reflect.DeepEqual(*back.Training, d) || back.Training.Prior != 0.3 || back.Training.Contrast != 0.03 {
		t.Errorf("the defaults came back as %+v (%v)", back.Training, err)
	}
	resp := Response{ID: 2, Event: Done, Info: &Info{Converged: true, Iterations: 12, Centres: [][2]float64{{1, 2}}, Before: [][2]float64{{3, 4}}},
		Graphs: []Graph{{File: "T", Label: "1", Truth: "-1"}}}
	re, err := resp.Envelope()
	if err != nil {
		t.Fatal(err)
	}
	if back, err := DecodeResponse(re); err != nil || !reflect.DeepEqual(back.Info, resp.Info) || back.Graphs[0].Truth != "-1" {
		t.Errorf("response %+v (%v)", back, err)
	}
}

// TestAutomatic: the automatic choice of images runs unless a setting
// fixes them or a protocol of its own (node labels, the paper's grid)
// is chosen.
func TestAutomatic(t *testing.T) {
	with := func(change func(*spec.Spec)) Training {
		tr := Training{Spec: spec.Defaults()}
		change(&tr.Spec)
		return tr
	}
	for _, tc := range []struct {
		t    Training
		want bool
	}{
		{with(func(*spec.Spec) {}), true},
		{with(func(s *spec.Spec) { s.Descriptor, s.Extra, s.Objective = "jaccard", "none", "cka" }), true},
		{with(func(s *spec.Spec) { s.Auto = false }), false},
		{with(func(s *spec.Spec) { s.Raw = true }), false},
		{with(func(s *spec.Spec) { s.Labels = true }), false},
		{with(func(s *spec.Spec) { s.Grid = "paper" }), false},
		{with(func(s *spec.Spec) { s.Select = "cost" }), false},
		{with(func(s *spec.Spec) { s.Kernel = "alt" }), false},
	} {
		if got := tc.t.Automatic(); got != tc.want {
			t.Errorf("%+v: Automatic() = %v, want %v", tc.t, got, tc.want)
		}
	}
}

// TestTrainingMissingFields: settings saved without some fields (by an
// earlier page) read back with the defaults for them.
func TestTrainingMissingFields(t *testing.T) {
	var tr Training
	if err := json.Unmarshal([]byte(`{"descriptor":"jaccard","folds":5,"only":[1]}`), &tr); err != nil {
		t.Fatal(err)
	}
	want := spec.Defaults()
	want.Descriptor, want.Folds = "jaccard", 5
	if tr.Spec != want || !reflect.DeepEqual(tr.Only, []int{1}) {
		t.Fatalf("%+v", tr)
	}
}
