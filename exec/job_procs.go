//go:build linux || darwin || freebsd

package exec

import "sort"

// Processes lists the live processes of job id (found as Kill finds them:
// recorded pids, the supervisor's subtree, the job's group and JobIDEnv)
// as Leftovers with Action "kept": what a caller that ran a command as a
// job reports when the shell has exited and work it started goes on.
func (s *Store) Processes(id string) ([]Leftover, error) {
	j, err := s.Load(id)
	if err != nil {
		return nil, err
	}
	var out []Leftover
	for _, r := range s.jobProcs(j) {
		info, err := readStat(r.PID)
		if err != nil || info.start != r.Start || info.dead() {
			continue
		}
		out = append(out, Leftover{PID: r.PID, Command: cmdline(info), Descendant: true, Action: "kept", info: info})
	}
	sort.Slice(out, func(a, b int) bool { return out[a].PID < out[b].PID })
	return out, nil
}
