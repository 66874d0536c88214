#!/bin/bash
# The manual pages: docs/iouring-bpf.1 names every command and every
# option each command's --help lists; docs/man3 has a page (or a NAME
# entry, made a .so link by docs/man3/links.sh at install) for every
# function the public headers declare, and names none they do not. Every
# page formats without a groff warning, and `man -l` renders it.
source "$(dirname "$0")/cli_lib.sh"
MAN1=$ROOT/docs/iouring-bpf.1
M3=$ROOT/docs/man3

check() {	# DESCRIPTION COMMAND...: the command must succeed
	local what=$1
	shift
	checks=$((checks + 1))
	if "$@"; then
		echo "ok: $what"
	else
		echo "FAIL: $what"
		fails=$((fails + 1))
	fi
}

for page in "$MAN1" "$M3"/*.3; do
	warn=$(groff -man -ww -z "$page" 2>&1)
	check "$(basename "$page"): groff -ww warns of nothing${warn:+: $warn}" test -z "$warn"
	out=$(MANWIDTH=80 man -l "$page" 2>&1)
	check "$(basename "$page"): man -l renders it" grep -q "^NAME" <<<"$out"
done

# man1: every command and every long and short option of its --help
text=$(LC_ALL=C MANWIDTH=200 man -l "$MAN1" 2>/dev/null)
for cmd in list probe load unload show run bench filter sandbox help version; do
	check "iouring-bpf.1 has a section for $cmd" grep -qE "^   $cmd$" <<<"$text"
	[ "$cmd" = help ] && continue	# its --help is the overview's
	opts=$("$CLI" "$cmd" --help | grep -oE '^ +(-[a-zA-Z?], )?--[a-z-]+' | sed 's/^ *//')
	while read -r o; do
		[ -z "$o" ] && continue
		for word in ${o//,/}; do
			check "iouring-bpf.1 names $cmd's $word" grep -qE -- "(^|[][ ,(|])$word([] ,)=|]|$)" <<<"$text"
		done
	done <<<"$opts"
done

# man3: the functions of the public headers and the NAME entries agree
declared=$(cat "$ROOT"/loader/lib/iouring-bpf/{iouring-bpf,liburing,broker}.h | sed 's,/\*.*\*/,,' |
	grep -oE '\biouring_bpf_[a-z0-9_]+\(' | tr -d '(' | sort -u)
named=$("$M3/links.sh" -n "$M3"; for p in "$M3"/*.3; do basename "$p" .3; done)
named=$(sort -u <<<"$named")
missing=$(comm -23 <(echo "$declared") <(echo "$named"))
# the overview pages, iouring_bpf(3), iouring_bpf_filter(3) and
# iouring_bpf_liburing(3), are not calls
stale=$(comm -13 <(echo "$declared") <(echo "$named") | grep -vxE 'iouring_bpf|iouring_bpf_filter|iouring_bpf_liburing')
check "every public function has a man3 page${missing:+; none for: $(echo $missing)}" test -z "$missing"
check "every man3 name is a public function${stale:+; not declared: $(echo $stale)}" test -z "$stale"

# links.sh: a page per name, each resolving to its family's page
mkdir -p "$TMP/man/man3"
cp "$M3"/*.3 "$TMP/man/man3/"
"$M3/links.sh" "$TMP/man/man3"
n=$(ls "$TMP/man/man3" | wc -l)
check "links.sh: $n pages for $(echo "$declared" | wc -l) functions and 3 overviews" \
	test "$n" = $(( $(echo "$declared" | wc -l) + 3 ))
check "man iouring_bpf_obj_load shows iouring_bpf_obj_bind_ring(3)" \
	bash -c 'MANWIDTH=80 man -M "$1" 3 iouring_bpf_obj_load 2>/dev/null | grep -q "^IOURING_BPF_OBJ_BIND_RING(3"' _ "$TMP/man"
check "man iouring_bpf_filter_install shows iouring_bpf_filter(3)" \
	bash -c 'MANWIDTH=80 man -M "$1" 3 iouring_bpf_filter_install 2>/dev/null | grep -q "^IOURING_BPF_FILTER(3)"' _ "$TMP/man"

# make install: the pages, their links and the bash completion
if make -s -C "$ROOT/loader" install DESTDIR="$TMP/dest" PREFIX=/usr >"$TMP/install.log" 2>&1; then
	D=$TMP/dest/usr/share
	check "installed man1/iouring-bpf.1" test -f "$D/man/man1/iouring-bpf.1"
	check "installed man3: $(ls "$D/man/man3" 2>/dev/null | wc -l) pages, as links.sh made them here" \
		test "$(ls "$D/man/man3" 2>/dev/null | wc -l)" = "$n"
	check "installed man3/iouring_bpf_obj_attach.3 is a link to iouring_bpf_obj_bind_ring.3" \
		grep -qx '.so man3/iouring_bpf_obj_bind_ring.3' "$D/man/man3/iouring_bpf_obj_attach.3"
	check "installed bash-completion/completions/iouring-bpf" \
		cmp -s "$D/bash-completion/completions/iouring-bpf" "$ROOT/loader/cli/completion.bash"
else
	echo "FAIL: make install failed:"; tail -5 "$TMP/install.log"
	checks=$((checks + 1)) fails=$((fails + 1))
fi
finish
