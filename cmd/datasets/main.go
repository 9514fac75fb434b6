// Command datasets puts the benchmark datasets under an ignored folder
// (data/ by default): it copies them from ../shared/datasets when that
// folder exists, and otherwise downloads the official TU Dortmund zips.
// Dataset files are never committed to the repository.
package main

import (
	"archive/zip"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

const tuURL = "https://www.chrsmrrs.com/graphkerneldatasets/%s.zip"

func main() {
	from := flag.String("from", "../shared/datasets", "folder holding the shared datasets")
	to := flag.String("to", "data", "destination folder (git-ignored)")
	names := flag.String("names", "MUTAG,PTC_MR,NCI1,PROTEINS,neurons-sample", "comma-separated datasets")
	flag.Parse()
	for _, name := range strings.Split(*names, ",") {
		if err := fetch(name, *from, *to); err != nil {
			fmt.Fprintln(os.Stderr, "datasets:", err)
			os.Exit(1)
		}
	}
}

func fetch(name, from, to string) error {
	dst := filepath.Join(to, name)
	if _, err := os.Stat(dst); err == nil {
		return nil
	}
	src := filepath.Join(from, name)
	if _, err := os.Stat(src); err == nil {
		return copyTree(src, dst)
	}
	if name == "neurons-sample" {
		fmt.Fprintf(os.Stderr, "datasets: %s not found at %s; it has no public zip, skipping\n", name, src)
		return nil
	}
	return download(name, dst)
}

func copyTree(src, dst string) error {
	return filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

func download(name, dst string) error {
	url := fmt.Sprintf(tuURL, name)
	client := &http.Client{Timeout: 5 * time.Minute}
	resp, err := client.Get(url)
	if err != nil {
		return fmt.Errorf("%s: download %s: %w", name, url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: download %s: %s", name, url, resp.Status)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s: download %s: %w", name, url, err)
	}
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		return fmt.Errorf("%s: %s is not a zip: %w", name, url, err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	// The TU zips hold NAME/NAME_A.txt etc.; keep only the files, flat.
	for _, f := range zr.File {
		if f.FileInfo().IsDir() || !strings.HasSuffix(f.Name, ".txt") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(f.Name)), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
