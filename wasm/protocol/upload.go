package protocol

import "fmt"

// MaxUploadBytes bounds what the page reads from the user's files at
// once. A worker holds the bytes and the parsed graphs, and a Go-WASM
// worker dies past about 4 GiB: 512 MiB of text (several times the
// largest TU benchmark) leaves room for both.
const MaxUploadBytes = 512 << 20

// Upload is a file the user picked, before it is read.
type Upload struct {
	Name string
	Size int64
}

// CheckUpload refuses, with a message naming the file, a selection that
// is empty, has an empty file or is larger than MaxUploadBytes in all.
func CheckUpload(files []Upload) error {
	if len(files) == 0 {
		return fmt.Errorf("no file chosen")
	}
	var total int64
	for _, f := range files {
		if f.Size == 0 {
			return fmt.Errorf("%s: the file is empty", f.Name)
		}
		total += f.Size
		if total > MaxUploadBytes {
			return fmt.Errorf("%s: the files chosen exceed %d MiB in all; the app reads at most that much at once", f.Name, MaxUploadBytes>>20)
		}
	}
	return nil
}
