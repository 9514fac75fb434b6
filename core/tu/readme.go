package tu

import (
	"archive/zip"
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// NodeLabelNames reads the "Node labels:" table of a TU README.txt, which
// says what each integer node label stands for (MUTAG: "0  C", "1  N",
// ...): code -> name. The table is the run of "<integer> <name>" lines
// after a line that starts with "Node labels" (blank lines before the
// first entry are skipped; the first other line ends it). A README
// without such a table gives nil and no error; a code given twice with
// different names is an error naming the line.
func NodeLabelNames(readme []byte) (map[string]string, error) {
	return labelNames(readme, "node label")
}

// EdgeLabelNames reads the "Edge labels:" table of a TU README.txt, as
// NodeLabelNames reads the node table: MUTAG's says 0 is aromatic, 1
// single, 2 double and 3 triple; PTC_MR's numbers the same bond types
// otherwise.
func EdgeLabelNames(readme []byte) (map[string]string, error) {
	return labelNames(readme, "edge label")
}

// labelNames reads the table under the first line that starts with what
// plus "s" ("node labels").
func labelNames(readme []byte, what string) (map[string]string, error) {
	sc := bufio.NewScanner(bytes.NewReader(readme))
	sc.Buffer(make([]byte, 0, 64*1024), maxMember)
	var table map[string]string
	inTable := false
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if !inTable {
			if strings.HasPrefix(strings.ToLower(text), what+"s") {
				inTable, table = true, map[string]string{}
			}
			continue
		}
		fields := strings.Fields(text)
		if len(fields) == 0 {
			if len(table) == 0 {
				continue
			}
			break
		}
		if _, err := strconv.Atoi(fields[0]); err != nil || len(fields) < 2 {
			if len(table) == 0 {
				inTable = false // a heading line that heads no table
				continue
			}
			break
		}
		name := strings.Join(fields[1:], " ")
		if old, dup := table[fields[0]]; dup && old != name {
			return nil, fmt.Errorf("README.txt line %d: %s %s is both %q and %q", line, what, fields[0], old, name)
		}
		table[fields[0]] = name
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("README.txt: %w", err)
	}
	if len(table) == 0 {
		return nil, nil
	}
	return table, nil
}

// ReadLabelNames reads NodeLabelNames and EdgeLabelNames from the
// README.txt of a dataset folder or .zip archive (as Read takes them);
// nil tables when there is no README.txt.
func ReadLabelNames(name string) (nodes, edges map[string]string, err error) {
	readme, err := readReadme(name)
	if err != nil || readme == nil {
		return nil, nil, err
	}
	if nodes, err = NodeLabelNames(readme); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if edges, err = EdgeLabelNames(readme); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return nodes, edges, nil
}

// readReadme returns the README.txt of a dataset folder or .zip archive,
// nil when it has none.
func readReadme(name string) ([]byte, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		data, err := os.ReadFile(filepath.Join(name, "README.txt"))
		if os.IsNotExist(err) {
			return nil, nil
		}
		return data, err
	}
	zr, err := zip.OpenReader(name)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	defer zr.Close()
	data, err := zipReadme(&zr.Reader)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return data, nil
}

// ZipNodeLabelNames reads NodeLabelNames from the README.txt of a dataset
// zip; nil, nil when it has none.
func ZipNodeLabelNames(zr *zip.Reader) (map[string]string, error) {
	return zipLabelNames(zr, NodeLabelNames)
}

// ZipEdgeLabelNames reads EdgeLabelNames from the README.txt of a
// dataset zip; nil, nil when it has none.
func ZipEdgeLabelNames(zr *zip.Reader) (map[string]string, error) {
	return zipLabelNames(zr, EdgeLabelNames)
}

func zipLabelNames(zr *zip.Reader, table func([]byte) (map[string]string, error)) (map[string]string, error) {
	readme, err := zipReadme(zr)
	if err != nil || readme == nil {
		return nil, err
	}
	return table(readme)
}

// zipReadme returns the README.txt of a dataset zip (at its top or in a
// folder), nil when it has none.
func zipReadme(zr *zip.Reader) ([]byte, error) {
	for _, f := range zr.File {
		if path.Base(f.Name) != "README.txt" || strings.Contains(f.Name, "__MACOSX/") {
			continue
		}
		r, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		data, err := io.ReadAll(io.LimitReader(r, maxMember))
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		return data, nil
	}
	return nil, nil
}
