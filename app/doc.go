// Package app is the browser UI of wkpi-web: go-app components, one per
// file, that render state and forward user actions to a Backend. They do
// no computation: every job runs in a Web Worker behind the Backend (a
// long Go loop on the page's thread would freeze the page).
//
// The package builds natively too, so cmd/static can prerender the page;
// there the Backend is nil and the components render their empty state.
//
// Adding a tab: write its component in its own file, add an entry to tabs
// in root.go, and render it in Root.body.
package app
