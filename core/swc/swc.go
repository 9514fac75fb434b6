package swc

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"wkpi-web/core/graph"
)

// sample is one SWC line.
type sample struct {
	id, parent int64
	kind       string // SWC type code in canonical form
	pos        [3]float64
	line       int
}

// Parse reads one SWC file; name is used in error messages.
func Parse(name string, data []byte) (*graph.Graph, error) {
	samples, err := readSamples(name, data)
	if err != nil {
		return nil, err
	}
	index := make(map[int64]int, len(samples))
	for i, s := range samples {
		if j, dup := index[s.id]; dup {
			return nil, fmt.Errorf("%s line %d: duplicate id %d (first on line %d)", name, s.line, s.id, samples[j].line)
		}
		index[s.id] = i
	}
	n := len(samples)
	parent := make([]int, n) // -1 for a root
	children := make([][]int, n)
	var edges []graph.Edge
	var roots []int
	for i, s := range samples {
		if s.parent < 0 {
			parent[i] = -1
			roots = append(roots, i)
			continue
		}
		p, ok := index[s.parent]
		if !ok {
			return nil, fmt.Errorf("%s line %d: parent %d of sample %d is not defined", name, s.line, s.parent, s.id)
		}
		if p == i {
			return nil, fmt.Errorf("%s line %d: sample %d is its own parent", name, s.line, s.id)
		}
		parent[i] = p
		children[p] = append(children[p], i)
		edges = append(edges, graph.Edge{U: p, V: i})
	}

	// Walk down from the roots; a sample never reached lies on a cycle
	// (each sample has one parent, so unreached parent chains must loop).
	dist := make([]float64, n)
	reached := make([]bool, n)
	stack := append([]int(nil), roots...)
	for _, r := range roots {
		reached[r] = true
	}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range children[u] {
			dist[c] = dist[u] + euclid(samples[u].pos, samples[c].pos)
			if math.IsInf(dist[c], 0) {
				return nil, fmt.Errorf("%s line %d: distance to the root overflows", name, samples[c].line)
			}
			reached[c] = true
			stack = append(stack, c)
		}
	}
	for i, ok := range reached {
		if !ok {
			return nil, fmt.Errorf("%s line %d: sample %d lies on a parent cycle", name, samples[i].line, samples[i].id)
		}
	}

	labels := make([]string, n)
	for i, s := range samples {
		labels[i] = s.kind
		if s.kind == "3" || s.kind == "4" {
			dist[i] = -dist[i]
		}
	}
	g, err := graph.New(n, edges, nil, labels)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	g.NodeValues = dist
	return g, nil
}

func euclid(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

func readSamples(name string, data []byte) ([]sample, error) {
	samples := make([]sample, 0, bytes.Count(data, []byte("\n"))+1)
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if i := strings.IndexByte(text, '#'); i >= 0 {
			text = text[:i]
		}
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		if len(f) < 7 {
			return nil, fmt.Errorf("%s line %d: want 7 fields (id type x y z radius parent), got %d", name, line, len(f))
		}
		s := sample{line: line}
		var err error
		if s.id, err = parseInt(f[0]); err != nil {
			return nil, fmt.Errorf("%s line %d: id: %w", name, line, err)
		}
		if s.id < 0 {
			return nil, fmt.Errorf("%s line %d: negative id %d", name, line, s.id)
		}
		kind, err := parseInt(f[1])
		if err != nil {
			return nil, fmt.Errorf("%s line %d: type: %w", name, line, err)
		}
		s.kind = strconv.FormatInt(kind, 10) // so "03" is the basal dendrite type too
		for k := range 3 {
			v, err := strconv.ParseFloat(f[2+k], 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s line %d: coordinate %q is not a finite number", name, line, f[2+k])
			}
			s.pos[k] = v
		}
		if _, err := strconv.ParseFloat(f[5], 64); err != nil {
			return nil, fmt.Errorf("%s line %d: radius %q is not a number", name, line, f[5])
		}
		if s.parent, err = parseInt(f[6]); err != nil {
			return nil, fmt.Errorf("%s line %d: parent: %w", name, line, err)
		}
		samples = append(samples, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(samples) == 0 {
		return nil, fmt.Errorf("%s: empty file (no samples)", name)
	}
	return samples, nil
}

func parseInt(s string) (int64, error) {
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not an integer", s)
	}
	return v, nil
}

// ReadSample reads a labelled folder of SWC files such as
// data/neurons-sample: labels.csv lists "file,label" rows (after a header)
// with file paths relative to dir.
func ReadSample(dir string) (*graph.Dataset, error) {
	labels := filepath.Join(dir, "labels.csv")
	data, err := os.ReadFile(labels)
	if err != nil {
		return nil, err
	}
	return readSample(filepath.Base(dir), labels, data, func(file string) ([]byte, error) {
		return os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
	})
}

// ReadSampleFS is ReadSample for the folder dir of fsys ("." for its
// top; an unpacked zip, for one: archive/zip's Reader is an fs.FS); name
// names the dataset. Paths in labels.csv are slash-separated, relative
// to dir; messages name files by their paths in fsys.
func ReadSampleFS(fsys fs.FS, dir, name string) (*graph.Dataset, error) {
	labels := path.Join(dir, "labels.csv")
	data, err := fs.ReadFile(fsys, labels)
	if err != nil {
		return nil, err
	}
	return readSample(name, labels, data, func(file string) ([]byte, error) {
		return fs.ReadFile(fsys, path.Join(dir, file))
	})
}

// readSample reads the rows of labels.csv (named labels in messages)
// and the files they name with read.
func readSample(name, labels string, data []byte, read func(file string) ([]byte, error)) (*graph.Dataset, error) {
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", labels, err)
	}
	if len(rows) < 2 {
		return nil, fmt.Errorf("%s: no rows after the header", labels)
	}
	ds := &graph.Dataset{Name: name}
	var raw []string
	for i, row := range rows[1:] {
		if len(row) != 2 {
			return nil, fmt.Errorf("%s line %d: want file,label", labels, i+2)
		}
		if !filepath.IsLocal(filepath.FromSlash(row[0])) || !fs.ValidPath(path.Clean(row[0])) {
			return nil, fmt.Errorf("%s line %d: %q is outside the folder of labels.csv", labels, i+2, row[0])
		}
		data, err := read(path.Clean(row[0]))
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %w", labels, i+2, err)
		}
		g, err := Parse(row[0], data)
		if err != nil {
			return nil, err
		}
		ds.Graphs = append(ds.Graphs, g)
		raw = append(raw, row[1])
	}
	ds.Labels, ds.Classes = graph.ClassIndex(raw)
	return ds, nil
}
