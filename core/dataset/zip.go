package dataset

import (
	"archive/zip"
	"bytes"
	"fmt"
	"path"
	"strings"

	"wkpi-web/core/graph"
	"wkpi-web/core/swc"
	"wkpi-web/core/tu"
)

// maxSWCUnpacked bounds what the members of a zip of SWC neurons take
// unpacked, so that a zip bomb fails before it fills memory: 512 MiB,
// what the app reads at once (wasm/protocol.MaxUploadBytes), leaves a
// Go-WASM worker room for the graphs.
const maxSWCUnpacked = 512 << 20

// parseZip reads the bytes of a zip named name: a folder of SWC neurons
// when it holds a labels.csv and no TU edge file, else a TU dataset.
func parseZip(name string, data []byte, o Options) (*graph.Dataset, *Report, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	format, dir := zipFormat(zr)
	switch format {
	case FormatTU:
		if err := noOptions(name, "a TU zip", o); err != nil {
			return nil, nil, err
		}
		ds, err := tu.ReadZip(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		return tuReport(ds, nil)
	case FormatSWC:
		if err := noOptions(name, "a zip of SWC neurons", o); err != nil {
			return nil, nil, err
		}
		ds, err := readSWCZip(name, zr, dir)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
		return swcReport(ds, nil)
	}
	return nil, nil, fmt.Errorf("%s: neither a TU dataset (no DS_A.txt) nor a folder of SWC neurons (no labels.csv at its top or in one folder)", name)
}

// zipFormat tells the kind of a zip by its members: FormatTU when one is
// a TU edge file (DS_A.txt), else FormatSWC when one is a labels.csv at
// the top or in one folder (dir is the shallowest such folder, "" for the
// top), else "".
func zipFormat(zr *zip.Reader) (format, dir string) {
	for _, m := range zr.File {
		if strings.Contains(m.Name, "__MACOSX/") {
			continue
		}
		if strings.HasSuffix(m.Name, "_A.txt") {
			return FormatTU, ""
		}
		d, base := path.Split(m.Name)
		d = strings.TrimSuffix(d, "/")
		if base == "labels.csv" && !strings.Contains(d, "/") && (format == "" || len(d) < len(dir)) {
			format, dir = FormatSWC, d
		}
	}
	return format, dir
}

// readSWCZip reads the neurons whose labels.csv lies in dir of zr ("" for
// the top, and the dataset is then named after the zip).
func readSWCZip(zipName string, zr *zip.Reader, dir string) (*graph.Dataset, error) {
	// archive/zip refuses a member longer than its header says, so the
	// headers bound what the neurons take unpacked.
	var unpacked uint64
	for _, m := range zr.File {
		if !strings.Contains(m.Name, "__MACOSX/") {
			unpacked += m.UncompressedSize64
		}
	}
	if unpacked > maxSWCUnpacked {
		return nil, fmt.Errorf("the zip unpacks to %d MiB, more than the %d MiB read at once", unpacked>>20, maxSWCUnpacked>>20)
	}
	if dir == "" {
		return swc.ReadSampleFS(zr, ".", strings.TrimSuffix(path.Base(zipName), path.Ext(zipName)))
	}
	return swc.ReadSampleFS(zr, dir, dir)
}
