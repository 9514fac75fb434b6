// Package testenv finds what tests need outside the Go toolchain: the
// benchmark datasets that `make data` puts under data/, RDKit's sample
// files (Debian's rdkit-data), and a Python with Debian's scientific
// packages for oracle checks; it runs `wkpi predict` as an oracle,
// builds zips of files in memory and compares output with golden files.
package testenv
