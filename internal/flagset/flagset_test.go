package flagset

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// durationValue is a caller's own Value type, as shexec's durations are.
type durationValue time.Duration

func (d *durationValue) String() string {
	if *d == 0 {
		return "0"
	}
	return time.Duration(*d).String()
}
func (d *durationValue) Type() string { return "duration" }
func (d *durationValue) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if v < 0 {
		return fmt.Errorf("%q is negative", s)
	}
	*d = durationValue(v)
	return nil
}

// testSet has a flag of each kind, a bool and a string with shorthands.
func testSet() (*Set, func() string) {
	fs := New("t")
	help := fs.BoolP("help", "h", false, "help")
	json := fs.Bool("json", false, "json")
	format := fs.StringP("format", "f", "text", "a format")
	n := fs.Int("n", 7, "a number")
	rules := fs.StringSliceP("exclude", "e", "rules")
	var shell string
	fs.StringVar(&shell, "shell", "bash", "a shell")
	var quiet bool
	fs.BoolVar(&quiet, "quiet", false, "quiet")
	timeout := durationValue(0)
	fs.Var(&timeout, "timeout", "a duration")
	state := func() string {
		return fmt.Sprintf("h=%v json=%v f=%q n=%d e=%q shell=%q quiet=%v timeout=%s args=%q",
			*help, *json, *format, *n, *rules, shell, quiet, timeout.String(), fs.Args())
	}
	return fs, state
}

// pflag's messages, also where the parsers shguard and shexec had before
// this package differed from it.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-hx"}, `unknown shorthand flag: 'x' in -x`},
		{[]string{"-x"}, `unknown shorthand flag: 'x' in -x`},
		{[]string{"---x"}, `bad flag syntax: ---x`},
		{[]string{"--=x"}, `bad flag syntax: --=x`},
		{[]string{"--bogus"}, `unknown flag: --bogus`},
		{[]string{"--help=maybe"}, `invalid argument "maybe" for "-h, --help" flag: strconv.ParseBool: parsing "maybe": invalid syntax`},
		{[]string{"-h=maybe"}, `invalid argument "maybe" for "-h, --help" flag: strconv.ParseBool: parsing "maybe": invalid syntax`},
		{[]string{"-h="}, `unknown shorthand flag: '=' in -=`},
		{[]string{"--json=1", "--timeout", "-1s"}, `invalid argument "-1s" for "--timeout" flag: "-1s" is negative`},
		{[]string{"--n", "x"}, `invalid argument "x" for "--n" flag: strconv.ParseInt: parsing "x": invalid syntax`},
		{[]string{"--n"}, `flag needs an argument: --n`},
		{[]string{"-hf"}, `flag needs an argument: 'f' in -f`},
	} {
		fs, _ := testSet()
		if err := fs.Parse(tc.args); err == nil || err.Error() != tc.want {
			t.Errorf("%q: got %v, want %s", tc.args, err, tc.want)
		}
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		args         []string
		interspersed bool
		want         string
	}{
		{[]string{"a", "--n", "0x10", "-e", "x,y", "b", "-eZ"}, true, `h=false json=false f="text" n=16 e=["x,y" "Z"] shell="bash" quiet=false timeout=0 args=["a" "b"]`},
		{[]string{"-hfjson", "--quiet", "--timeout=1s", "--", "-h"}, true, `h=true json=false f="json" n=7 e=[] shell="bash" quiet=true timeout=1s args=["-h"]`},
		{[]string{"--shell", "-x", "a", "--json"}, false, `h=false json=false f="text" n=7 e=[] shell="-x" quiet=false timeout=0 args=["a" "--json"]`},
		{[]string{"--json=false", "-", "-h"}, false, `h=false json=false f="text" n=7 e=[] shell="bash" quiet=false timeout=0 args=["-" "-h"]`},
		{[]string{"-h=false", "-f=gcc"}, true, `h=false json=false f="gcc" n=7 e=[] shell="bash" quiet=false timeout=0 args=[]`},
	} {
		fs, state := testSet()
		fs.SetInterspersed(tc.interspersed)
		if err := fs.Parse(tc.args); err != nil {
			t.Errorf("%q: %v", tc.args, err)
		} else if got := state(); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.args, got, tc.want)
		}
	}
}

// OwnFlags counts the leading long flags the set knows, with the value a
// non-bool flag takes from the next word; anything else ends them.
func TestOwnFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, 0},
		{[]string{"-c", "true"}, 0},
		{[]string{"--json", "--timeout", "1", "-c", "x"}, 3},
		{[]string{"--timeout=1", "--norc", "-c", "x"}, 1},
		{[]string{"--shell", "--json"}, 2},
		{[]string{"--json", "--shell"}, 2},
		{[]string{"-h", "--json"}, 0},
		{[]string{"--", "--json"}, 0},
	} {
		fs, _ := testSet()
		if got := fs.OwnFlags(tc.args); got != tc.want {
			t.Errorf("OwnFlags(%q) = %d, want %d", tc.args, got, tc.want)
		}
	}
}

// SetFromEnv sets a flag as Changed; the command line wins.
func TestSetFromEnv(t *testing.T) {
	fs, state := testSet()
	if err := fs.SetFromEnv("shell", "dash"); err != nil {
		t.Fatal(err)
	}
	if err := fs.SetFromEnv("quiet", "yes"); err == nil || err.Error() != `invalid value "yes": strconv.ParseBool: parsing "yes": invalid syntax` {
		t.Errorf("SetFromEnv(quiet, yes): %v", err)
	}
	if err := fs.SetFromEnv("nope", "1"); err == nil || err.Error() != "unknown flag: --nope" {
		t.Errorf("SetFromEnv(nope): %v", err)
	}
	if err := fs.SetFromEnv("timeout", "2s"); err != nil {
		t.Fatal(err)
	}
	if err := fs.Parse([]string{"--timeout", "3s"}); err != nil {
		t.Fatal(err)
	}
	want := `h=false json=false f="text" n=7 e=[] shell="dash" quiet=false timeout=3s args=[]`
	if got := state(); got != want || !fs.Changed("shell") || !fs.Changed("timeout") || fs.Changed("json") {
		t.Errorf("got %s (changed: shell %v, timeout %v, json %v)", got, fs.Changed("shell"), fs.Changed("timeout"), fs.Changed("json"))
	}
}

// --help: pflag's layout, in definition order or by name; no default shown
// for a zero one.
func TestFlagUsages(t *testing.T) {
	fs, _ := testSet()
	defined := strings.Join([]string{
		`  -h, --help               help`,
		`      --json               json`,
		`  -f, --format string      a format (default "text")`,
		`      --n int              a number (default 7)`,
		`  -e, --exclude strings    rules`,
		`      --shell string       a shell (default "bash")`,
		`      --quiet              quiet`,
		`      --timeout duration   a duration`,
		``}, "\n")
	if got := fs.FlagUsages(); got != defined {
		t.Errorf("definition order: got\n%s\nwant\n%s", got, defined)
	}
	fs.SortFlags = true
	sorted := strings.Join([]string{
		`  -e, --exclude strings    rules`,
		`  -f, --format string      a format (default "text")`,
		`  -h, --help               help`,
		`      --json               json`,
		`      --n int              a number (default 7)`,
		`      --quiet              quiet`,
		`      --shell string       a shell (default "bash")`,
		`      --timeout duration   a duration`,
		``}, "\n")
	if got := fs.FlagUsages(); got != sorted {
		t.Errorf("by name: got\n%s\nwant\n%s", got, sorted)
	}
}

func TestArgs(t *testing.T) {
	fs, _ := testSet()
	if err := fs.Parse([]string{"a", "-h", "b"}); err != nil {
		t.Fatal(err)
	}
	if fs.NArg() != 2 || fs.Arg(0) != "a" || fs.Arg(1) != "b" || fs.Arg(2) != "" || fs.Arg(-1) != "" {
		t.Errorf("args %q", fs.Args())
	}
}
