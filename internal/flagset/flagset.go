// Package flagset parses GNU-style flags the way github.com/spf13/pflag
// does, with pflag's messages and --help layout, for shguard and shexec:
// --name=value, --name value, -f value, -fvalue, -f=value, grouped bools
// (-wf json), bools as --fix or --fix=false, operands between flags (or,
// without interspersing, the first operand ends the flags), and "--".
//
// It exists for start-up time. pflag imports package net (for its IP
// flags): its initialisation and code cost every start, and its cgo
// resolver makes a default (cgo) build a dynamically linked program, which
// pays the loader too. `shguard hook` runs before every shell command of
// an agent and shexec is a drop-in `bash -c`, started once per command
// (docs/benchmarks.md). Only the part of pflag the two commands use is
// here.
package flagset

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Set is a set of flags and, once parsed, the operands.
type Set struct {
	name string
	// SortFlags makes FlagUsages list the flags by name (pflag's default);
	// otherwise they are listed in definition order.
	SortFlags    bool
	interspersed bool
	// flags, in definition order, are looked up by reading them all: a
	// command has a dozen or two, and its process parses one command line
	// (maps of them were a tenth of the instructions `shguard hook` spends
	// outside the analysis).
	flags []*flagDef
	args  []string
}

// Value is a flag's value: flag.Value plus the type name --help shows.
type Value interface {
	String() string
	Set(string) error
	Type() string
}

type flagDef struct {
	name, usage string
	short       byte
	value       Value
	defValue    string
	changed     bool // set on the command line or by SetFromEnv
}

// New returns an empty set that takes operands between flags.
func New(name string) *Set {
	return &Set{name: name, interspersed: true}
}

// byName is the flag called name, or nil.
func (f *Set) byName(name string) *flagDef {
	for _, d := range f.flags {
		if d.name == name {
			return d
		}
	}
	return nil
}

// byShort is the flag whose shorthand is c, or nil.
func (f *Set) byShort(c byte) *flagDef {
	for _, d := range f.flags {
		if d.short == c {
			return d
		}
	}
	return nil
}

// SetInterspersed(false) makes the first operand end the flags, as bash
// does for `bash -c CMD NAME ARGS`.
func (f *Set) SetInterspersed(on bool) { f.interspersed = on }

// Var defines a flag with a value of the caller's type.
func (f *Set) Var(v Value, name, usage string) { f.VarP(v, name, "", usage) }

// VarP is Var with a one-letter shorthand ("" for none).
func (f *Set) VarP(v Value, name, short, usage string) {
	d := &flagDef{name: name, usage: usage, value: v, defValue: v.String()}
	f.flags = append(f.flags, d)
	if short != "" {
		d.short = short[0]
	}
}

func (f *Set) BoolVar(p *bool, name string, value bool, usage string) {
	*p = value
	f.Var((*boolValue)(p), name, usage)
}

func (f *Set) Bool(name string, value bool, usage string) *bool {
	return f.BoolP(name, "", value, usage)
}

func (f *Set) BoolP(name, short string, value bool, usage string) *bool {
	p := new(bool)
	*p = value
	f.VarP((*boolValue)(p), name, short, usage)
	return p
}

func (f *Set) StringVar(p *string, name, value, usage string) {
	*p = value
	f.Var((*stringValue)(p), name, usage)
}

func (f *Set) String(name, value, usage string) *string {
	return f.StringP(name, "", value, usage)
}

func (f *Set) StringP(name, short, value, usage string) *string {
	p := new(string)
	*p = value
	f.VarP((*stringValue)(p), name, short, usage)
	return p
}

// StringSliceP is a repeatable flag whose values are kept as given; the
// caller splits them at commas (pflag split them as CSV, which only
// differs for values with double quotes).
func (f *Set) StringSliceP(name, short string, usage string) *[]string {
	p := new([]string)
	f.VarP((*sliceValue)(p), name, short, usage)
	return p
}

func (f *Set) Int(name string, value int, usage string) *int {
	p := new(int)
	*p = value
	f.Var((*intValue)(p), name, usage)
	return p
}

// Changed reports whether the flag was set, on the command line or by
// SetFromEnv.
func (f *Set) Changed(name string) bool {
	d := f.byName(name)
	return d != nil && d.changed
}

// Args returns the operands.
func (f *Set) Args() []string { return f.args }

// NArg is the number of operands.
func (f *Set) NArg() int { return len(f.args) }

// Arg is operand i, or "".
func (f *Set) Arg(i int) string {
	if i < 0 || i >= len(f.args) {
		return ""
	}
	return f.args[i]
}

// Parse parses args: flags and operands, up to "--", after which
// everything is an operand; without interspersing, the first operand ends
// the flags too. "-" is an operand (stdin).
func (f *Set) Parse(args []string) error {
	for len(args) > 0 {
		a := args[0]
		args = args[1:]
		var err error
		switch {
		case a == "--":
			f.args = append(f.args, args...)
			return nil
		case len(a) < 2 || a[0] != '-':
			f.args = append(f.args, a)
			if !f.interspersed {
				f.args = append(f.args, args...)
				return nil
			}
		case a[1] == '-':
			args, err = f.parseLong(a, args)
		default:
			args, err = f.parseShorts(a, args)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// parseLong parses --name, --name=value or --name value.
func (f *Set) parseLong(a string, rest []string) ([]string, error) {
	name, value, hasValue := strings.Cut(a[2:], "=")
	if name == "" || name[0] == '-' {
		return rest, fmt.Errorf("bad flag syntax: %s", a)
	}
	d := f.byName(name)
	if d == nil {
		return rest, fmt.Errorf("unknown flag: --%s", name)
	}
	if !hasValue {
		switch {
		case d.isBool():
			value = "true"
		case len(rest) > 0:
			// Even if it starts with '-': `--timeout -1` is a negative
			// duration, refused as such.
			value, rest = rest[0], rest[1:]
		default:
			return rest, fmt.Errorf("flag needs an argument: --%s", name)
		}
	}
	return rest, f.set(d, value)
}

// parseShorts parses a group of shorthands: bools (-w), a flag with its
// value attached (-fjson, -f=json) or in the next argument (-f json), or
// bools followed by one such flag (-wf json).
func (f *Set) parseShorts(a string, rest []string) ([]string, error) {
	for shorts := a[1:]; shorts != ""; {
		c := shorts[0]
		d := f.byShort(c)
		if d == nil {
			return rest, fmt.Errorf("unknown shorthand flag: %q in -%s", c, shorts)
		}
		var value string
		switch {
		case len(shorts) > 2 && shorts[1] == '=':
			value, shorts = shorts[2:], ""
		case d.isBool():
			value, shorts = "true", shorts[1:]
		case len(shorts) > 1:
			value, shorts = shorts[1:], ""
		case len(rest) > 0:
			value, rest, shorts = rest[0], rest[1:], ""
		default:
			return rest, fmt.Errorf("flag needs an argument: %q in -%s", c, shorts)
		}
		if err := f.set(d, value); err != nil {
			return rest, err
		}
	}
	return rest, nil
}

func (f *Set) set(d *flagDef, value string) error {
	if err := d.value.Set(value); err != nil {
		spelled := "--" + d.name
		if d.short != 0 {
			spelled = "-" + string(d.short) + ", " + spelled
		}
		return fmt.Errorf("invalid argument %q for %q flag: %v", value, spelled, err)
	}
	d.changed = true
	return nil
}

func (d *flagDef) isBool() bool {
	_, ok := d.value.(*boolValue)
	return ok
}

// OwnFlags returns how many words at the start of args are this set's own
// long flags (--name, --name=value, --name value): for a command whose own
// settings come first, and whose first word that is not one of them starts
// another program's arguments, whatever it looks like (shexec: -c, -lc,
// --norc, a file).
func (f *Set) OwnFlags(args []string) int {
	i := 0
	for i < len(args) {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			break
		}
		name, _, hasValue := strings.Cut(a[2:], "=")
		d := f.byName(name)
		if d == nil {
			break
		}
		i++
		if !d.isBool() && !hasValue && i < len(args) {
			i++
		}
	}
	return i
}

// SetFromEnv sets a flag from an environment variable; a flag also given
// on the command line is set again by Parse, so the command line wins.
func (f *Set) SetFromEnv(name, value string) error {
	d := f.byName(name)
	if d == nil {
		return fmt.Errorf("unknown flag: --%s", name)
	}
	if err := d.value.Set(value); err != nil {
		return fmt.Errorf("invalid value %q: %v", value, err)
	}
	d.changed = true
	return nil
}

// FlagUsages lists the flags in pflag's layout: the usage texts start in
// one column, continuation lines indented to it, a default shown when it
// is not a zero value ("", 0, false, <nil>, []), a string's quoted.
func (f *Set) FlagUsages() string {
	flags := f.flags
	if f.SortFlags {
		flags = slices.SortedFunc(slices.Values(f.flags), func(a, b *flagDef) int { return strings.Compare(a.name, b.name) })
	}
	heads := make([]string, len(flags))
	width := 0
	for i, d := range flags {
		h := "      --" + d.name
		if d.short != 0 {
			h = "  -" + string(d.short) + ", --" + d.name
		}
		if t := d.value.Type(); t != "bool" {
			h += " " + t
		}
		heads[i] = h
		width = max(width, len(h))
	}
	var b strings.Builder
	for i, d := range flags {
		usage := d.usage
		switch d.defValue {
		case "", "0", "false", "<nil>", "[]":
		default:
			if d.value.Type() == "string" {
				usage += fmt.Sprintf(" (default %q)", d.defValue)
			} else {
				usage += " (default " + d.defValue + ")"
			}
		}
		b.WriteString(heads[i] + strings.Repeat(" ", width-len(heads[i])+3))
		b.WriteString(strings.ReplaceAll(usage, "\n", "\n"+strings.Repeat(" ", width+3)) + "\n")
	}
	return b.String()
}

type boolValue bool

func (b *boolValue) String() string { return strconv.FormatBool(bool(*b)) }
func (b *boolValue) Type() string   { return "bool" }
func (b *boolValue) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	*b = boolValue(v)
	return nil
}

type stringValue string

func (s *stringValue) String() string     { return string(*s) }
func (s *stringValue) Type() string       { return "string" }
func (s *stringValue) Set(v string) error { *s = stringValue(v); return nil }

type intValue int

func (i *intValue) String() string { return strconv.Itoa(int(*i)) }
func (i *intValue) Type() string   { return "int" }
func (i *intValue) Set(s string) error {
	v, err := strconv.ParseInt(s, 0, strconv.IntSize)
	if err != nil {
		return err
	}
	*i = intValue(v)
	return nil
}

// sliceValue collects every value given; pflag called the type "strings".
type sliceValue []string

func (s *sliceValue) String() string     { return "[" + strings.Join(*s, ",") + "]" }
func (s *sliceValue) Type() string       { return "strings" }
func (s *sliceValue) Set(v string) error { *s = append(*s, v); return nil }
