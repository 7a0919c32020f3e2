# Sourced by the end-to-end scripts (sh and bash). With TD_VALGRIND set,
# td_wrap BIN DIR writes DIR/treedrift-vg, which runs BIN under valgrind
# memcheck (exit 97 on any error or leak), and prints its path; otherwise
# it prints BIN. scripts/test.sh sets TD_VALGRIND for one e2e pass.
td_wrap() {
	if [ -z "${TD_VALGRIND:-}" ]; then
		echo "$1"
		return
	fi
	case $1 in /*) _td_bin=$1 ;; *) _td_bin=$PWD/$1 ;; esac
	printf '#!/bin/sh\nexec valgrind -q --error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --show-leak-kinds=definite,indirect,possible "%s" "$@"\n' \
		"$_td_bin" >"$2/treedrift-vg"
	chmod +x "$2/treedrift-vg"
	echo "$2/treedrift-vg"
}
