package graphfile_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"wkpi-web/core/graphfile"
)

// sdExpected ends every "this is not an SD file" error.
const sdExpected = "an SD file is text: molfile records, each with its counts line (ending V2000 or V3000) on its fourth line, ended by a $$$$ line"

// molExpected ends every "this is not a molfile" error.
const molExpected = "a molfile is text: a title, two header lines and a counts line (ending V2000 or V3000), then the atoms and bonds"

// TestNotText: a binary file (here the site's PNG icon) under a graph
// file's name is refused as a whole with what it is and what the format
// expected, whatever the extension; so is text without a molfile's
// counts line named .sdf. Text with stray Latin-1 bytes is still text.
func TestNotText(t *testing.T) {
	png, err := os.ReadFile("testdata/icon.png")
	if err != nil {
		t.Fatal(err)
	}
	benzene, err := os.ReadFile("testdata/benzene.mol")
	if err != nil {
		t.Fatal(err)
	}
	nul := append([]byte("CCO ethanol\nCC"), 0, 'x', '\n')
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"x.sdf", png, "x.sdf: this is not an SD file: it is a PNG image; " + sdExpected},
		{"x.csv", png, "x.csv: this is not a CSV table: it is a PNG image; a SMILES table is text: a header row naming a SMILES column, then one molecule per row"},
		{"x.tsv", png, "x.tsv: this is not a TSV table: it is a PNG image; a SMILES table is text"},
		{"x.smi", png, "x.smi: this is not a SMILES file: it is a PNG image; a SMILES file is text"},
		{"x.graphml", png, "x.graphml: this is not a GraphML file: it is a PNG image; a GraphML file is XML text"},
		{"x.json", png, "x.json: this is not a JSON graph file: it is a PNG image"},
		{"x.edges", png, "x.edges: this is not an edge list: it is a PNG image"},
		{"x.txt", png, "x.txt: this is not a text file: it is a PNG image; graph files are text"},
		{"x", png, "x: this is not a text file: it is a PNG image"},
		{"x.smi", nul, "x.smi: this is not a SMILES file: it holds binary data (byte 15 is 0x00, a control character no text has)"},
		{"x.sdf", bytes.Repeat([]byte{0xc3, 0x28, 0xa0, 0xa1}, 100), "x.sdf: this is not an SD file: it holds binary data (300 of its first 400 bytes are not UTF-8 text)"},
		{"x.sdf", []byte("smiles,pAct\nCCO,6.1\nCCN,7.2\nCCC,5\n"), `x.sdf: this is not an SD file: line 4, where a molfile's counts line belongs, is "CCC,5", with neither V2000 nor V3000 nor atom and bond counts; ` + sdExpected},
		{"x.sdf", []byte("a\n\n\nno\n$$$$\nb\n\n\nno\n$$$$\n"), "x.sdf: this is not an SD file: none of its 2 records has a counts line on its fourth line"},
	} {
		_, err := graphfile.ReadFile(tc.name, tc.data, graphfile.Options{})
		var nf *graphfile.NotFormatError
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.As(err, &nf) {
			t.Errorf("%s: %v\nwant %s…", tc.name, err, tc.want)
		}
		if strings.HasSuffix(tc.name, ".csv") || strings.HasSuffix(tc.name, ".tsv") {
			if _, err := graphfile.ReadTable(tc.name, tc.data, graphfile.Options{}); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("ReadTable %s: %v\nwant %s…", tc.name, err, tc.want)
			}
		}
	}

	// Text: a title in Latin-1 (é is 0xe9), a UTF-8 character cut by
	// the first KB's end, and an old molfile without V2000 whose second
	// record is broken.
	latin := bytes.Replace(benzene, []byte("\n"), []byte("caf\xe9\n"), 1)
	cut := append(bytes.Repeat([]byte("C"), 1023), "é ethanol\n"...)
	old := "old\n\n\n  1  0\n    0.0000    0.0000    0.0000 C   0  0\nM  END\n$$$$\nbroken\n\n\nabc\n$$$$\n"
	for _, tc := range []struct {
		name string
		data []byte
		good int
	}{
		{"latin.sdf", latin, 1},
		{"cut.smi", cut, 0},
		{"old.sdf", []byte(old), 1},
	} {
		f, err := graphfile.ReadFile(tc.name, tc.data, graphfile.Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		good := 0
		for _, r := range f.Records {
			if r.Err == nil {
				good++
			}
		}
		if good != tc.good {
			t.Errorf("%s: %d good records, want %d", tc.name, good, tc.good)
		}
	}
}
