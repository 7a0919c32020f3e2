# Sourced by the end-to-end scripts (sh and bash). With TD_VALGRIND set,
# td_wrap BIN DIR writes DIR/treedrift-vg, which runs BIN under valgrind
# memcheck (exit 97 on any error or leak), and prints its path; otherwise
# it prints BIN. scripts/test.sh sets TD_VALGRIND for one e2e pass.
# valgrind's own messages go to a log per process in $TD_VALGRIND_LOGS
# (default DIR), never to the program's stderr, which the tests check.
td_wrap() {
	if [ -z "${TD_VALGRIND:-}" ]; then
		echo "$1"
		return
	fi
	case $1 in /*) _td_bin=$1 ;; *) _td_bin=$PWD/$1 ;; esac
	_td_logs=${TD_VALGRIND_LOGS:-$2}
	# (a user who cannot write there, as the hostile tree's unprivileged
	# runs, gets valgrind's messages on stderr instead)
	printf '#!/bin/sh\nlog=\n[ -w "%s" ] && log=--log-file="%s/vg.%%p.log"\nexec valgrind -q ${log:+"$log"} --error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible --show-leak-kinds=definite,indirect,possible "%s" "$@"\n' \
		"$_td_logs" "$_td_logs" "$_td_bin" >"$2/treedrift-vg"
	chmod +x "$2/treedrift-vg"
	echo "$2/treedrift-vg"
}
