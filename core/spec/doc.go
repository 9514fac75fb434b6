// Package spec is the one description of a WKPI run's user settings:
// descriptors, images, kernel and learning, SVM, protocol and scale.
//
// Spec is plain data with presets (Defaults, Paper, SizeAware) and one
// Validate that names every bad field and what it allows. Fields is the
// table of settings that the command line registers as flags, the page
// renders as its Train form and Validate checks, so that a setting exists,
// is explained and is refused in the same way everywhere. The core's
// configuration is made from a Spec by one translator (eval.FromSpec).
//
// The package imports only the standard library: the page's binary links
// it without linking the pipeline.
package spec
