# bash completion for iouring-bpf: commands, options, the built-in
# programs (asked from `iouring-bpf list`), shipped policies (`filter
# list`), pins to unload, bench scenarios. Installed by `make install` as
# $(datadir)/bash-completion/completions/iouring-bpf; from the source tree:
#   source loader/cli/completion.bash
# It completes for whichever binary the line names (build/iouring-bpf
# too) and asks that binary for the names.

_iouring_bpf_words()	# CMD: what `CMD` lists (its first column)
{
	"${COMP_WORDS[0]}" "$@" 2>/dev/null | awk '/^[^ (]/ { print $1 }'
}

_iouring_bpf()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=""
	local common="-j --json -p --pretty -v --verbose -h --help --usage -V --version"
	local cmds="list probe load unload show run bench filter sandbox help version"
	local cmd="" i nargs=0 opts="" w

	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	# the command: the first word that is not an option
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [ -z "$cmd" ] && [[ $w != -* ]]; then
			cmd=$w
		elif [ -n "$cmd" ] && [[ $w != -* ]] &&
		     [[ ${COMP_WORDS[i - 1]} != @(-i|--id|-r|--ring|-s|--set|-n|--name|-c|--count|-d|--depth|-t|--timeout|-R|--runs|-o|--output|--prog|-b|--btf|-P|--policy|-H|--hook) ]]; then
			nargs=$((nargs + 1))
		fi
		if [ "$cmd" = sandbox ] && [ "$w" = -- ]; then
			COMPREPLY=($(compgen -c -- "$cur"))
			return
		fi
	done

	# an option's value
	case $prev in
	-o|--output|-b|--btf|--prog)
		[ "$prev" = --prog ] &&
			COMPREPLY=($(compgen -W "$(_iouring_bpf_words list)" -- "$cur"))
		COMPREPLY+=($(compgen -f -- "$cur"))
		compopt -o filenames 2>/dev/null
		return ;;
	-P|--policy)
		COMPREPLY=($(compgen -W "$(_iouring_bpf_words filter list)" -- "$cur")
			   $(compgen -f -- "$cur"))
		compopt -o filenames 2>/dev/null
		return ;;
	-H|--hook)
		COMPREPLY=($(compgen -W "loop op filters" -- "$cur"))
		return ;;
	-i|--id|-r|--ring|-s|--set|-n|--name|-c|--count|-d|--depth|-t|--timeout|-R|--runs)
		return ;;
	esac

	case $cmd in
	"")
		COMPREPLY=($(compgen -W "$cmds $common" -- "$cur"))
		return ;;
	probe)	opts="-H --hook" ;;
	load)	opts="-i --id -r --ring -s --set -n --name --broker" ;;
	unload)	opts="--broker" ;;
	run)	opts="-c --count -d --depth -s --set -i --id -t --timeout --ring-flags --sq-entries --cq-entries --expect --expect-cqes --broker" ;;
	bench)	opts="-R --runs -c --count -o --output -T --trace-marks --prog -s --set" ;;
	filter)	opts="-b --btf -r --ring" ;;
	sandbox) opts="-P --policy --" ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$opts $common" -- "$cur"))
		return
	fi
	case $cmd in
	load|run)
		[ "$nargs" -gt 0 ] && return
		COMPREPLY=($(compgen -W "$(_iouring_bpf_words list)" -- "$cur")
			   $(compgen -f -X '!*.bpf.o' -- "$cur") $(compgen -d -- "$cur"))
		compopt -o filenames 2>/dev/null ;;
	unload)
		[ "$nargs" -gt 0 ] && return
		# --broker: the pids of this user's holders of load --broker
		if [[ " ${COMP_WORDS[*]} " == *" --broker "* ]]; then
			COMPREPLY=($(compgen -W "$(pgrep -x -u "$(id -u)" iouring-bpf-hld 2>/dev/null)" -- "$cur"))
			return
		fi
		COMPREPLY=($(compgen -W "all $(ls /sys/fs/bpf/iouring-bpf 2>/dev/null)" -- "$cur")) ;;
	bench)
		[ "$nargs" -gt 0 ] && return
		COMPREPLY=($(compgen -W "nops op-overhead memcpy wait load all" -- "$cur")) ;;
	filter)
		if [ "$nargs" = 0 ]; then
			COMPREPLY=($(compgen -W "check show compile list ops probe apply" -- "$cur"))
		elif [ "$nargs" = 1 ]; then
			COMPREPLY=($(compgen -W "$(_iouring_bpf_words filter list)" -- "$cur")
				   $(compgen -f -- "$cur"))
			compopt -o filenames 2>/dev/null
		fi ;;
	help)
		[ "$nargs" = 0 ] && COMPREPLY=($(compgen -W "$cmds" -- "$cur")) ;;
	esac
}
complete -F _iouring_bpf iouring-bpf
