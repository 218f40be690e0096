package knowledge

import (
	"strings"
)

// What runs, not how it is spelled: a foreground server started through a
// runner (`uv run uvicorn app:app`, `poetry run flask run`, `bundle exec
// rails s`, `pnpm exec vite`, `npm exec -- vite`) is the program the
// runner runs, and a JVM build tool runs the application with some goals
// (`mvn spring-boot:run`, `./gradlew bootRun`). resolve already sees
// through environment assignments, wrappers (env, nice, nohup…) and paths
// (`node_modules/.bin/vite` is vite).

// runners run their arguments as a command after a subcommand.
var runners = table[[]string]{
	{"uv", []string{"run"}}, {"poetry", []string{"run"}}, {"pipenv", []string{"run"}},
	{"pdm", []string{"run"}}, {"hatch", []string{"run"}}, {"rye", []string{"run"}},
	{"bundle", []string{"exec"}}, {"npm", []string{"exec"}}, {"bun", []string{"x"}},
	{"pnpm", []string{"exec", "dlx"}}, {"yarn", []string{"exec", "dlx"}},
}

// runnerInner is the command a runner runs, if r is one.
func runnerInner(r Resolved) (Resolved, bool) {
	subs, ok := runners.of(r.Name)
	if !ok {
		return Resolved{}, false
	}
	for i, a := range r.Args {
		v := WordLit(a)
		if strings.HasPrefix(v, "-") {
			continue // the runner's options (uv run --with x … is rare enough)
		}
		for _, s := range subs {
			if v == s {
				rest := r.Args[i+1:]
				if len(rest) > 0 && WordLit(rest[0]) == "--" {
					rest = rest[1:]
				}
				inner := Resolve(rest)
				return inner, inner.Name != ""
			}
		}
		return Resolved{}, false
	}
	return Resolved{}, false
}

// serveGoals are the build tool goals and tasks that run the application
// until it is stopped.
var serveGoals = table[[]string]{
	{"mvn", []string{"spring-boot:run", "quarkus:dev", "jetty:run", "tomcat7:run", "tomcat:run", "liberty:dev", "micronaut:run", "exec:java", "appengine:run"}},
	{"gradle", []string{"bootRun", "quarkusDev", "run", "appengineRun", "jettyRun", "tomcatRun"}},
	{"sbt", []string{"run", "~run", "~reStart"}},
	{"lein", []string{"run", "ring"}},
	{"dotnet", []string{"run"}},
	{"symfony", []string{"server:start"}},
}

// buildGoal reports a build tool run with a goal that serves.
func buildGoal(r Resolved) string {
	name := r.Name
	switch name {
	case "mvnw":
		name = "mvn"
	case "gradlew":
		name = "gradle"
	}
	goals, ok := serveGoals.of(name)
	if !ok {
		return ""
	}
	for _, a := range r.Args {
		v := WordLit(a)
		for _, g := range goals {
			if v == g || strings.HasSuffix(v, ":"+g) && name == "gradle" {
				return "(runs the application until stopped)"
			}
		}
	}
	return ""
}

// script2 is the task name after `deno task`.
func script2(args Argv) string {
	for i, a := range args {
		if a == "task" && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}
