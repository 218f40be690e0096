package main

import (
	"fmt"
	"strconv"
	"strings"
)

// flagSet parses GNU-style flags the way github.com/spf13/pflag did for
// shguard, with the same messages and the same --help layout: --name=value,
// --name value, -f value, -fvalue, -f=value, grouped bools (-wf json), bools
// as --fix or --fix=false, operands between flags, and "--".
//
// It exists for start-up time. `shguard hook` runs before every shell
// command of an agent, and every package the binary links is initialised
// at every start: pflag imports package net (for its IP flags), whose
// initialisation and code paged in cost the hook about a fifth of a
// millisecond, and whose cgo resolver made a default (cgo) build a
// dynamically linked program that pays the loader too (docs/benchmarks.md).
// cmd/shexec has a parser of the same kind for the same reason.
type flagSet struct {
	name    string
	flags   []*flagDef // in definition order, as --help lists them
	byName  map[string]*flagDef
	byShort map[byte]*flagDef
	args    []string
	changed map[string]bool
}

// flagValue is a flag's value: flag.Value plus the type name --help shows.
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
	return &flagSet{name: name, byName: map[string]*flagDef{}, byShort: map[byte]*flagDef{}, changed: map[string]bool{}}
}

// varP defines a flag; short is its one-letter shorthand ("" for none).
func (f *flagSet) varP(v flagValue, name, short, usage string) {
	d := &flagDef{name: name, usage: usage, value: v, defValue: v.String()}
	f.flags = append(f.flags, d)
	f.byName[name] = d
	if short != "" {
		d.short = short[0]
		f.byShort[d.short] = d
	}
}

func (f *flagSet) Bool(name string, value bool, usage string) *bool {
	return f.BoolP(name, "", value, usage)
}

func (f *flagSet) BoolP(name, short string, value bool, usage string) *bool {
	p := new(bool)
	*p = value
	f.varP((*boolValue)(p), name, short, usage)
	return p
}

func (f *flagSet) String(name, value, usage string) *string {
	return f.StringP(name, "", value, usage)
}

func (f *flagSet) StringP(name, short, value, usage string) *string {
	p := new(string)
	*p = value
	f.varP((*stringValue)(p), name, short, usage)
	return p
}

// StringSliceP is a repeatable flag whose values are kept as given; the
// caller splits them at commas (pflag split them as CSV, which only
// differs for values with double quotes, which no rule list has).
func (f *flagSet) StringSliceP(name, short string, usage string) *[]string {
	p := new([]string)
	f.varP((*sliceValue)(p), name, short, usage)
	return p
}

// Changed reports whether the flag was set on the command line.
func (f *flagSet) Changed(name string) bool { return f.changed[name] }

// Args returns the operands.
func (f *flagSet) Args() []string { return f.args }

// NArg is the number of operands.
func (f *flagSet) NArg() int { return len(f.args) }

// Arg is operand i, or "".
func (f *flagSet) Arg(i int) string {
	if i < 0 || i >= len(f.args) {
		return ""
	}
	return f.args[i]
}

// Parse parses args: flags and operands in any order, up to "--", after
// which everything is an operand. "-" is an operand (stdin).
func (f *flagSet) Parse(args []string) error {
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
func (f *flagSet) parseLong(a string, rest []string) ([]string, error) {
	name, value, hasValue := strings.Cut(a[2:], "=")
	if name == "" || name[0] == '-' {
		return rest, fmt.Errorf("bad flag syntax: %s", a)
	}
	d := f.byName[name]
	if d == nil {
		return rest, fmt.Errorf("unknown flag: --%s", name)
	}
	if !hasValue {
		switch {
		case d.isBool():
			value = "true"
		case len(rest) > 0:
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
func (f *flagSet) parseShorts(a string, rest []string) ([]string, error) {
	for shorts := a[1:]; shorts != ""; {
		c := shorts[0]
		d := f.byShort[c]
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

func (f *flagSet) set(d *flagDef, value string) error {
	if err := d.value.Set(value); err != nil {
		spelled := "--" + d.name
		if d.short != 0 {
			spelled = "-" + string(d.short) + ", " + spelled
		}
		return fmt.Errorf("invalid argument %q for %q flag: %v", value, spelled, err)
	}
	f.changed[d.name] = true
	return nil
}

func (d *flagDef) isBool() bool {
	_, ok := d.value.(*boolValue)
	return ok
}

// FlagUsages lists the flags in definition order, in pflag's layout: the
// usage texts start in one column, continuation lines indented to it, a
// default shown when it is not the zero value.
func (f *flagSet) FlagUsages() string {
	heads := make([]string, len(f.flags))
	width := 0
	for i, d := range f.flags {
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
	for i, d := range f.flags {
		usage := d.usage
		switch {
		case d.defValue == "" || d.defValue == "false" || d.defValue == "[]":
		case d.value.Type() == "string":
			usage += fmt.Sprintf(" (default %q)", d.defValue)
		default:
			usage += " (default " + d.defValue + ")"
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

// sliceValue collects every value given; pflag called the type "strings".
type sliceValue []string

func (s *sliceValue) String() string     { return "[" + strings.Join(*s, ",") + "]" }
func (s *sliceValue) Type() string       { return "strings" }
func (s *sliceValue) Set(v string) error { *s = append(*s, v); return nil }
