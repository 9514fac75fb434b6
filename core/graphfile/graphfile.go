package graphfile

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"wkpi-web/core/graph"
)

// format is one of the file formats Parse understands.
type format int

const (
	edgeList format = iota
	graphML
	molfile
	jsonGraph
)

var byExtension = map[string]format{
	".txt": edgeList, ".edges": edgeList, ".edgelist": edgeList, ".csv": edgeList, ".el": edgeList,
	".graphml": graphML, ".xml": graphML,
	".mol": molfile, ".sdf": molfile, ".sd": molfile,
	".json": jsonGraph,
}

// Parse reads the graphs in one file. The format comes from the file
// name's extension or, when that is unknown, from the content. Errors
// start with name and, where there is one, the line.
func Parse(name string, data []byte) ([]*graph.Graph, error) {
	f, ok := byExtension[strings.ToLower(filepath.Ext(name))]
	if !ok {
		f = sniff(data)
	}
	switch f {
	case graphML:
		return parseGraphML(name, data)
	case molfile:
		return parseMolfile(name, data)
	case jsonGraph:
		return parseJSON(name, data)
	default:
		g, err := parseEdgeList(name, data)
		if err != nil {
			return nil, err
		}
		return []*graph.Graph{g}, nil
	}
}

// sniff guesses the format from the first bytes: markup is GraphML, a
// JSON value opens with a bracket, a molfile has its counts line on line
// 4; anything else is read as an edge list.
func sniff(data []byte) format {
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(data, bom), " \t\r\n")
	switch {
	case bytes.HasPrefix(trimmed, []byte("<")):
		return graphML
	case bytes.HasPrefix(trimmed, []byte("{")), bytes.HasPrefix(trimmed, []byte("[")):
		return jsonGraph
	}
	lines := bytes.SplitN(data, []byte("\n"), 5)
	if len(lines) >= 4 && (bytes.Contains(lines[3], []byte("V2000")) || bytes.Contains(lines[3], []byte("V3000"))) {
		return molfile
	}
	return edgeList
}

var bom = []byte("\xef\xbb\xbf")

// splitLines splits text into lines without their CR or LF.
func splitLines(data []byte) []string {
	text := strings.ReplaceAll(string(bytes.TrimPrefix(data, bom)), "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	return strings.Split(text, "\n")
}

// lineError formats an error at a 1-based line of a file.
func lineError(name string, line int, format string, args ...any) error {
	return fmt.Errorf("%s line %d: %s", name, line, fmt.Sprintf(format, args...))
}
