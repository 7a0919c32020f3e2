# What the scripts of this folder share; sourced in the folder they build
# in: git with fixed names and dates (the same commit ids on every run),
# src NAME, a C file of 40 distinct lines; and repo NAME..., the repository
# they all build. Sourced with $here set to this folder.
. "$here/../../e2e/git_env.sh"
src() { # NAME: 40 distinct lines
	awk -v n="$1" 'BEGIN { printf "/* %s */\n", n; for (i = 1; i <= 40; i++) printf "int %s_v%d = %d;\n", n, i, i * 7 }'
}
repo() { # NAME...: make the repository r here and enter it, with src NAME as NAME.c for each
	g init -q r
	cd r
	for f in "$@"; do src "$f" > "$f.c"; done
}
