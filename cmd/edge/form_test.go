package main

import "testing"

// TestFormRefusesDamage feeds decodeModel every prefix of a stored
// model's end and a gob file of an older build: each is an error, never
// a panic or a model.
func TestFormRefusesDamage(t *testing.T) {
	b := readBundled(t)
	for _, cut := range []int{len(formMagic), len(formMagic) + 1, len(formMagic) + 100, len(b) / 2, len(b) - 8, len(b) - 1} {
		if _, err := decodeModel(b[:cut]); err == nil {
			t.Errorf("the first %d of %d bytes decode", cut, len(b))
		}
	}
	if _, err := decodeModel(append(b[:len(b):len(b)], 0)); err == nil {
		t.Error("a byte after the end decodes")
	}
	// The start of a gob stream, as earlier builds stored models.
	if _, err := decodeModel([]byte("\x7f\xff\x81\x03\x01\x01\x05Model")); err != errOldForm {
		t.Errorf("a gob model: %v, want errOldForm", err)
	}
}
