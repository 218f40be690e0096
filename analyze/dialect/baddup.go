package dialect

// badDupEffect is what a shell does with `>&word` or `<&word` whose word
// names no descriptor: `npm run dev >&/dev/null &`, bash's and zsh's
// short form of `>/dev/null 2>&1`, written for dash or mksh.
type badDupEffect uint8
