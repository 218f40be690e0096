//go:build linux || darwin || freebsd

package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// flagSet parses GNU-style flags (--name=value, --name value, -c, --), the
// part of github.com/spf13/pflag that shexec uses, with the same messages.
//
// It exists for start-up time: pflag imports package net, and net makes a
// default (cgo) build of shexec a dynamically linked program, which costs
// the loader about a millisecond at every start; shexec is a drop-in
// `bash -c`, started once per command, and that millisecond was a fifth of
// its whole cost over `bash -c true`. Without net the default build is a
// static binary.
type flagSet struct {
	name          string
	interspersed  bool
	flags         []*flagDef
	byName        map[string]*flagDef
	byShort       map[byte]*flagDef
	args          []string
	changedByName map[string]bool
}

// flagValue is a flag's value, as in pflag (and flag.Value plus Type).
type flagValue interface {
	String() string
	Set(string) error
	Type() string
}

type flagDef struct {
	name, usage string
	short       byte
	value       flagValue
	defValue    string
}

func newFlagSet(name string) *flagSet {
	return &flagSet{name: name, interspersed: true, byName: map[string]*flagDef{}, byShort: map[byte]*flagDef{}, changedByName: map[string]bool{}}
}

// SetInterspersed(false) makes the first operand end the flags, as bash
// does for `bash -c CMD NAME ARGS`.
func (f *flagSet) SetInterspersed(on bool) { f.interspersed = on }

// Var defines a flag with a value of the caller's type.
func (f *flagSet) Var(v flagValue, name, usage string) { f.VarP(v, name, "", usage) }

// VarP is Var with a one-letter shorthand ("" for none).
func (f *flagSet) VarP(v flagValue, name, short, usage string) {
	d := &flagDef{name: name, usage: usage, value: v, defValue: v.String()}
	f.flags = append(f.flags, d)
	f.byName[name] = d
	if short != "" {
		d.short = short[0]
		f.byShort[d.short] = d
	}
}

func (f *flagSet) BoolVar(p *bool, name string, value bool, usage string) {
	*p = value
	f.Var((*boolValue)(p), name, usage)
}

func (f *flagSet) Bool(name string, value bool, usage string) *bool {
	return f.BoolP(name, "", value, usage)
}

func (f *flagSet) BoolP(name, short string, value bool, usage string) *bool {
	p := new(bool)
	*p = value
	f.VarP((*boolValue)(p), name, short, usage)
	return p
}

func (f *flagSet) StringVar(p *string, name, value, usage string) {
	*p = value
	f.Var((*stringValue)(p), name, usage)
}

func (f *flagSet) String(name, value, usage string) *string {
	p := new(string)
	f.StringVar(p, name, value, usage)
	return p
}

func (f *flagSet) Int(name string, value int, usage string) *int {
	p := new(int)
	*p = value
	f.Var((*intValue)(p), name, usage)
	return p
}

// Changed reports whether the flag was set on the command line.
func (f *flagSet) Changed(name string) bool { return f.changedByName[name] }

// Args returns the operands.
func (f *flagSet) Args() []string { return f.args }

// Parse parses args: flags, then operands ("--" ends the flags; without
// interspersing, so does the first operand).
func (f *flagSet) Parse(args []string) error {
	for len(args) > 0 {
		a := args[0]
		args = args[1:]
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
			name, value, hasValue := strings.Cut(a[2:], "=")
			d := f.byName[name]
			if d == nil || name == "" {
				return fmt.Errorf("unknown flag: --%s", name)
			}
			var err error
			if args, err = f.set(d, "--"+name, value, hasValue, args); err != nil {
				return err
			}
		default:
			for i := 1; i < len(a); i++ {
				d := f.byShort[a[i]]
				if d == nil {
					return fmt.Errorf("unknown shorthand flag: %q in %s", a[i], a)
				}
				// -xVALUE, -x=VALUE and -x VALUE for a flag that takes a
				// value; bools may be grouped (-ch).
				value, hasValue := a[i+1:], i+1 < len(a)
				if _, isBool := d.value.(*boolValue); isBool && (!hasValue || value[0] != '=') {
					hasValue = false
				} else {
					i = len(a)
				}
				value = strings.TrimPrefix(value, "=")
				var err error
				if args, err = f.set(d, "-"+string(d.short), value, hasValue, args); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// set gives d its value: the inline one, else (except for a bool) the next
// argument, even if it starts with '-' (`--timeout -1` is a negative
// duration, refused as such).
func (f *flagSet) set(d *flagDef, spelled, value string, hasValue bool, rest []string) ([]string, error) {
	if !hasValue {
		if _, isBool := d.value.(*boolValue); isBool {
			value = "true"
		} else if len(rest) == 0 {
			return rest, fmt.Errorf("flag needs an argument: %s", spelled)
		} else {
			value, rest = rest[0], rest[1:]
		}
	}
	if err := d.value.Set(value); err != nil {
		return rest, fmt.Errorf("invalid argument %q for %q flag: %v", value, spelled, err)
	}
	f.changedByName[d.name] = true
	return rest, nil
}

// OwnFlags returns how many words at the start of args are this set's own
// long flags (--name, --name=value, --name value): shexec's settings come
// first, and the first word that is not one of them starts the shell's
// arguments, whatever it looks like (-c, -lc, --norc, a file).
func (f *flagSet) OwnFlags(args []string) int {
	i := 0
	for i < len(args) {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			break
		}
		name, _, hasValue := strings.Cut(a[2:], "=")
		d := f.byName[name]
		if d == nil {
			break
		}
		i++
		if _, isBool := d.value.(*boolValue); !isBool && !hasValue && i < len(args) {
			i++
		}
	}
	return i
}

// SetFromEnv sets a flag from an environment variable; a flag also given
// on the command line is set again by Parse, so the command line wins.
func (f *flagSet) SetFromEnv(name, value string) error {
	d := f.byName[name]
	if d == nil {
		return fmt.Errorf("unknown flag: --%s", name)
	}
	if err := d.value.Set(value); err != nil {
		return fmt.Errorf("invalid value %q: %v", value, err)
	}
	f.changedByName[name] = true
	return nil
}

// FlagUsages lists the flags in pflag's layout and order (by name).
func (f *flagSet) FlagUsages() string {
	flags := slices.SortedFunc(slices.Values(f.flags), func(a, b *flagDef) int { return strings.Compare(a.name, b.name) })
	lines := make([]string, len(flags))
	width := 0
	for i, d := range flags {
		l := "      --" + d.name
		if d.short != 0 {
			l = "  -" + string(d.short) + ", --" + d.name
		}
		if t := d.value.Type(); t != "bool" {
			l += " " + t
		}
		lines[i] = l
		width = max(width, len(l))
	}
	var b strings.Builder
	for i, d := range flags {
		usage := d.usage
		if !isZeroDefault(d) {
			if d.value.Type() == "string" {
				usage += fmt.Sprintf(" (default %q)", d.defValue)
			} else {
				usage += " (default " + d.defValue + ")"
			}
		}
		pad := strings.Repeat(" ", width+3)
		b.WriteString(lines[i] + strings.Repeat(" ", width-len(lines[i])+3))
		b.WriteString(strings.ReplaceAll(usage, "\n", "\n"+pad) + "\n")
	}
	return b.String()
}

func isZeroDefault(d *flagDef) bool {
	switch d.defValue {
	case "", "0", "false", "<nil>", "[]":
		return true
	}
	return false
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
