//go:build js && wasm

// Command wasm is the playground's WebAssembly module: it defines
// shguardCheck(requestJSON) → responseJSON in the page's global scope
// (see package playground) and stays alive to serve it. Build it with
// docs/playground/build.sh.
package main

import (
	"encoding/json"
	"syscall/js"

	"github.com/shguard/shguard/playground"
)

func main() {
	js.Global().Set("shguardCheck", js.FuncOf(func(_ js.Value, args []js.Value) any {
		var req playground.Request
		var resp playground.Response
		if len(args) != 1 || json.Unmarshal([]byte(args[0].String()), &req) != nil {
			resp.Error = "shguardCheck takes one JSON request"
		} else {
			resp = playground.Check(req)
		}
		b, _ := json.Marshal(resp)
		return string(b)
	}))
	if ready := js.Global().Get("shguardReady"); ready.Type() == js.TypeFunction {
		ready.Invoke()
	}
	select {} // serve calls until the page goes away
}
