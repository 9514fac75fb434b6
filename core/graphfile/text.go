package graphfile

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// sniffBytes is how much of a file notText looks at: enough to tell an
// image or an archive from text, little enough to cost nothing.
const sniffBytes = 1024

// NotFormatError says that a file is not in the format its name or its
// caller expects, and what that format looks like.
type NotFormatError struct {
	File     string // the file's name
	Format   Format // the expected format ("" for any text)
	Why      string // what the file holds instead
	Expected string // what the format looks like
}

func (e *NotFormatError) Error() string {
	return fmt.Sprintf("%s: this is not %s: %s; %s", e.File, fileWord(e.Format), e.Why, e.Expected)
}

// fileWord names the file a format makes, for "this is not ...".
func fileWord(format Format) string {
	if e, ok := Lookup(format); ok {
		return e.Display
	}
	return "a text file"
}

// expected says what a file of format looks like.
func expected(format Format) string {
	if e, ok := Lookup(format); ok {
		return e.Shape
	}
	return "graph files are text: SMILES, SMILES tables, SD files, GraphML, JSON or edge lists"
}

// magics are the first bytes of binary files a user may pick by mistake.
var magics = []struct {
	prefix, what string
}{
	{"\x89PNG", "a PNG image"},
	{"\xff\xd8\xff", "a JPEG image"},
	{"GIF8", "a GIF image"},
	{"%PDF", "a PDF document"},
	{"PK\x03\x04", "a zip archive (an Excel or Word file is one too)"},
	{"\x1f\x8b", "a gzip archive"},
	{"\xd0\xcf\x11\xe0", "an old Office document (.xls, .doc)"},
	{"BZh", "a bzip2 archive"},
	{"\xfd7zXZ", "an xz archive"},
}

// notText returns a *NotFormatError when the first KB of data is not
// text: a known binary signature, a NUL or another control byte (other
// than tab, line feed, vertical tab, form feed, carriage return and
// escape), or bytes that are mostly not UTF-8 (a few stray Latin-1
// bytes, as in old SD files, are text). format is the format expected.
func notText(name string, format Format, data []byte) error {
	head := data[:min(len(data), sniffBytes)]
	for _, m := range magics {
		if bytes.HasPrefix(head, []byte(m.prefix)) {
			return &NotFormatError{File: name, Format: format, Why: "it is " + m.what, Expected: expected(format)}
		}
	}
	for i, b := range head {
		if b < 0x20 && !strings.ContainsRune("\t\n\v\f\r\x1b", rune(b)) || b == 0x7f {
			return &NotFormatError{File: name, Format: format,
				Why:      fmt.Sprintf("it holds binary data (byte %d is 0x%02x, a control character no text has)", i+1, b),
				Expected: expected(format)}
		}
	}
	invalid, high := 0, 0
	for i := 0; i < len(head); {
		r, n := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && n == 1 && !(len(head) == sniffBytes && len(head)-i < utf8.UTFMax) {
			invalid++
		}
		if head[i] >= 0x80 {
			high += n
		}
		i += n
	}
	if invalid > 0 && high*4 > len(head) {
		return &NotFormatError{File: name, Format: format,
			Why:      fmt.Sprintf("it holds binary data (%d of its first %d bytes are not UTF-8 text)", invalid, len(head)),
			Expected: expected(format)}
	}
	return nil
}
