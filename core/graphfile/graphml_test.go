package graphfile_test

import (
	"reflect"
	"testing"

	"wkpi-web/core/graph"
	"wkpi-web/core/graphfile"
)

// TestGraphMLCollection: graph-level <data> become the records' Props
// (the key's attr.name, else its id; a graph key's default when a graph
// has none), the graph id names the record, and a broken graph is a bad
// record between good ones.
func TestGraphMLCollection(t *testing.T) {
	data := `<?xml version="1.0"?>
<graphml>
  <key id="d0" for="graph" attr.name="activity" attr.type="int"/>
  <key id="d1" for="graph" attr.name="source"><default>lab</default></key>
  <key id="d2" for="node" attr.name="element"/>
  <key id="name" for="graph"/>
  <graph id="ethanol" edgedefault="undirected">
    <data key="d0">1</data>
    <node id="a"><data key="d2">C</data></node><node id="b"><data key="d2">C</data></node><node id="c"><data key="d2">O</data></node>
    <edge source="a" target="b"/><edge source="b" target="c"/>
  </graph>
  <graph>
    <data key="d0">0</data><data key="d1">web</data><data key="name">water</data>
    <node id="o"><data key="d2">O</data></node>
  </graph>
  <graph id="broken">
    <data key="d0">1</data>
    <node id="x"/><edge source="x" target="y"/><node id="z"/>
  </graph>
  <graph id="plain"><node id="x"/></graph>
</graphml>`
	f, err := graphfile.ReadFile("mols.graphml", []byte(data), graphfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []graphfile.Record{
		{Name: "ethanol", Index: 1, Where: "graph 1 (line 7)",
			Graph: &graph.Graph{N: 3, Edges: edges(0, 1, 1, 2), NodeLabels: []string{"C", "C", "O"}},
			Props: []graphfile.Property{{Key: "activity", ID: "d0", Value: "1"}, {Key: "source", ID: "d1", Value: "lab"}}},
		{Name: "water", Index: 2, Where: "graph 2 (line 12)",
			Graph: &graph.Graph{N: 1, NodeLabels: []string{"O"}},
			Props: []graphfile.Property{{Key: "activity", ID: "d0", Value: "0"}, {Key: "source", ID: "d1", Value: "web"}, {Key: "name", Value: "water"}}},
		{Name: "broken", Index: 3, Where: "graph 3 (line 16)",
			Props: []graphfile.Property{{Key: "activity", ID: "d0", Value: "1"}, {Key: "source", ID: "d1", Value: "lab"}}},
		{Name: "plain", Index: 4, Where: "graph 4 (line 20)",
			Graph: &graph.Graph{N: 1, NodeLabels: []string{""}},
			Props: []graphfile.Property{{Key: "source", ID: "d1", Value: "lab"}}},
	}
	if len(f.Records) != len(want) {
		t.Fatalf("%d records", len(f.Records))
	}
	for i, w := range want {
		r := f.Records[i]
		err := r.Err
		r.Err = nil
		if i == 2 {
			if errText(err) != `mols.graphml line 18: edge target "y" is not a declared node` {
				t.Errorf("graph 3: error %v", err)
			}
		} else if err != nil {
			t.Errorf("graph %d: %v", i+1, err)
		}
		if !reflect.DeepEqual(r, w) {
			t.Errorf("graph %d:\n got %+v %+v\nwant %+v %+v", i+1, r, r.Graph, w, w.Graph)
		}
	}
	if v, ok := f.Records[0].Prop("d0"); !ok || v != "1" {
		t.Errorf("Prop by key id: %q %v", v, ok)
	}
	// Parse fails on the broken graph.
	if _, err := graphfile.Parse("mols.graphml", []byte(data)); errText(err) != `mols.graphml line 18: edge target "y" is not a declared node` {
		t.Errorf("Parse: %v", err)
	}
}
