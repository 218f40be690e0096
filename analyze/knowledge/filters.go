package knowledge

// IsFilter reports whether the command reads its input (or its files) to
// the end and ends then (see filters): those of the list, and tail
// without an option that follows (-f, -F, --follow, --retry): `npm run
// build 2>&1 | tail -2` ends with the build, `tail -f log` never does
// (serverKind calls it a follower).
func IsFilter(r Resolved) bool {
	if filters.Has(r.Name) {
		return true
	}
	return r.Name == "tail" && !ArgvOf(r).Has("-f", "-F", "--follow", "--retry") && !followCluster(ArgvOf(r))
}

// followCluster reports a cluster of tail's short options with f or F in
// it (`tail -fn 20 log`, `tail -n20 -qF log`).
func followCluster(args Argv) bool {
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && a[1] != '-' {
			for _, c := range a[1:] {
				if c == 'f' || c == 'F' {
					return true
				}
				if c >= '0' && c <= '9' {
					break // -n20f is not a cluster: 20f is n's value
				}
			}
		}
	}
	return false
}
