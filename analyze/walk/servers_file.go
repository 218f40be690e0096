package walk

import (
	"encoding/json"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/shguard/shguard/analyze/knowledge"
	"github.com/shguard/shguard/internal/lazy"
	"mvdan.cc/sh/v3/syntax"
)

// A server started by its file (`node server.js`, `python app.py`, `go
// run ./cmd/server`, `npm run api` of a package.json script `node
// api/index.js`) never ends because of what the file says: it listens on
// a port (`app.listen(3000)`, `uvicorn.run(app)`, `http.ListenAndServe`),
// or keeps a timer or an endless loop running. The command line does not
// show it; the file does, where it is at hand. The analysis reads it
// through WithFiles, the directory the command will run in, which the
// callers that know it fill in (the hook from the agent's cwd, shexec
// from its own, the linter from the script's directory); without it, or
// without the file, a file named like a server (server.js, app.py,
// ./cmd/server) "may not end".

// maxRead bounds what is read of one file: a server's listen call is in
// its first hundred kilobytes or not found.
const maxRead = 128 << 10

// listenPattern finds what keeps a program of each language running:
// listening on a port or socket, serving, an endless loop or timer.
//
// Compiled on first use, not at start-up: the hook starts before every
// agent command and most commands run no script file.
var listenPattern = lazy.Value[map[string]*regexp.Regexp]{Build: func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"js":  regexp.MustCompile(`\.listen\(|createServer\(|Bun\.serve\(|Deno\.serve\(|\bserve\(\s*\{|new WebSocketServer\(|setInterval\(|\.watch\(|fastify\(\)[\s\S]*\.listen|app\.start\(`),
		"py":  regexp.MustCompile(`\b(app|application|server|api|site)\.run\(|uvicorn\.run\(|serve_forever\(|run_forever\(|run_app\(|HTTPServer\(|TCPServer\(|waitress\.serve\(|serve\(app|while True:|\.polling\(|\.infinity_polling\(|socketio\.run\(|app\.launch\(|demo\.launch\(|mainloop\(`),
		"go":  regexp.MustCompile(`ListenAndServe|net\.Listen\(|\.Serve\(|\.Run\(\s*(":|fmt|addr|os\.Getenv|\))|\.Start\(\s*":|\.Listen\(\s*":|select\s*\{\s*\}`),
		"rb":  regexp.MustCompile(`run!|WEBrick|TCPServer\.new|loop do|Rack::Handler|Puma::`),
		"php": regexp.MustCompile(`stream_socket_server|socket_listen|->run\(\)|Swoole|React\\`),
	}
}}

// FileServerKind says whether the command runs a file whose content keeps
// it running, by reading it from fsys: "(a server: F listens)", "(may
// not end: F is not at hand)" for a file named like a server that cannot
// be read, or "".
func FileServerKind(r knowledge.Resolved, fsys fs.FS) string {
	return fileServer(r, fsys, 0)
}

func fileServer(r knowledge.Resolved, fsys fs.FS, depth int) string {
	if r.Timeout || depth > 2 {
		return ""
	}
	args := knowledge.ArgvOf(r)
	switch r.Name {
	case "node", "nodejs", "ts-node", "tsx", "bun", "deno":
		script := scriptOperand(args, "-r --require --import --loader -e --eval -p --print --env-file")
		if r.Name == "bun" && path.Ext(script) == "" {
			return packageScriptServer(r, fsys, depth) // bun run dev, bun start
		}
		return scriptServer(script, "js", fsys)
	case "python", "python3", "python2", "pypy3":
		for i, a := range args {
			if a == "-m" || a == "-c" {
				if a == "-m" && i+1 < len(args) && path.Ext(args[i+1]) == "" {
					return scriptServer(strings.ReplaceAll(args[i+1], ".", "/")+".py", "py", fsys)
				}
				return ""
			}
		}
		return scriptServer(scriptOperand(args, "-W -X"), "py", fsys)
	case "ruby":
		return scriptServer(scriptOperand(args, "-r -I -e"), "rb", fsys)
	case "php":
		if args.Has("-S", "-r") {
			return ""
		}
		return scriptServer(scriptOperand(args, "-c -d"), "php", fsys)
	case "go":
		if first, rest := knowledge.FirstWord(args); first == "run" {
			return goRunServer(rest, fsys)
		}
	case "npm", "yarn", "pnpm":
		return packageScriptServer(r, fsys, depth)
	}
	return ""
}

// scriptOperand is the script a language runtime runs: its first operand
// that is no option, skipping the values of the options that take one.
func scriptOperand(args knowledge.Argv, valued string) string {
	takes := strings.Fields(valued)
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "run" && i == 0:
			continue // bun run x.ts, deno run x.ts
		case strings.HasPrefix(a, "-"):
			for _, t := range takes {
				if a == t {
					i++
				}
			}
		default:
			return a
		}
	}
	return ""
}

// scriptServer reads the script and looks for what keeps it running.
func scriptServer(name, lang string, fsys fs.FS) string {
	if name == "" || strings.ContainsAny(name, "$`*?") {
		return ""
	}
	data, ok := readHead(fsys, name)
	switch {
	case ok && listenPattern.Get()[lang].Match(data):
		return "(a server: " + name + " listens)"
	case ok:
		return "" // read, and nothing in it keeps it running
	case serverLikeName(name):
		return "(may not end: " + name + " is not at hand to read)"
	}
	return ""
}

// goRunServer reads the files or the package directory `go run` builds.
func goRunServer(rest knowledge.Argv, fsys fs.FS) string {
	var files []string
	pkg := ""
	for _, a := range rest {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if strings.HasSuffix(a, ".go") {
			files = append(files, a)
			continue
		}
		pkg = a
		break
	}
	if pkg != "" {
		dir := path.Clean(strings.TrimPrefix(pkg, "./"))
		if fsys != nil && fs.ValidPath(dir) {
			if es, err := fs.ReadDir(fsys, dir); err == nil {
				for _, e := range es {
					if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
						files = append(files, path.Join(dir, n))
					}
				}
			}
		}
		if len(files) == 0 {
			if serverLikeName(pkg) {
				return "(may not end: " + pkg + " is not at hand to read)"
			}
			return ""
		}
	}
	for _, f := range files {
		if data, ok := readHead(fsys, f); ok && listenPattern.Get()["go"].Match(data) {
			return "(a server: " + f + " listens)"
		}
	}
	return ""
}

// packageScriptServer reads the package.json script `npm run X` (`npm
// start`, `yarn X`, `pnpm X`, `bun run X`) runs and judges its commands.
func packageScriptServer(r knowledge.Resolved, fsys fs.FS, depth int) string {
	args := knowledge.ArgvOf(r)
	first, rest := knowledge.FirstWord(args)
	name := first
	switch first {
	case "run", "run-script":
		name, _ = knowledge.FirstWord(rest)
	case "start", "test":
	default:
		if r.Name == "npm" {
			return "" // npm needs run for other scripts
		}
	}
	if name == "" {
		return ""
	}
	data, ok := readHead(fsys, "package.json")
	if !ok {
		return ""
	}
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	if json.Unmarshal(data, &pkg) != nil {
		return ""
	}
	script, ok := pkg.Scripts[name]
	if !ok {
		return ""
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(script), "")
	if err != nil {
		return ""
	}
	what := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if ce, ok := n.(*syntax.CallExpr); ok && what == "" && len(ce.Args) > 0 {
			inner := knowledge.Resolve(ce.Args)
			if k := knowledge.EndlessKind(inner); k != "" {
				what = k
			} else if k := fileServer(inner, fsys, depth+1); k != "" {
				what = k
			}
		}
		return what == ""
	})
	if what == "" {
		return ""
	}
	return "(its package.json script " + name + ": " + strings.Trim(what, "()") + ")"
}

// FilesAt is fsys for a command at offset off of src, or nil where the
// script may have changed directory before it (cd, pushd: the walk does
// not follow the working directory, so the file named is not known).
func FilesAt(fsys fs.FS, src []byte, off int) fs.FS {
	if off > len(src) || off < 0 {
		return nil
	}
	before := string(src[:off])
	if strings.Contains(before, "cd ") || strings.Contains(before, "pushd") || strings.Contains(before, "cd\t") {
		return nil
	}
	return fsys
}

// readHead reads the first maxRead bytes of a file of fsys.
func readHead(fsys fs.FS, name string) ([]byte, bool) {
	name = path.Clean(strings.TrimPrefix(name, "./"))
	if fsys == nil || !fs.ValidPath(name) {
		return nil, false
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	buf := make([]byte, maxRead)
	n, _ := f.Read(buf)
	for n < maxRead {
		m, err := f.Read(buf[n:])
		n += m
		if err != nil || m == 0 {
			break
		}
	}
	return buf[:n], n > 0
}

// serverLikeName reports a script or package path named like a server's
// entry point: server.js, app.py, api/main.go, ./cmd/server, serve.ts.
func serverLikeName(p string) bool {
	for _, part := range strings.Split(strings.TrimSuffix(p, path.Ext(p)), "/") {
		if serverWords.Has(strings.ToLower(part)) {
			return true
		}
	}
	return false
}

var serverWords = knowledge.SetOf(`server serve app api web webapp backend devserver dev-server http-server wsgi asgi`)
