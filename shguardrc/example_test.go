package shguardrc_test

import (
	"fmt"

	"github.com/shguard/shguard/shguardrc"
)

// Parse reads the settings of a .shguardrc; rule names become IDs.
func ExampleParse() {
	c, err := shguardrc.Parse([]byte("severity=warning\nexclude=unmanaged-background,SG3001\nshell=zsh\n"))
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Severity, c.Exclude, *c.Lang)
	// Output:
	// warning [SG2001 SG3001] zsh
}
