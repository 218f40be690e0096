package analyze

import (
	"bytes"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// benchInputs are typical agent commands; the corpus adds more once loaded.
var benchInputs = []string{
	`cd /tmp && python3 -m http.server 8000 &>/dev/null & sleep 1 && curl -s localhost:8000`,
	`npm run dev &`,
	`cd app && npm install && npm run build 2>&1 | tail -20`,
	`for f in *.go; do gofmt -l "$f"; done`,
	`docker compose up -d && sleep 5 && docker compose logs --tail 50`,
	`nohup ./server --port 8080 > server.log 2>&1 &`,
	`git status && git diff --stat | head -50`,
	`python3 - <<'EOF'
import sys
print("a & b")
EOF`,
	`(cd frontend && npm run dev) & (cd backend && go run .) & wait`,
	`bash -c 'sleep 100 &'; echo started`,
}

func BenchmarkParse(b *testing.B) {
	p := syntax.NewParser(syntax.KeepComments(true))
	for i := 0; i < b.N; i++ {
		for _, in := range benchInputs {
			if _, err := p.Parse(bytes.NewReader([]byte(in)), ""); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkAnalyze(b *testing.B) {
	for i := 0; i < b.N; i++ {
		for _, in := range benchInputs {
			if _, err := Analyze([]byte(in)); err != nil {
				b.Fatal(err)
			}
		}
	}
}
