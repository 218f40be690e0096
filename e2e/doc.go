// Package e2e drives the real agent programs (Claude Code, Codex, Gemini
// CLI, Copilot CLI, Cline, OpenCode, Qwen Code) with shguard's hook, or
// with `shexec mcp` as an MCP server, against a fake model
// (e2e/fakemodel) that asks for one shell call per case and then ends the
// turn. It is opt-in, because it installs the agents from npm and takes
// minutes:
//
//	SHGUARD_E2E=1 go test ./e2e/
//
// Each run (agent × case × mode) gets a fresh HOME, TMPDIR and project,
// the hook configured exactly as `shguard hook --print-config AGENT`
// prints it, the agent's non-interactive mode and a hard timeout, inside
// its own PID and network namespace (`unshare -p -f --mount-proc -n`):
// the test binary re-executes itself there as the runner (runner.go),
// which serves the fake model on the namespace's loopback, so nothing the
// agent starts outlives the run and ports never collide.
//
// A wrapper named shguard, first on PATH, records the hook's input and
// answer and runs the shguard built from this tree. Each run records what
// the agent ran (the tool results it sent the model), what it printed,
// its wall time and what was left running when it exited; judge.go says
// whether the run ended correctly, and table.go keeps the resulting
// table in docs/agents.md.
//
// Adding an agent is one file (agent_NAME.go: an Agent registered in
// init); adding a case is one row of the table in cases.go.
//
// Environment: SHGUARD_E2E_CACHE (where agents are installed, default
// ~/.cache/shguard-e2e), SHGUARD_E2E_AGENTS and SHGUARD_E2E_CASES (comma
// lists to run a subset), SHGUARD_E2E_MODES (hook,mcp), SHGUARD_E2E_JOBS
// (runs at a time, default 2), SHGUARD_E2E_OUT (keep every run's files
// there), SHGUARD_E2E_UPDATE=1 (rewrite the table in docs/agents.md),
// SHGUARD_E2E_SHGUARD (a shguard to drive instead of this tree's),
// SHGUARD_E2E_KNOWN=1 (CI: only a regression fails, a cell the table
// records as ✅ that fails twice in a row; other differences from the table are
// logged), SHGUARD_E2E_RESULTS=DIR (TestRejudge: judge
// the runs kept in DIR again, without driving the agents).
//
// A run is judged on what it recorded (judge.go): the tool call returned
// within 25 s, the command's output reached the model, its server
// answered during the turn, nothing it started was left running unless
// shexec manages it or the hook's answer names a file holding its pid,
// and a command that needs no change ran unchanged with the hook's advice
// reaching the model. The fake model follows a refusal that spells out
// the command to run instead, once, as a model would.
package e2e
