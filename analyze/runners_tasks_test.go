package analyze

import (
	"strings"
	"testing"

	"github.com/shguard/shguard/analyze/dialect"
	"github.com/shguard/shguard/analyze/knowledge"
)

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
		if apart, _ := knowledge.ScriptRunner(resolveText(t, cmd), dialect.ShDialect().CTail == 0); apart != want {
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
		if got := strings.Join(knowledge.TaskNames(resolveText(t, cmd)), " "); got != want {
			t.Errorf("taskNames(%q) = %q, want %q", cmd, got, want)
		}
	}
}
