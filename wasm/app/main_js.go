// Command app is the page's Go program (GOOS=js GOARCH=wasm): the go-app
// UI of package app, wired to a pool of Web Workers.
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	ui "wkpi-web/app"
)

func main() {
	ui.Register(newBackend())
	app.RunWhenOnBrowser()
}
