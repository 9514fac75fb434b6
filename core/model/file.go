package model

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// The JSON form of a Model is the model file. Version 1 wrote each
// support image densely, as an array of numbers: nine in ten were zero,
// and a model of a thousand molecules took 90 MB. Version 2 writes each
// image as a base64 string of its non-zero pixels (AppendSparse); the
// values keep all 64 bits, so a loaded model predicts bit for bit as the
// one that was saved. Version 3 writes, in place of the images, the
// support vectors' diagrams ("diagrams", diagrams.go), from which Load
// renders the images again; a model without them (read from a file of
// version 1 or 2) is written as version 2. Every other field is the same
// in all versions.

// maxSupportPixels caps the pixels of all support images together (1 GiB
// of float64), so a small corrupt file cannot make Load allocate without
// bound: an empty image or diagram costs a few bytes of the file and a
// whole image of memory. A 1,000-molecule model has about 15 M.
const maxSupportPixels = 1 << 27

// plain is Model without its JSON methods.
type plain Model

// MarshalJSON writes the model in the current format version, whatever
// its Version field says: version 3 when it has its support vectors'
// diagrams, else version 2.
func (m Model) MarshalJSON() ([]byte, error) {
	p := plain(m)
	p.Version = Version
	if m.Diagrams != nil {
		diagrams := make([][][4][]float64, len(m.Diagrams))
		for i, ds := range m.Diagrams {
			diagrams[i] = encodeDiagrams(ds)
		}
		return json.Marshal(struct {
			*plain
			Support  []string         `json:"support,omitempty"` // hides plain's images: always nil
			Diagrams [][][4][]float64 `json:"diagrams"`
		}{&p, nil, diagrams})
	}
	p.Version = 2
	images := make([]string, len(m.Support))
	var buf []byte
	for i, img := range m.Support {
		buf = AppendSparse(buf[:0], img)
		images[i] = base64.StdEncoding.EncodeToString(buf)
	}
	return json.Marshal(struct {
		*plain
		Support []string `json:"support"` // hides plain's dense one
	}{&p, images})
}

// UnmarshalJSON reads a model file of any version up to Version and
// leaves the model in the current one; it refuses unknown fields and
// checks the support images' (or diagrams') encoding, and Validate
// checks the rest.
func (m *Model) UnmarshalJSON(data []byte) error {
	f := struct {
		*plain
		Support  json.RawMessage `json:"support"`
		Diagrams json.RawMessage `json:"diagrams"`
	}{plain: (*plain)(m)}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return err
	}
	switch {
	case m.Format != Format:
		return fmt.Errorf("format %q, want %q (is this a wkpi-web model file?)", m.Format, Format)
	case m.Version < 1 || m.Version > Version:
		return fmt.Errorf("format version %d, this build reads versions 1 to %d", m.Version, Version)
	case m.Version < 3 && f.Diagrams != nil:
		return fmt.Errorf("diagrams in a file of version %d (they came with version 3)", m.Version)
	case m.Version == 3 && f.Support != nil:
		return errors.New("support images in a file of version 3 (it keeps diagrams instead)")
	case m.Version == 1:
		m.Support = nil
		if err := json.Unmarshal(f.Support, &m.Support); err != nil {
			return fmt.Errorf("support images (dense, version 1): %w", err)
		}
	case m.Version == 2:
		var images []string
		if err := json.Unmarshal(f.Support, &images); err != nil {
			return fmt.Errorf("support images (sparse, version 2): %w", err)
		}
		support, err := m.decodeSupport(images)
		if err != nil {
			return err
		}
		m.Support = support
	case f.Diagrams == nil:
		return errors.New("no diagrams: a file of version 3 keeps the support vectors' diagrams")
	default:
		var file [][][][]float64
		if err := json.Unmarshal(f.Diagrams, &file); err != nil {
			return fmt.Errorf("support vectors' diagrams (version 3): %w", err)
		}
		if _, err := m.pixels(len(file)); err != nil {
			return err
		}
		diagrams, err := decodeDiagrams(file, len(m.Features.Descriptors()), maxSupportPoints)
		if err != nil {
			return err
		}
		if m.Support, err = renderSupport(diagrams, m.Grid, m.Features); err != nil {
			return err
		}
		m.Diagrams = diagrams
	}
	m.Version = Version
	return nil
}

// pixels checks the settings that shape the support images and returns
// the pixels of one image, refusing n images of them over
// maxSupportPixels.
func (m *Model) pixels(n int) (int, error) {
	if err := m.Features.Validate(); err != nil {
		return 0, err
	}
	if err := m.Grid.Validate(); err != nil {
		return 0, err
	}
	pixels := m.Features.Blocks() * m.Grid.Rows * m.Grid.Cols
	if n > maxSupportPixels/pixels {
		return 0, fmt.Errorf("%d support images of %d pixels: over the %d pixels this build loads", n, pixels, maxSupportPixels)
	}
	return pixels, nil
}

// decodeSupport expands the sparse images on the model's grid.
func (m *Model) decodeSupport(images []string) ([][]float64, error) {
	if len(images) == 0 {
		return nil, nil
	}
	pixels, err := m.pixels(len(images))
	if err != nil {
		return nil, err
	}
	all := make([]float64, len(images)*pixels) // one allocation for all
	support := make([][]float64, len(images))
	for i, text := range images {
		img := all[i*pixels : (i+1)*pixels : (i+1)*pixels]
		b, err := base64.StdEncoding.DecodeString(text)
		if err != nil {
			return nil, fmt.Errorf("support image %d: not base64: %w", i, err)
		}
		rest, err := ReadSparse(b, img)
		if err == nil && len(rest) > 0 {
			err = fmt.Errorf("%d bytes after the values", len(rest))
		}
		if err != nil {
			return nil, fmt.Errorf("support image %d: %w", i, err)
		}
		support[i] = img
	}
	return support, nil
}

// AppendSparse appends img's non-zero pixels to dst: their count as a
// uvarint, their indices as uvarint gaps (the first from -1; nine in ten
// gaps are 1 and take a byte), then their values as float64 bits,
// little-endian.
func AppendSparse(dst []byte, img []float64) []byte {
	nnz := 0
	for _, v := range img {
		if v != 0 {
			nnz++
		}
	}
	dst = binary.AppendUvarint(dst, uint64(nnz))
	last := -1
	for s, v := range img {
		if v != 0 {
			dst = binary.AppendUvarint(dst, uint64(s-last))
			last = s
		}
	}
	for _, v := range img {
		if v != 0 {
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v))
		}
	}
	return dst
}

// ReadSparse reads one image that AppendSparse wrote into img, which
// must be all zeros and as long as the image, and returns the bytes
// after it. It refuses an index outside img, a value that is not finite
// and a short input, saying which.
func ReadSparse(src []byte, img []float64) ([]byte, error) {
	nnz, k := binary.Uvarint(src)
	if k <= 0 || nnz > uint64(len(img)) {
		return nil, fmt.Errorf("pixel count: want at most %d", len(img))
	}
	src = src[k:]
	if nnz > uint64(len(src)) { // each index takes a byte at least
		return nil, errors.New("truncated pixel indices")
	}
	idx := make([]int, nnz)
	s := -1
	for j := range idx {
		gap, k := binary.Uvarint(src)
		if k <= 0 || gap == 0 || gap > uint64(len(img)-1-s) {
			return nil, fmt.Errorf("pixel index %d: not in 0..%d after %d", j, len(img)-1, s)
		}
		src = src[k:]
		s += int(gap)
		idx[j] = s
	}
	if len(src) < 8*len(idx) {
		return nil, fmt.Errorf("truncated values: %d bytes for %d pixels", len(src), len(idx))
	}
	for j, s := range idx {
		v := math.Float64frombits(binary.LittleEndian.Uint64(src[8*j:]))
		if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("pixel %d is %v, want a finite non-zero number", s, v)
		}
		img[s] = v
	}
	return src[8*len(idx):], nil
}
