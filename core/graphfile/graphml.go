package graphfile

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"wkpi-web/core/graph"
)

// Names of <key> attributes read as labels, most preferred first.
var (
	nodeLabelKeys = []string{"label", "type", "element", "atom_type", "atom", "symbol"}
	edgeLabelKeys = []string{"label", "type", "bond_type", "bond", "order"}
)

type gmlKey struct {
	ID      string `xml:"id,attr"`
	For     string `xml:"for,attr"`
	Name    string `xml:"attr.name,attr"`
	Default string `xml:"default"`
}

type gmlData struct {
	Key   string `xml:"key,attr"`
	Value string `xml:",chardata"`
}

type gmlNode struct {
	ID   string    `xml:"id,attr"`
	Data []gmlData `xml:"data"`
}

type gmlEdge struct {
	Source string    `xml:"source,attr"`
	Target string    `xml:"target,attr"`
	Data   []gmlData `xml:"data"`
}

// gmlGraph collects one <graph> element.
type gmlGraph struct {
	id       string
	line     int // where the <graph> starts
	index    map[string]int
	nodeData [][]gmlData
	edges    []graph.Edge
	edgeData [][]gmlData
	data     []gmlData // graph-level <data>
	err      error     // the first problem in the graph; the rest is skipped
}

// parseGraphML reads every top-level <graph> as an undirected graph
// (edgedefault and per-edge directions are ignored). Node and edge labels
// come from the <key> whose attr.name (or id) is a label-like name. The
// graph-level <data> (and the defaults of keys for graphs) become the
// record's Props; its name is the graph's id, else its name-like data.
// A graph naming an undeclared node, repeating a node id or holding a
// self-loop is a bad record; malformed XML fails the file.
func parseGraphML(name string, data []byte) (*File, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	var keys []gmlKey // in document order, so the choice of label key is stable
	f := &File{Format: FormatGraphML}
	var cur *gmlGraph
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, xmlError(name, 0, "", err)
		}
		line, _ := dec.InputPos()
		switch t := tok.(type) {
		case xml.StartElement:
			if cur != nil && cur.err != nil && t.Name.Local != "graph" {
				if err := dec.Skip(); err != nil {
					return nil, xmlError(name, line, "", err)
				}
				continue
			}
			switch t.Name.Local {
			case "key":
				var k gmlKey
				if err := dec.DecodeElement(&k, &t); err != nil {
					return nil, xmlError(name, line, "<key>", err)
				}
				keys = append(keys, k)
			case "graph":
				if cur != nil {
					return nil, lineError(name, line, "nested <graph> is not supported")
				}
				cur = &gmlGraph{index: map[string]int{}, line: line}
				for _, a := range t.Attr {
					if a.Name.Local == "id" {
						cur.id = strings.TrimSpace(a.Value)
					}
				}
			case "data":
				if cur == nil {
					continue // <data> of the whole document
				}
				var d gmlData
				if err := dec.DecodeElement(&d, &t); err != nil {
					return nil, xmlError(name, line, "<data>", err)
				}
				cur.data = append(cur.data, d)
			case "node":
				if cur == nil {
					return nil, lineError(name, line, "<node> outside a <graph>")
				}
				var n gmlNode
				if err := dec.DecodeElement(&n, &t); err != nil {
					return nil, xmlError(name, line, "<node>", err)
				}
				if n.ID == "" {
					cur.err = lineError(name, line, "<node> without an id")
					continue
				}
				if _, dup := cur.index[n.ID]; dup {
					cur.err = lineError(name, line, "duplicate node id %q", n.ID)
					continue
				}
				cur.index[n.ID] = len(cur.nodeData)
				cur.nodeData = append(cur.nodeData, n.Data)
			case "edge":
				if cur == nil {
					return nil, lineError(name, line, "<edge> outside a <graph>")
				}
				var e gmlEdge
				if err := dec.DecodeElement(&e, &t); err != nil {
					return nil, xmlError(name, line, "<edge>", err)
				}
				u, okU := cur.index[e.Source]
				v, okV := cur.index[e.Target]
				switch {
				case !okU:
					cur.err = lineError(name, line, "edge source %q is not a declared node", e.Source)
				case !okV:
					cur.err = lineError(name, line, "edge target %q is not a declared node", e.Target)
				case u == v:
					cur.err = lineError(name, line, "self-loop on node %q", e.Source)
				default:
					cur.edges = append(cur.edges, graph.Edge{U: u, V: v})
					cur.edgeData = append(cur.edgeData, e.Data)
				}
			}
		case xml.EndElement:
			if t.Name.Local == "graph" && cur != nil {
				f.Records = append(f.Records, cur.record(name, keys, len(f.Records)+1))
				cur = nil
			}
		}
	}
	if len(f.Records) == 0 {
		return nil, fmt.Errorf("%s: no <graph> element", name)
	}
	return f, nil
}

// record turns the graph into the index-th record of the file.
func (gg *gmlGraph) record(name string, keys []gmlKey, index int) Record {
	r := Record{Index: index, Where: fmt.Sprintf("graph %d (line %d)", index, gg.line), Err: gg.err}
	for _, k := range keys {
		if k.For != "graph" && k.For != "all" {
			continue
		}
		p := Property{Key: k.Name, Value: value(gg.data, k)}
		if p.Key == "" {
			p.Key = k.ID
		} else if k.ID != k.Name {
			p.ID = k.ID
		}
		_, given := has(gg.data, k)
		if given || k.For == "graph" && strings.TrimSpace(k.Default) != "" {
			r.Props = append(r.Props, p)
		}
	}
	if r.Name = gg.id; r.Name == "" {
		if r.Name = nameProp(r.Props); r.Name == "" {
			r.Name = fmt.Sprintf("graph %d", index)
		}
	}
	if r.Err == nil {
		g, err := gg.build(keys)
		if err != nil {
			r.Err = fmt.Errorf("%s: graph %d: %w", name, index, err)
		}
		r.Graph = g
	}
	if r.Err != nil {
		r.Graph = nil
	}
	return r
}

// has returns the element's data for key k, if it has one.
func has(data []gmlData, k gmlKey) (string, bool) {
	for _, d := range data {
		if d.Key == k.ID {
			return d.Value, true
		}
	}
	return "", false
}

func (gg *gmlGraph) build(keys []gmlKey) (*graph.Graph, error) {
	nodeKey, hasNode := labelKey(keys, "node", nodeLabelKeys)
	edgeKey, hasEdge := labelKey(keys, "edge", edgeLabelKeys)
	var nl, el []string
	if hasNode {
		nl = make([]string, len(gg.nodeData))
		for i, d := range gg.nodeData {
			nl[i] = value(d, nodeKey)
		}
	}
	if hasEdge {
		el = make([]string, len(gg.edgeData))
		for i, d := range gg.edgeData {
			el[i] = value(d, edgeKey)
		}
	}
	return graph.New(len(gg.nodeData), gg.edges, el, nl)
}

// labelKey picks the key for the given element kind whose name comes first
// in names.
func labelKey(keys []gmlKey, kind string, names []string) (gmlKey, bool) {
	for _, want := range names {
		for _, k := range keys {
			if k.For != kind && k.For != "all" && k.For != "" {
				continue
			}
			n := k.Name
			if n == "" {
				n = k.ID
			}
			if strings.EqualFold(n, want) {
				return k, true
			}
		}
	}
	return gmlKey{}, false
}

// value returns the element's data for key k, else the key's default.
func value(data []gmlData, k gmlKey) string {
	for _, d := range data {
		if d.Key == k.ID {
			return strings.TrimSpace(d.Value)
		}
	}
	return strings.TrimSpace(k.Default)
}

// xmlError reports a syntax error at its own line, and other errors at
// the line of the element being decoded.
func xmlError(name string, line int, element string, err error) error {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return lineError(name, se.Line, "%s", se.Msg)
	}
	if element == "" {
		return fmt.Errorf("%s: %w", name, err)
	}
	return lineError(name, line, "%s: %v", element, err)
}
