package main

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"wkpi-web/core/spec"
)

// TestSettingsRefused feeds the shared table of bad settings
// (core/spec/testdata/invalid.json, also run through the CLI's flags and
// the workers' protocol) to the edge as the settings of an uploaded
// model: each is refused with 400 and the same message.
func TestSettingsRefused(t *testing.T) {
	data, err := os.ReadFile("../../core/spec/testdata/invalid.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct{ Field, Value, Message string }
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	m := loadBundled(t)
	api := &API{Version: "v-test", Bundled: bundledFrom(readBundled(t)), Cache: &Cache{}, Models: &memStore{m: map[string][]byte{}}, Token: testToken}
	srv := httptest.NewServer(api)
	defer srv.Close()
	for _, row := range rows {
		if row.Value == "NaN" {
			continue // JSON has no NaN: a model file cannot carry one
		}
		s := spec.Defaults()
		field, _ := spec.Lookup(row.Field)
		if err := field.Set(&s, row.Value); err != nil {
			t.Fatal(err)
		}
		bad := *m
		bad.Settings = &s
		// Marshalled directly: Save refuses to write such a model.
		body, err := json.Marshal(&bad)
		if err != nil {
			t.Fatal(err)
		}
		checkBad(t, srv.URL, badCase{name: row.Field + "=" + row.Value, method: "PUT", path: "/api/models/bad", auth: "Bearer " + testToken,
			body: string(body), status: 400, want: row.Message})
	}
	if !strings.Contains(rows[0].Message, rows[0].Field) {
		t.Fatal("the table's messages name their fields")
	}
}
