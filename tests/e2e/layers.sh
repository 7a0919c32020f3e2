#!/usr/bin/env bash
# The library's layout is its pipeline (lib/README.md): each lib/STAGE/ file
# uses only its own stage and the stages before it, through their internal
# headers or the public header each stage implements; cli/ uses only the
# public headers.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/../.." && pwd)
cd "$SRC"
stages="base digest source scan store load match classify kernel patch provenance analysis report"
# The stage that implements each public header.
declare -A public=(
	[common]=base [glob]=base [json]=base [text]=base [tree]=base [tlsh]=digest [digest]=digest [source]=source
	[scan]=scan [store]=store [load]=load [compare]=match [origin]=match [base]=match [lines]=match
	[policy]=classify [maintainers]=classify [arch]=kernel [kconfig]=kernel [kbuild]=kernel
	[patch]=patch [history]=provenance [upstream]=provenance [provenance]=provenance [annotate]=analysis [rollup]=analysis [trend]=analysis [analysis]=analysis
	[report]=report [treedrift]=report
)
rank() { # stage: its place in the pipeline
	local i=0
	for s in $stages; do
		[ "$s" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo "unknown stage '$1'" >&2
	echo 99
}
fails=0 checks=0
for h in include/treedrift/*.h; do
	name=$(basename "$h" .h)
	checks=$((checks + 1))
	[ -n "${public[$name]:-}" ] || { echo "FAIL: $h: no stage for this public header" >&2; fails=$((fails + 1)); }
done
for dir in lib/*/; do
	stage=$(basename "$dir")
	case " $stages " in *" $stage "*) ;; *) echo "FAIL: lib/$stage is not a stage of lib/README.md" >&2
		fails=$((fails + 1)); continue ;; esac
	own=$(rank "$stage")
	for f in "$dir"*.[ch]; do
		while read -r inc; do
			checks=$((checks + 1))
			case $inc in
			treedrift/*) used=${public[$(basename "$inc" .h)]:-} ;;
			tlsh_tables.h | policy_linux.c) used=digest ;; # generated at build time
			*) hit=$(ls lib/*/"$inc" 2>/dev/null | head -1)
			   used=$([ -n "$hit" ] && basename "$(dirname "$hit")" || echo "") ;;
			esac
			if [ -z "$used" ]; then
				echo "FAIL: $f includes \"$inc\", which no stage holds" >&2
				fails=$((fails + 1))
			elif [ "$(rank "$used")" -gt "$own" ]; then
				echo "FAIL: $f ($stage) includes \"$inc\" of a later stage ($used)" >&2
				fails=$((fails + 1))
			fi
		done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
	done
done
# The CLI: public headers and its own.
while read -r line; do
	checks=$((checks + 1))
	file=${line%%:*} inc=${line#*:}
	case $inc in treedrift/*) ;; *) [ -f "cli/$inc" ] || { echo "FAIL: $file includes \"$inc\"" >&2
		fails=$((fails + 1)); } ;; esac
done < <(grep -H -o '^#include "[^"]*"' cli/*.[ch] | sed 's/#include "\(.*\)"/\1/')
echo "$checks checks, $fails failed"
[ "$fails" = 0 ]
