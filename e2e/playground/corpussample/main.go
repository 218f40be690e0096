// Command corpussample prints every Nth corpus entry (id, shell, caller,
// command) as JSON, for the browser test to hold the playground to the
// CLI on commands it was not written for. Usage: corpussample [-every N]
package main

import (
	"encoding/json"
	"flag"
	"os"

	"github.com/shguard/shguard/corpus"
)

func main() {
	every := flag.Int("every", 150, "take one entry in N")
	flag.Parse()
	type entry struct {
		ID     string `json:"id"`
		Shell  string `json:"shell"`
		Caller string `json:"caller"`
		Cmd    string `json:"cmd"`
	}
	var out []entry
	for i, e := range corpus.Load() {
		if i%*every == 0 {
			out = append(out, entry{e.ID, e.Shell, string(e.Caller), e.Cmd})
		}
	}
	json.NewEncoder(os.Stdout).Encode(out)
}
