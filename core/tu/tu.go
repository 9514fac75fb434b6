package tu

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"wkpi-web/core/graph"
)

// File name suffixes after the dataset prefix DS.
const (
	suffixA          = "_A.txt"
	suffixIndicator  = "_graph_indicator.txt"
	suffixGraphLabel = "_graph_labels.txt"
	suffixNodeLabel  = "_node_labels.txt"
	suffixEdgeLabel  = "_edge_labels.txt"
	suffixNodeAttr   = "_node_attributes.txt"
)

var suffixes = [...]string{suffixA, suffixIndicator, suffixGraphLabel, suffixNodeLabel, suffixEdgeLabel, suffixNodeAttr}

// maxMember caps one uncompressed zip member, so that a zip bomb fails
// instead of exhausting memory (the largest TU file, DD_A.txt, is ~20 MB).
const maxMember = 1 << 30

// relevant reports whether a base name is one of the dataset files, so
// that READMEs, editor backups and macOS resource forks are skipped.
func relevant(base string) bool {
	if strings.HasPrefix(base, "._") {
		return false
	}
	for _, s := range suffixes {
		if strings.HasSuffix(base, s) && len(base) > len(s) {
			return true
		}
	}
	return false
}

// Read loads a dataset from a folder or a .zip archive.
func Read(name string) (*graph.Dataset, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return ReadDir(name)
	}
	if !strings.EqualFold(filepath.Ext(name), ".zip") {
		return nil, fmt.Errorf("%s: not a folder or .zip archive", name)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ds, err := ReadZip(f, info.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return ds, nil
}

// ReadDir loads the dataset whose files lie directly in dir.
func ReadDir(dir string) (*graph.Dataset, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if !e.Type().IsRegular() || !relevant(e.Name()) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		files[e.Name()] = data
	}
	ds, err := ReadFiles(files)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return ds, nil
}

// ReadZip loads a dataset from a zip archive holding the files at its top
// level or inside a folder.
func ReadZip(r io.ReaderAt, size int64) (*graph.Dataset, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for _, f := range zr.File {
		if f.FileInfo().IsDir() || !relevant(path.Base(f.Name)) || strings.Contains(f.Name, "__MACOSX/") {
			continue
		}
		if f.UncompressedSize64 > maxMember {
			return nil, fmt.Errorf("%s: %d bytes uncompressed, more than the %d allowed", f.Name, f.UncompressedSize64, maxMember)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		// The header's size may lie; the limit still holds.
		data, err := io.ReadAll(io.LimitReader(rc, maxMember+1))
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		if len(data) > maxMember {
			return nil, fmt.Errorf("%s: more than %d bytes uncompressed", f.Name, maxMember)
		}
		files[f.Name] = data
	}
	return ReadFiles(files)
}

// ReadFiles loads a dataset from file contents keyed by base name or path,
// as a browser upload provides them. The dataset name DS comes from the
// DS_A.txt file; files other than the DS_* ones are ignored.
func ReadFiles(files map[string][]byte) (*graph.Dataset, error) {
	byBase := map[string][]byte{}
	var prefixes []string
	for key, data := range files {
		if strings.Contains(key, "__MACOSX/") {
			continue
		}
		base := path.Base(strings.ReplaceAll(key, `\`, "/"))
		if !relevant(base) {
			continue
		}
		if _, dup := byBase[base]; dup {
			return nil, fmt.Errorf("two files named %s", base)
		}
		byBase[base] = data
		if strings.HasSuffix(base, suffixA) {
			prefixes = append(prefixes, strings.TrimSuffix(base, suffixA))
		}
	}
	switch len(prefixes) {
	case 0:
		return nil, errors.New("missing the edge file DS_A.txt")
	case 1:
	default:
		sort.Strings(prefixes)
		return nil, fmt.Errorf("several datasets (%s): give one at a time", strings.Join(prefixes, ", "))
	}
	p := &parser{name: prefixes[0], files: byBase}
	return p.dataset()
}

// parser holds one dataset's files while they are cross-checked.
type parser struct {
	name  string
	files map[string][]byte
}

// file returns the contents and name of DS+suffix; ok is false when absent.
func (p *parser) file(suffix string) (data []byte, name string, ok bool) {
	name = p.name + suffix
	data, ok = p.files[name]
	return data, name, ok
}

func (p *parser) required(suffix string) ([]byte, string, error) {
	data, name, ok := p.file(suffix)
	if !ok {
		return nil, name, fmt.Errorf("missing required file %s", name)
	}
	return data, name, nil
}

func (p *parser) dataset() (*graph.Dataset, error) {
	indData, indName, err := p.required(suffixIndicator)
	if err != nil {
		return nil, err
	}
	glData, glName, err := p.required(suffixGraphLabel)
	if err != nil {
		return nil, err
	}
	aData, aName, err := p.required(suffixA)
	if err != nil {
		return nil, err
	}

	// Graph ids stay int64 until checked against the label count, so a
	// huge id cannot size an allocation.
	var graphID []int64
	var maxID int64
	err = eachLine(indName, indData, func(f [][]byte) error {
		id, err := oneInt(f)
		if err != nil {
			return err
		}
		if id < 1 {
			return fmt.Errorf("graph id %d out of range (ids start at 1)", id)
		}
		maxID = max(maxID, id)
		graphID = append(graphID, id)
		return nil
	})
	if err != nil {
		return nil, err
	}
	n := len(graphID)

	rawLabels, err := textLines(glName, glData)
	if err != nil {
		return nil, err
	}
	if int64(len(rawLabels)) != maxID {
		return nil, fmt.Errorf("%s: %d labels for %d graphs", glName, len(rawLabels), maxID)
	}
	numGraphs := len(rawLabels)

	// Local index of each node inside its graph, in file order, so that
	// non-contiguous indicator files still work.
	count := make([]int, numGraphs)
	local := make([]int, n)
	for i, id := range graphID {
		g := int(id - 1)
		local[i] = count[g]
		count[g]++
	}
	for g, c := range count {
		if c == 0 {
			return nil, fmt.Errorf("%s: graph %d has no nodes", indName, g+1)
		}
	}

	var nodeLabels []string
	if data, name, ok := p.file(suffixNodeLabel); ok {
		if nodeLabels, err = textLines(name, data); err != nil {
			return nil, err
		}
		if len(nodeLabels) != n {
			return nil, fmt.Errorf("%s: %d labels for %d nodes", name, len(nodeLabels), n)
		}
	}
	var nodeValues []float64
	if data, name, ok := p.file(suffixNodeAttr); ok {
		if nodeValues, err = scalarLines(name, data); err != nil {
			return nil, err
		}
		if nodeValues != nil && len(nodeValues) != n {
			return nil, fmt.Errorf("%s: %d values for %d nodes", name, len(nodeValues), n)
		}
	}

	edges := make([][]graph.Edge, numGraphs)
	var edgeLine [][]int // per graph, the A.txt line index of each edge, for edge labels
	edgeData, edgeName, withEdgeLabels := p.file(suffixEdgeLabel)
	if withEdgeLabels {
		edgeLine = make([][]int, numGraphs)
	}
	lines := 0
	err = eachLine(aName, aData, func(f [][]byte) error {
		if len(f) != 2 {
			return fmt.Errorf("want 2 node ids, got %d fields", len(f))
		}
		var ends [2]int
		for k, field := range f {
			id, err := parseInt(field)
			if err != nil {
				return err
			}
			if id < 1 || id > int64(n) {
				return fmt.Errorf("node id %d out of range 1..%d", id, n)
			}
			ends[k] = int(id - 1)
		}
		u, v := ends[0], ends[1]
		if u == v {
			return fmt.Errorf("node %d: %w", u+1, graph.ErrSelfLoop)
		}
		gu, gv := graphID[u], graphID[v]
		if gu != gv {
			return fmt.Errorf("edge (%d, %d) joins graph %d and graph %d", u+1, v+1, gu, gv)
		}
		g := gu - 1
		edges[g] = append(edges[g], graph.Edge{U: local[u], V: local[v]})
		if withEdgeLabels {
			edgeLine[g] = append(edgeLine[g], lines)
		}
		lines++
		return nil
	})
	if err != nil {
		return nil, err
	}

	var edgeLabels []string
	if withEdgeLabels {
		if edgeLabels, err = textLines(edgeName, edgeData); err != nil {
			return nil, err
		}
		if len(edgeLabels) != lines {
			return nil, fmt.Errorf("%s: %d labels for %d lines of %s", edgeName, len(edgeLabels), lines, aName)
		}
	}

	// Split the per-node columns by graph.
	nodesOf := make([][]int, numGraphs)
	for i, id := range graphID {
		nodesOf[id-1] = append(nodesOf[id-1], i)
	}
	ds := &graph.Dataset{Name: p.name, Graphs: make([]*graph.Graph, numGraphs)}
	for g := range numGraphs {
		var nl, el []string
		if nodeLabels != nil {
			nl = make([]string, len(nodesOf[g]))
			for k, i := range nodesOf[g] {
				nl[k] = nodeLabels[i]
			}
		}
		if edgeLabels != nil {
			el = make([]string, len(edgeLine[g]))
			for k, l := range edgeLine[g] {
				el[k] = edgeLabels[l]
			}
		}
		gr, err := graph.New(count[g], edges[g], el, nl)
		if err != nil {
			return nil, fmt.Errorf("graph %d: %w", g+1, err)
		}
		if nodeValues != nil {
			gr.NodeValues = make([]float64, len(nodesOf[g]))
			for k, i := range nodesOf[g] {
				gr.NodeValues[k] = nodeValues[i]
			}
		}
		ds.Graphs[g] = gr
	}
	ds.Labels, ds.Classes = graph.ClassIndex(rawLabels)
	return ds, nil
}

// eachLine calls fn with the trimmed, comma-separated fields of every
// non-blank line, and prefixes fn's errors with the file name and the
// line's number in the file. Blank lines (users' files have them at the
// start, between records and at the end) are skipped anywhere: records
// are matched across files by their rank among the non-blank lines.
func eachLine(name string, data []byte, fn func(fields [][]byte) error) error {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
	var fields [][]byte
	seen := false
	for line := 1; len(data) > 0; line++ {
		var text []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			text, data = data[:i], data[i+1:]
		} else {
			text, data = data, nil
		}
		text = bytes.TrimSpace(text) // also drops the CR of CRLF
		if len(text) == 0 {
			continue
		}
		seen = true
		fields = fields[:0]
		for f := range bytes.SplitSeq(text, []byte(",")) {
			fields = append(fields, bytes.TrimSpace(f))
		}
		if err := fn(fields); err != nil {
			return fmt.Errorf("%s line %d: %w", name, line, err)
		}
	}
	if !seen {
		return fmt.Errorf("%s: empty file", name)
	}
	return nil
}

// textLines returns each line as a label: its trimmed fields joined by
// ",", so that "1, 2" and "1,2" are the same label.
func textLines(name string, data []byte) ([]string, error) {
	var out []string
	err := eachLine(name, data, func(f [][]byte) error {
		for _, field := range f {
			if len(field) == 0 {
				return errors.New("empty field")
			}
		}
		out = append(out, string(bytes.Join(f, []byte(","))))
		return nil
	})
	return out, err
}

// scalarLines parses one real per line. It returns nil without error when
// the file has several columns: Graph.NodeValues holds one value per node.
func scalarLines(name string, data []byte) ([]float64, error) {
	var out []float64
	multi := false
	err := eachLine(name, data, func(f [][]byte) error {
		if len(f) != 1 {
			multi = true
			return nil
		}
		v, err := strconv.ParseFloat(string(f[0]), 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", f[0])
		}
		out = append(out, v)
		return nil
	})
	if err != nil || multi {
		return nil, err
	}
	return out, nil
}

func oneInt(f [][]byte) (int64, error) {
	if len(f) != 1 {
		return 0, fmt.Errorf("want 1 value, got %d fields", len(f))
	}
	return parseInt(f[0])
}

func parseInt(b []byte) (int64, error) {
	v, err := strconv.ParseInt(string(b), 10, 64)
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%s is out of range", b)
	}
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", b)
	}
	return v, nil
}
