package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"

	"wkpi-web/wasm/protocol"
)

// The current dataset is kept in IndexedDB (not localStorage: uploads can
// be megabytes of bytes) as one record {key, names, blobs, options} (each
// file's options as JSON, "" for none; a record saved before options
// existed has none); the page's
// other saved state (models, last results) as byte arrays under their keys.
const (
	dbName    = "wkpi"
	dbStore   = "datasets"
	dbCurrent = "current"
)

func openDB() (js.Value, error) {
	idb := js.Global().Get("indexedDB")
	if !idb.Truthy() {
		return js.Value{}, errors.New("no IndexedDB in this browser")
	}
	req := idb.Call("open", dbName, 1)
	upgrade := js.FuncOf(func(js.Value, []js.Value) any {
		req.Get("result").Call("createObjectStore", dbStore)
		return nil
	})
	defer upgrade.Release()
	req.Set("onupgradeneeded", upgrade)
	return request(req)
}

// request waits for an IDBRequest; call it from a goroutine.
func request(req js.Value) (js.Value, error) {
	type result struct {
		v   js.Value
		err error
	}
	ch := make(chan result, 1)
	ok := js.FuncOf(func(js.Value, []js.Value) any {
		ch <- result{v: req.Get("result")}
		return nil
	})
	fail := js.FuncOf(func(js.Value, []js.Value) any {
		ch <- result{err: errors.New(jsString(req.Get("error")))}
		return nil
	})
	defer ok.Release()
	defer fail.Release()
	req.Set("onsuccess", ok)
	req.Set("onerror", fail)
	r := <-ch
	return r.v, r.err
}

func store(mode string) (js.Value, error) {
	db, err := openDB()
	if err != nil {
		return js.Value{}, err
	}
	return db.Call("transaction", dbStore, mode).Call("objectStore", dbStore), nil
}

func saveDataset(key string, files []protocol.File) error {
	s, err := store("readwrite")
	if err != nil {
		return err
	}
	names := js.Global().Get("Array").New()
	blobs := js.Global().Get("Array").New()
	options := js.Global().Get("Array").New()
	for _, f := range files {
		a := js.Global().Get("Uint8Array").New(len(f.Data))
		js.CopyBytesToJS(a, f.Data)
		names.Call("push", f.Name)
		blobs.Call("push", a)
		o := ""
		if f.Options != nil {
			b, err := json.Marshal(f.Options)
			if err != nil {
				return err
			}
			o = string(b)
		}
		options.Call("push", o)
	}
	rec := js.Global().Get("Object").New()
	rec.Set("key", key)
	rec.Set("names", names)
	rec.Set("blobs", blobs)
	rec.Set("options", options)
	_, err = request(s.Call("put", rec, dbCurrent))
	return err
}

func loadDataset() (string, []protocol.File, error) {
	s, err := store("readonly")
	if err != nil {
		return "", nil, err
	}
	rec, err := request(s.Call("get", dbCurrent))
	if err != nil || !rec.Truthy() {
		return "", nil, err
	}
	names, blobs, options := rec.Get("names"), rec.Get("blobs"), rec.Get("options")
	files := make([]protocol.File, names.Length())
	for i := range files {
		files[i] = protocol.File{Name: names.Index(i).String(), Data: bytesOf(blobs.Index(i))}
		if options.Truthy() && i < options.Length() && options.Index(i).String() != "" {
			var o protocol.DataOptions
			if err := json.Unmarshal([]byte(options.Index(i).String()), &o); err != nil {
				return "", nil, fmt.Errorf("the saved options of %s: %w", files[i].Name, err)
			}
			files[i].Options = &o
		}
	}
	return rec.Get("key").String(), files, nil
}

// put stores data under key as a Uint8Array.
func put(key string, data []byte) error {
	s, err := store("readwrite")
	if err != nil {
		return err
	}
	a := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(a, data)
	_, err = request(s.Call("put", a, key))
	return err
}

// get returns what put stored under key, or nil when there is none.
func get(key string) ([]byte, error) {
	s, err := store("readonly")
	if err != nil {
		return nil, err
	}
	v, err := request(s.Call("get", key))
	if err != nil || !v.Truthy() {
		return nil, err
	}
	return bytesOf(v), nil
}
