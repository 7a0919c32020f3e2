#!/usr/bin/env bash
# completion/treedrift.bash: commands, each command's options (from the
# binary's own tables: every option --help lists completes), option values,
# and file names for operands. Also the install rule puts it in place.
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/bin"
ln -s "$TD" "$TMP/bin/treedrift"
export PATH=$TMP/bin:$PATH
. "$SRC/completion/treedrift.bash"
complete_line() { # words...: COMPREPLY for the last word, sorted, space-separated
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	_treedrift
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
# the commands --help lists, a path of its own through the CLI
want=$("$TD" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }' | sort | tr '\n' ' ' | sed 's/ $//')
check_eq "some commands listed" "$(echo "$want" | grep -c compare)" 1
check_eq "commands" "$(complete_line treedrift '')" "$want"
check_eq "commands, prefix" "$(complete_line treedrift s)" "scan show"
check_eq "compare --fo" "$(complete_line treedrift compare --fo)" "--format"
check_eq "trend --s" "$(complete_line treedrift trend --s)" "--strip-components --svg"
check_eq "compare --format" "$(complete_line treedrift compare --format '')" \
	"csv cyclonedx html json markdown text"
check_eq "compare -f h" "$(complete_line treedrift compare -f h)" "html"
check_eq "show --format" "$(complete_line treedrift show --format '')" "json text"
check_eq "--only" "$(complete_line treedrift compare -q --only '')" "clean dirty new safe"
check_eq "--fail-on" "$(complete_line treedrift compare --fail-on '')" "clean conflict cve dirty fix new safe"
check_eq "--sort" "$(complete_line treedrift compare --sort d)" "distance"
check_eq "--color" "$(complete_line treedrift compare --color a)" "always auto"
check_eq "a number" "$(complete_line treedrift compare --jobs '')" ""
mkdir -p "$TMP/w/tree-a" "$TMP/w/tree-b"; touch "$TMP/w/report.html"
cd "$TMP/w"
check_eq "operands are files" "$(complete_line treedrift compare tree-)" "tree-a tree-b"
check_eq "--output takes a file" "$(complete_line treedrift compare -o rep)" "report.html"
check_eq "top-level options" "$(complete_line treedrift --)" "--help --version"
check_eq "db commands" "$(complete_line treedrift db '')" "copy delete prune"
check_eq "db copy options" "$(complete_line treedrift db copy --)" "--help --label --quiet --replace"
check_eq "db delete options" "$(complete_line treedrift db delete --)" "--help --quiet"
check_eq "db delete operands are files" "$(complete_line treedrift db delete rep)" "report.html"
# every long option in each command's --help completes
for cmd in $("$TD" --list-commands); do
	want=$("$TD" "$cmd" --help | grep -o -- '--[a-z][a-z-]*' | sort -u | tr '\n' ' ' | sed 's/ $//')
	check_eq "$cmd options" "$(complete_line treedrift "$cmd" --)" "$want"
done
# the install rule
if command -v cmake >/dev/null && [ -n "${TD_BUILD_DIR:-}" ]; then
	cmake --install "$TD_BUILD_DIR" --prefix "$TMP/inst" >/dev/null
	[ -f "$TMP/inst/share/bash-completion/completions/treedrift" ] && ok || fail "completion not installed"
fi
finish
