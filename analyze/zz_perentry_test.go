package analyze_test

import (
	"bytes"
	"fmt"
	"sort"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/shguard/shguard/analyze"
)

func TestZZPerEntry(t *testing.T) {
	in := inputs(&testing.B{}, false)
	type r struct {
		i      int
		pa, an time.Duration
	}
	var rs []r
	var tp, ta time.Duration
	for i, x := range in {
		p := syntax.NewParser(syntax.KeepComments(true), syntax.Variant(x.variant))
		o := []analyze.Option{analyze.WithLang(x.lang)}
		const n = 200
		best := func(f func()) time.Duration {
			b := time.Duration(1 << 62)
			for k := 0; k < 5; k++ {
				s := time.Now()
				for j := 0; j < n; j++ {
					f()
				}
				if d := time.Since(s) / n; d < b {
					b = d
				}
			}
			return b
		}
		pa := best(func() { p.Parse(bytes.NewReader(x.src), "") })
		an := best(func() { analyze.Analyze(x.src, o...) })
		rs = append(rs, r{i, pa, an})
		tp += pa
		ta += an
	}
	fmt.Printf("total parse %v analyze %v ratio %.2f\n", tp, ta, float64(ta)/float64(tp))
	hist := map[int]int{}
	for _, x := range rs {
		hist[int(float64(x.an)/float64(x.pa))]++
	}
	fmt.Println(hist)
	sort.Slice(rs, func(a, b int) bool { return rs[a].an-2*rs[a].pa > rs[b].an-2*rs[b].pa })
	for _, x := range rs[:40] {
		s := string(in[x.i].src)
		if len(s) > 90 {
			s = s[:90]
		}
		fmt.Printf("%6v %6v %.1fx excess %v  %q\n", x.pa, x.an, float64(x.an)/float64(x.pa), x.an-2*x.pa, s)
	}
}
