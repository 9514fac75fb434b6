package graphfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"wkpi-web/core/graph"
)

// maxJSONNodes caps a node count given as a bare number, which unlike
// every other size is not backed by bytes of the file.
const maxJSONNodes = 1 << 24

// jsonGraphObject is the JSON form documented in doc.go.
type jsonGraphObject struct {
	Nodes      json.RawMessage `json:"nodes"`
	Edges      [][]int         `json:"edges"`
	EdgeLabels []string        `json:"edge_labels"`
	NodeValues []float64       `json:"node_values"`
}

// parseJSON reads one graph object or an array of them.
func parseJSON(name string, data []byte) (*File, error) {
	graphs, err := parseJSONGraphs(name, data)
	if err != nil {
		return nil, err
	}
	f := &File{Format: FormatJSON, Records: make([]Record, len(graphs))}
	for i, g := range graphs {
		f.Records[i] = Record{Graph: g, Index: i + 1, Where: fmt.Sprintf("graph %d", i+1)}
	}
	return f, nil
}

// parseJSONGraphs reads the graphs of a JSON file.
func parseJSONGraphs(name string, data []byte) ([]*graph.Graph, error) {
	data = bytes.TrimPrefix(data, bom)
	var objs []jsonGraphObject
	if trimmed := bytes.TrimLeft(data, " \t\r\n"); bytes.HasPrefix(trimmed, []byte("[")) {
		if err := decodeStrict(data, &objs); err != nil {
			return nil, jsonError(name, data, err)
		}
	} else {
		var one jsonGraphObject
		if err := decodeStrict(data, &one); err != nil {
			return nil, jsonError(name, data, err)
		}
		objs = []jsonGraphObject{one}
	}
	if len(objs) == 0 {
		return nil, fmt.Errorf("%s: empty array (no graphs)", name)
	}
	graphs := make([]*graph.Graph, len(objs))
	for i, o := range objs {
		g, err := o.build()
		if err != nil {
			return nil, fmt.Errorf("%s: graph %d: %w", name, i+1, err)
		}
		graphs[i] = g
	}
	return graphs, nil
}

// decodeStrict rejects unknown fields (a misspelt "edge_labels" must not
// silently drop the labels) and anything after the value.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("data after the JSON value")
	}
	return nil
}

func (o jsonGraphObject) build() (*graph.Graph, error) {
	var n int
	var labels []string
	switch {
	case len(o.Nodes) == 0:
		return nil, errors.New(`missing "nodes"`)
	case o.Nodes[0] == '[':
		if err := json.Unmarshal(o.Nodes, &labels); err != nil {
			return nil, errors.New(`"nodes" must be a count or an array of label strings`)
		}
		n = len(labels)
	default:
		if err := json.Unmarshal(o.Nodes, &n); err != nil {
			return nil, errors.New(`"nodes" must be a count or an array of label strings`)
		}
		if n < 0 || n > maxJSONNodes {
			return nil, fmt.Errorf(`"nodes": count %d out of range 0..%d`, n, maxJSONNodes)
		}
	}
	edges := make([]graph.Edge, len(o.Edges))
	for i, e := range o.Edges {
		if len(e) != 2 {
			return nil, fmt.Errorf("edge %d: want [u, v], got %d numbers", i+1, len(e))
		}
		edges[i] = graph.Edge{U: e[0], V: e[1]}
	}
	if o.NodeValues != nil && len(o.NodeValues) != n {
		return nil, fmt.Errorf("%d node values for %d nodes", len(o.NodeValues), n)
	}
	g, err := graph.New(n, edges, o.EdgeLabels, labels)
	if err != nil {
		return nil, err
	}
	g.NodeValues = o.NodeValues
	return g, nil
}

// jsonError adds the line of a decoding error's offset when it has one.
func jsonError(name string, data []byte, err error) error {
	var offset int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		offset = se.Offset
	case errors.As(err, &te):
		offset = te.Offset
	}
	if offset < 0 || offset > int64(len(data)) {
		return fmt.Errorf("%s: %w", name, err)
	}
	return lineError(name, 1+bytes.Count(data[:offset], []byte("\n")), "%v", err)
}
