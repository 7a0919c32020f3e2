# bash completion for treedrift(1). Commands and options come from the
# binary itself (treedrift --list-commands, treedrift COMMAND --list-options),
# so that they follow the option tables; only the values of a few options are
# listed here. Install as /usr/share/bash-completion/completions/treedrift.

_treedrift_values() { # command, metavar
	case $2 in
	FMT) [ "$1" = compare ] && echo "text json csv html markdown cyclonedx" || echo "text json" ;;
	CLASS) echo "clean safe dirty new" ;;
	GATE) echo "clean safe dirty new fix cve conflict" ;;
	KEY) echo "path distance risk" ;;
	WHEN) echo "auto always never" ;;
	BY) echo "total local" ;;
	esac
}

_treedrift() {
	local cur prev words cword cmd i opt line
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD - 1]}
	cmd=
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	if [ -z "$cmd" ]; then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W "--help --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(command "${COMP_WORDS[0]}" --list-commands 2>/dev/null)" -- "$cur"))
		fi
		return 0
	fi
	# db has commands of its own, with options of their own
	local -a sub=()
	if [ "$cmd" = db ]; then
		if ((i + 1 == COMP_CWORD)) && [[ $cur != -* ]]; then
			COMPREPLY=($(compgen -W "copy delete prune" -- "$cur"))
			return 0
		fi
		((i + 1 < COMP_CWORD)) && sub=("${COMP_WORDS[i + 1]}")
	fi
	local -a table
	mapfile -t table < <(command "${COMP_WORDS[0]}" "$cmd" "${sub[@]}" --list-options 2>/dev/null)
	# the value of the option before the cursor
	if [[ $prev == -* ]]; then
		for line in "${table[@]}"; do
			opt=${line%% *}
			if [ "$opt" = "$prev" ] && [ "$opt" != "$line" ]; then
				local meta=${line#* } values
				values=$(_treedrift_values "$cmd" "$meta")
				if [ -n "$values" ]; then
					COMPREPLY=($(compgen -W "$values" -- "$cur"))
				elif [ "$meta" = N ] || [ "$meta" = LABEL ] || [ "$meta" = TEXT ] ||
					[ "$meta" = SIZE ] || [ "$meta" = GLOB ]; then
					COMPREPLY=()
				else
					COMPREPLY=($(compgen -f -- "$cur"))
				fi
				return 0
			fi
		done
	fi
	if [[ $cur == -* ]]; then
		local names=
		for line in "${table[@]}"; do
			opt=${line%% *}
			[[ $opt == --* ]] && names+=" $opt"
		done
		[[ $cur == --* ]] || for line in "${table[@]}"; do
			opt=${line%% *}
			[[ $opt == --* ]] || names+=" $opt"
		done
		COMPREPLY=($(compgen -W "$names" -- "$cur"))
		return 0
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
	return 0
}
complete -o filenames -o bashdefault -F _treedrift treedrift
