package analyze_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/shguard/shguard/analyze"
)

// TestServerByFile checks that a command whose file decides whether it
// ends is judged by that file where it is at hand (analyze.WithFiles),
// and said to maybe not end where it is not and is named like a server.
func TestServerByFile(t *testing.T) {
	dir := fstest.MapFS{
		"server.js":          {Data: []byte("const app = require('express')();\napp.listen(process.env.PORT || 3000)\n")},
		"migrate.js":         {Data: []byte("console.log('migrated')\n")},
		"app.py":             {Data: []byte("from flask import Flask\napp = Flask(__name__)\nif __name__ == '__main__':\n    app.run(debug=True)\n")},
		"seed.py":            {Data: []byte("import subprocess\nsubprocess.run(['echo'])\n")},
		"cmd/api/main.go":    {Data: []byte("package main\n\nimport \"net/http\"\n\nfunc main() { http.ListenAndServe(\":8080\", nil) }\n")},
		"cmd/tool/main.go":   {Data: []byte("package main\n\nfunc main() { println(1) }\n")},
		"cmd/api/x_test.go":  {Data: []byte("package main\n")},
		"api/index.ts":       {Data: []byte("Bun.serve({ fetch() { return new Response('ok') } })\n")},
		"package.json":       {Data: []byte(`{"scripts": {"api": "bun api/index.ts", "db:migrate": "node migrate.js", "serve:prod": "NODE_ENV=production node server.js"}}`)},
		"worker/poll.rb":     {Data: []byte("loop do\n  sleep 5\nend\n")},
		"scripts/server.cjs": {Data: []byte("module.exports = 1\n")},
	}
	for _, tc := range []struct {
		cmd, want string // want: a part of the SG3001 message, "" for none
	}{
		{"node server.js", "server.js listens"},
		{"node migrate.js", ""},
		{"python3 app.py", "app.py listens"},
		{"python3 seed.py", ""},
		{"go run ./cmd/api", "cmd/api/main.go listens"},
		{"go run ./cmd/tool", ""},
		{"npm run api", "package.json script api"},
		{"yarn serve:prod", "server.js listens"},
		{"npm run db:migrate", ""},
		{"ruby worker/poll.rb", "poll.rb listens"},
		{"node scripts/server.cjs", ""},             // read: nothing keeps it running
		{"node dist/server.js", "may not end"},      // not at hand
		{"python tools/report.py", ""},              // not at hand, not named like a server
		{"timeout 60 node server.js", ""},           // ends at the limit
		{"cd web && node server.js", "may not end"}, // web/server.js is not read
	} {
		fs, err := analyze.Analyze([]byte(tc.cmd), analyze.WithFiles(dir))
		if err != nil {
			t.Fatalf("%s: %v", tc.cmd, err)
		}
		got := ""
		for _, f := range fs {
			if f.Rule == "SG3001" {
				got = f.Message
			}
		}
		switch {
		case tc.want == "" && got != "":
			t.Errorf("%s: %s; want no SG3001", tc.cmd, got)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("%s: %q; want SG3001 saying %q", tc.cmd, got, tc.want)
		}
	}
	// Without the directory, only a file named like a server may not end.
	fs, _ := analyze.Analyze([]byte("node server.js"))
	if len(fs) != 1 || !strings.Contains(fs[0].Message, "may not end") {
		t.Errorf("node server.js without files: %v", fs)
	}
}
