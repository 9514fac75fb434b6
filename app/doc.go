// Package app is the browser UI of wkpi-web: go-app components, one per
// file, that render state and forward user actions to a Backend. They do
// no computation: every job runs in a Web Worker behind the Backend (a
// long Go loop on the page's thread would freeze the page), statistics
// included (a cross-validation's merged report and its paired tests come
// from a MergeCV job). The package imports no core package, only the
// protocol's plain types, so the page's binary links no pipeline code
// (wasm/app's TestPageLinksNoPipeline checks).
//
// Root holds the session's state, one type per tab (dataState,
// exploreState, trainState, compareState, classifyState, modelsState),
// each with Root's methods for that tab in its own file (loading.go,
// exploring.go, training.go, comparing.go, classifying.go, store.go).
// They run worker jobs through one client, Root.run (jobclient.go): its
// callbacks run on the UI goroutine, and a job's slot drops the answers
// of a job replaced, canceled or of data changed, in one place.
//
// The package builds natively too, so cmd/static can prerender the page;
// there the Backend is nil and the components render their empty state.
// The selected tab lives in the URL's fragment (#train), so links, Back
// and Forward work. What the page keeps across visits (the dataset, every
// trained or loaded model by name, the last cross-validation's results)
// goes through Backend.Put and Get, which wasm/app backs with IndexedDB.
//
// go-app writes an attribute whose value is "true" without its value and
// a bool false as "false" (which HTML reads as present): boolean
// attributes go through flag, and the prerendered tab bar is raw HTML.
//
// Adding a tab: write its component in its own file, its state type and
// Root's methods for it in another, add an entry to tabs in root.go, and
// render it in Root.body.
package app
