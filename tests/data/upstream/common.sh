# What the scripts of this folder share; sourced in the folder they build
# in: git with fixed names and dates (the same commit ids on every run),
# src NAME, a C file of 40 distinct lines; and repo NAME..., the repository
# they all build.
export GIT_CONFIG_NOSYSTEM=1 HOME="$PWD" GIT_AUTHOR_NAME=Dev GIT_AUTHOR_EMAIL=dev@example.org \
	GIT_COMMITTER_NAME=Dev GIT_COMMITTER_EMAIL=dev@example.org \
	GIT_AUTHOR_DATE='2024-01-02T03:04:05Z' GIT_COMMITTER_DATE='2024-01-02T03:04:05Z'
g() { git -c init.defaultBranch=main -c commit.gpgsign=false "$@"; }
src() { # NAME: 40 distinct lines
	awk -v n="$1" 'BEGIN { printf "/* %s */\n", n; for (i = 1; i <= 40; i++) printf "int %s_v%d = %d;\n", n, i, i * 7 }'
}
repo() { # NAME...: make the repository r here and enter it, with src NAME as NAME.c for each
	g init -q r
	cd r
	for f in "$@"; do src "$f" > "$f.c"; done
}
