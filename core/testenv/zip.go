package testenv

import (
	"archive/zip"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Zip returns a zip archive in memory holding members (slash-separated
// name -> content), in name order so that the bytes are the same each run.
func Zip(tb testing.TB, members map[string][]byte) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		w, err := zw.Create(name)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := w.Write(members[name]); err != nil {
			tb.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// Folder reads the files below dir, keyed by prefix and their
// slash-separated path under dir (the members Zip takes).
func Folder(tb testing.TB, dir, prefix string) map[string][]byte {
	tb.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(p)
		files[prefix+filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return files
}
