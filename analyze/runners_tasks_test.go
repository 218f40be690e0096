package analyze

import (
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func resolveText(t *testing.T, cmd string) resolved {
	t.Helper()
	f, err := parse([]byte(cmd), syntax.LangBash)
	if err != nil {
		t.Fatal(err)
	}
	return resolve(f.Stmts[0].Cmd.(*syntax.CallExpr).Args)
}

// A task runner's kill leaves what its task file runs (see
// runners_tasks.go); a runner that execs its command is that command, and
// a look at the runner's version or task list runs nothing.
func TestScriptRunnerTasks(t *testing.T) {
	for cmd, want := range map[string]bool{
		"make dev":                   true,
		"make -C web -j4 serve":      true,
		"gmake run":                  true,
		"make -n dev":                false,
		"make --version":             false,
		"rake serve":                 true,
		"rake -T":                    false,
		"bundle exec rake serve":     true,
		"bundle exec rails server":   false,
		"invoke serve":               true,
		"inv --list":                 false,
		"poetry run invoke serve":    true,
		"poetry run uvicorn app:app": false,
		"pipenv run python app.py":   false,
		"cargo run --release":        false,
		"java -jar app.jar":          false,
	} {
		if apart, _ := scriptRunner(resolveText(t, cmd)); apart != want {
			t.Errorf("scriptRunner(%q) leaves its work: %v, want %v", cmd, apart, want)
		}
	}
}

// The targets of a task runner are its operands, not its options' values
// nor make's variable assignments; rake's namespaces and arguments split.
func TestTaskNames(t *testing.T) {
	for cmd, want := range map[string]string{
		"make -C web -j 4 -f dev.mk serve": "serve",
		"make PORT=8080 dev":               "dev",
		"make -j dev":                      "dev",
		"rake 'serve[4000]'":               "serve",
		"rake server:start":                "server start",
		"invoke -c tasks serve":            "serve",
	} {
		got := ""
		for i, n := range taskNames(resolveText(t, cmd)) {
			if i > 0 {
				got += " "
			}
			got += n
		}
		if got != want {
			t.Errorf("taskNames(%q) = %q, want %q", cmd, got, want)
		}
	}
}
