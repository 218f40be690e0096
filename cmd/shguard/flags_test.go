package main

import (
	"fmt"
	"strings"
	"testing"
)

// testFlags is a set with each kind of flag shguard defines.
func testFlags() (*flagSet, func() string) {
	fs := newFlagSet("t")
	cmd := fs.StringP("command", "c", "", "a command")
	format := fs.StringP("format", "f", "text", "a format")
	fix := fs.Bool("fix", false, "fix")
	write := fs.BoolP("write", "w", false, "write")
	excl := fs.StringSliceP("exclude", "e", "rules")
	style := fs.String("style", "default", "a style\non two lines")
	state := func() string {
		return fmt.Sprintf("c=%q f=%q fix=%v w=%v e=%q style=%q args=%q", *cmd, *format, *fix, *write, *excl, *style, fs.Args())
	}
	return fs, state
}

// The spellings pflag accepted, and its messages for the ones it refused.
func TestFlagParse(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // the state after parsing, or the error
	}{
		{nil, `c="" f="text" fix=false w=false e=[] style="default" args=[]`},
		{[]string{"-c", "x &"}, `c="x &" f="text" fix=false w=false e=[] style="default" args=[]`},
		{[]string{"-cx"}, `c="x" f="text" fix=false w=false e=[] style="default" args=[]`},
		{[]string{"-c=x"}, `c="x" f="text" fix=false w=false e=[] style="default" args=[]`},
		{[]string{"--command=x=y"}, `c="x=y" f="text" fix=false w=false e=[] style="default" args=[]`},
		{[]string{"--command", "-w"}, `c="-w" f="text" fix=false w=false e=[] style="default" args=[]`},
		{[]string{"-fjson", "a.sh"}, `c="" f="json" fix=false w=false e=[] style="default" args=["a.sh"]`},
		{[]string{"-wf", "json"}, `c="" f="json" fix=false w=true e=[] style="default" args=[]`},
		{[]string{"-wfjson"}, `c="" f="json" fix=false w=true e=[] style="default" args=[]`},
		{[]string{"-w=false", "--fix=true"}, `c="" f="text" fix=true w=false e=[] style="default" args=[]`},
		{[]string{"--fix", "a.sh"}, `c="" f="text" fix=true w=false e=[] style="default" args=["a.sh"]`},
		{[]string{"a.sh", "-f", "gcc", "-", "b.sh"}, `c="" f="gcc" fix=false w=false e=[] style="default" args=["a.sh" "-" "b.sh"]`},
		{[]string{"--", "-c", "--fix"}, `c="" f="text" fix=false w=false e=[] style="default" args=["-c" "--fix"]`},
		{[]string{"-c", "x", "--"}, `c="x" f="text" fix=false w=false e=[] style="default" args=[]`},
		{[]string{"", "a"}, `c="" f="text" fix=false w=false e=[] style="default" args=["" "a"]`},
		{[]string{"-e", "SG1,SG2", "--exclude=SG3", "-eSG4"}, `c="" f="text" fix=false w=false e=["SG1,SG2" "SG3" "SG4"] style="default" args=[]`},
		{[]string{"-f"}, `flag needs an argument: 'f' in -f`},
		{[]string{"-wf"}, `flag needs an argument: 'f' in -f`},
		{[]string{"--format"}, `flag needs an argument: --format`},
		{[]string{"-x"}, `unknown shorthand flag: 'x' in -x`},
		{[]string{"-wxy"}, `unknown shorthand flag: 'x' in -xy`},
		{[]string{"--nope=1"}, `unknown flag: --nope`},
		{[]string{"---x"}, `bad flag syntax: ---x`},
		{[]string{"--=x"}, `bad flag syntax: --=x`},
		{[]string{"--fix=maybe"}, `invalid argument "maybe" for "--fix" flag: strconv.ParseBool: parsing "maybe": invalid syntax`},
		{[]string{"-w=bad"}, `invalid argument "bad" for "-w, --write" flag: strconv.ParseBool: parsing "bad": invalid syntax`},
	} {
		fs, state := testFlags()
		got := ""
		if err := fs.Parse(tc.args); err != nil {
			got = err.Error()
		} else {
			got = state()
		}
		if got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.args, got, tc.want)
		}
	}
}

func TestFlagChanged(t *testing.T) {
	fs, _ := testFlags()
	if err := fs.Parse([]string{"-f", "text", "--fix=false"}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"format": true, "fix": true, "command": false, "style": false} {
		if fs.Changed(name) != want {
			t.Errorf("Changed(%q) = %v", name, !want)
		}
	}
}

// --help lists the flags in definition order, in pflag's layout.
func TestFlagUsages(t *testing.T) {
	fs, _ := testFlags()
	want := strings.Join([]string{
		`  -c, --command string    a command`,
		`  -f, --format string     a format (default "text")`,
		`      --fix               fix`,
		`  -w, --write             write`,
		`  -e, --exclude strings   rules`,
		`      --style string      a style`,
		`                          on two lines (default "default")`,
		``}, "\n")
	if got := fs.FlagUsages(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
