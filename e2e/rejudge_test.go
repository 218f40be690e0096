//go:build linux

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestRejudge judges saved runs again (SHGUARD_E2E_RESULTS=DIR, a
// SHGUARD_E2E_OUT of an earlier run), logs their table and checks it
// against docs/agents.md (SHGUARD_E2E_UPDATE=1 writes it there): the
// judge can change without driving the agents again.
func TestRejudge(t *testing.T) {
	dir := os.Getenv("SHGUARD_E2E_RESULTS")
	if dir == "" {
		t.Skip("SHGUARD_E2E_RESULTS=DIR judges the runs saved in DIR (SHGUARD_E2E_OUT of an earlier run)")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "result.json"))
	got := cells{}
	var rows []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var res Result
		if err := json.Unmarshal(b, &res); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		a, c := lookupAgent(res.Agent), lookupCase(res.Case)
		if a == nil || c == nil {
			t.Logf("%s: agent or case no longer known", f)
			continue
		}
		row := rowName(a, res.Mode, !res.NoHook)
		if !contains(rows, row) {
			rows = append(rows, row)
		}
		v := judge(&res, a, c)
		got.set(row, c.Name, v.Cell)
		if !v.OK {
			t.Logf("%s × %s: %v", row, c.Name, v.Why)
		}
	}
	t.Logf("\n%s", renderTable(got, sortedRows(rows)))
	checkTable(t, got, rows)
}
