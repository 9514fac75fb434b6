package filtration

import (
	"fmt"
	"strings"

	"wkpi-web/core/spec"
)

// ParseList reads a comma-separated list of descriptors, as the CLI's
// -extra and the page's extra descriptors give them: kind names, with
// hks@t for the heat kernel signature at time t ("hks,hks@0.5,degree";
// spec.ParseDescriptors). Blank entries are skipped.
func ParseList(text string) ([]Options, error) {
	list, err := spec.ParseDescriptors(text)
	if err != nil {
		return nil, err
	}
	var out []Options
	for _, d := range list {
		out = append(out, Options{Kind: Kind(d.Kind), HKSTime: d.Time, Atoms: d.Atoms})
	}
	return out, nil
}

// FormatList writes descriptors as ParseList reads them.
func FormatList(list []Options) string {
	parts := make([]string, len(list))
	for i, o := range list {
		parts[i] = string(o.Kind)
		if o.Kind == KindHKS && o.HKSTime != 0 {
			parts[i] = fmt.Sprintf("%s@%g", o.Kind, o.HKSTime)
		}
		if o.Atoms != "" {
			parts[i] += ":" + o.Atoms
		}
	}
	return strings.Join(parts, ",")
}
