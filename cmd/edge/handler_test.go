package main

import (
	"maps"
	"testing"
)

// TestBodyFormats: the edge takes exactly the ?format= names and
// Content-Types it took before core/graphfile's registry (the maps as they
// were written by hand), each as the same format; an edge list, which
// was read as a .txt (an edge list unless it reads as SMILES), is now
// read as the edge list it says it is.
func TestBodyFormats(t *testing.T) {
	wantExt := map[string]string{"mol": ".mol", "sdf": ".sdf", "graphml": ".graphml", "edgelist": ".edges", "json": ".json",
		"smi": ".smi", "csv": ".csv", "tsv": ".tsv"}
	if got := formats(); !maps.Equal(got, wantExt) {
		t.Errorf("formats() = %v, want %v", got, wantExt)
	}
	wantType := map[string]string{
		"chemical/x-mdl-molfile": "mol", "chemical/x-mdl-sdfile": "sdf",
		"application/graphml+xml": "graphml", "application/xml": "graphml", "text/xml": "graphml",
		"application/json": "json", "text/csv": "csv", "text/tab-separated-values": "tsv",
		"chemical/x-daylight-smiles": "smi",
	}
	if got := contentTypes(); !maps.Equal(got, wantType) {
		t.Errorf("contentTypes() = %v, want %v", got, wantType)
	}
	if got, want := formatNames(), "graphml, json, sdf, mol, csv, tsv, smi or edgelist"; got != want {
		t.Errorf("formatNames() = %q, want %q", got, want)
	}
}
