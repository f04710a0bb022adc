#!/bin/sh
# Writes the read-only data order of the static `mur`: the input sections of
# `.rodata` that a call reads, in the order it first reads them, one name a line.
# host/build.rs gathers the committed one, host/rodata-order-musl.txt, into an
# output section of their own, `.rodata.hot`, before the rest of `.rodata`
# (a linker script with `INSERT BEFORE .rodata`; `MUR_RODATA_ORDER=FILE` for
# another, `MUR_RODATA_ORDER=` for none). The link order (bench/symbol-order.sh)
# packs a call's code; it cannot pack its constants, because nearly all of them
# are anonymous (string literals, vtables, panic locations, format pieces): the
# linker knows them only by the names of their sections, which rustc makes
# unique (`.rodata..Lanon.<crate hash>.<n>`). Spread over the 2 MB of `.rodata`,
# a named call's few kilobytes of them cost ~20 page faults (docs/performance.md, "A call's
# constants together").
#
# Which sections a call reads comes from valgrind's lackey (every load's address)
# and the link map of the same binary (which section holds each address): build
# with `MUR_LINK_MAP=FILE`, run this where `mur devtools state --selector
# '#count'` answers (as for bench/symbol-order.sh), then rebuild. The names carry
# each crate's hash and the place of the constant in it: make the order anew
# with the link order (a name no longer there matches nothing, so a stale order
# costs speed, never correctness).
#
#   MUR_LINK_MAP=/tmp/mur.map cargo build --release -p mur --target x86_64-unknown-linux-musl
#   bench/rodata-order.sh target/x86_64-unknown-linux-musl/release/mur /tmp/mur.map host/rodata-order-musl.txt
set -eu
mur=$(realpath "$1")
map=$2
out=$3
command -v valgrind >/dev/null 2>&1 || {
  echo "rodata-order.sh: needs valgrind (its lackey tool)" >&2
  exit 1
}
sh "$(dirname "$0")/check-profile-rows.sh" "$mur" rodata-order.sh || exit 1
loads=$(mktemp)
trap 'rm -f "$loads" "$loads.log"' EXIT
# The rows the link order is made from (bench/profile-rows.txt), twice: a call
# that refreshes a cache reads what the next one does not. Word splitting of
# $args is wanted: each line is one command line.
grep -v '^#' "$(dirname "$0")/profile-rows.txt" | sed p | while read -r args; do
  # A run that fails would leave out what it did not reach: no order then.
  # shellcheck disable=SC2086
  valgrind --tool=lackey --trace-mem=yes --log-file="$loads.log" \
    "$mur" devtools $args </dev/null >/dev/null 2>&1 || {
    echo "rodata-order.sh: \`mur devtools $args\` failed under lackey:" >&2
    grep '^==' "$loads.log" | tail -n 5 >&2
    exit 1
  }
  # The addresses loaded (L) or read and written (M), each once, in first-use order.
  awk '$1 == "L" || $1 == "M" { sub(/,.*/, "", $2); print $2 }' "$loads.log" >>"$loads"
done
# Each address to the input section of `.rodata` (or of `.rodata.hot`, in a build
# already ordered) that holds it. lld's map: VMA, LMA, size, alignment, then an
# output section's name, or `file:(input section)`, or a symbol.
awk '
  function hex(s,   i, v) {
    v = 0; s = tolower(s); sub(/^0x/, "", s)
    for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
    return v
  }
  FILENAME == ARGV[1] {
    if (NF < 5) next
    if ($5 !~ /:\(/) { if ($5 ~ /^\./) into = $5; next }
    if (into != ".rodata" && into != ".rodata.hot") next
    name = $5; sub(/^.*:\(/, "", name); sub(/\)$/, "", name)
    n++; lo[n] = hex($1); hi[n] = lo[n] + hex($3); sec[n] = name
    next
  }
  seen[$1]++ { next }
  {
    a = hex($1)
    if (n == 0 || a < lo[1] || a >= hi[n]) next
    l = 1; h = n
    while (l < h) { m = int((l + h + 1) / 2); if (lo[m] <= a) l = m; else h = m - 1 }
    # A plain `.rodata` names every C object'"'"'s constants at once: left out.
    if (a < hi[l] && sec[l] != ".rodata" && !done[sec[l]]++) print sec[l]
  }
' "$map" "$loads" >"$out"
echo "$(wc -l <"$out") sections in $out" >&2
