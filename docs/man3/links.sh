#!/bin/sh
# links.sh DIR: beside each page of DIR (docs/man3, installed), a page
# per other name of its NAME line holding ".so man3/PAGE.3", so that
# `man iouring_bpf_load` finds iouring_bpf_open(3). make install runs it
# on the installed man3 directory; -n prints the names instead.
set -e
list=0
[ "$1" = -n ] && { list=1; shift; }
dir=${1:?usage: links.sh [-n] DIR}
for page in "$dir"/iouring_bpf*.3; do
	grep -q '^\.so ' "$page" && continue
	base=$(basename "$page" .3)
	# the NAME line: "a, b, c \- what"
	sed -n '/^\.SH NAME/{n;p;q}' "$page" | sed 's/ \\-.*//; s/,/ /g' |
	tr ' ' '\n' | sed '/^$/d' | while read -r name; do
		[ "$name" = "$base" ] && continue
		if [ "$list" = 1 ]; then
			echo "$name"
		else
			echo ".so man3/$base.3" >"$dir/$name.3"
		fi
	done
done
