package knowledge

import "testing"

// A WordSet answers the same before and after its map is built.
func TestWordSet(t *testing.T) {
	s := SetOf("npm npx\nnode  yarn\tpnpm")
	cases := map[string]bool{"npm": true, "npx": true, "node": true, "yarn": true, "pnpm": true,
		"np": false, "pm": false, "nod": false, "ode": false, "": false, "npm npx": false, "x": false}
	for i := 0; i < 2*scanLookups/len(cases)+2; i++ {
		for name, want := range cases {
			if got := s.Has(name); got != want {
				t.Errorf("lookup %d: Has(%q) = %v, want %v", s.lookups.Load(), name, got, want)
			}
		}
	}
	if s.m == nil {
		t.Errorf("the map was not built after %d lookups", s.lookups.Load())
	}
}
