#!/bin/sh
# Writes a link order for `mur` from a profile of warm calls: the functions a
# call runs, in the order they were first sampled, one mangled name a line.
# Linked with it (`MUR_SYMBOL_ORDER=FILE cargo build …`, host/build.rs passes it
# to rust-lld as --symbol-ordering-file), the code a call touches is packed
# together instead of spread over the binary: fewer pages faulted in, a smaller
# peak RSS (README, "A named verb against the contract floor").
#
# The names carry hashes of the build profile: profile the binary of the profile
# the order is for. Run where `mur devtools state --selector '#count'` answers
# (a running mur-sample and the standard verbs installed).
#
#   bench/symbol-order.sh target/release/mur order.txt [runs]
set -eu
mur=$(realpath "$1")
out=$2
runs=${3:-200}
data=$(mktemp)
trap 'rm -f "$data"' EXIT
perf record -q -F 30000 -o "$data" -- sh -c '
  i=0
  while [ "$i" -lt "$2" ]; do
    "$1" devtools state --selector "#count" >/dev/null
    "$1" devtools call state --args "{\"selector\":\"#count\"}" >/dev/null
    i=$((i + 1))
  done' sh "$mur" "$runs" >/dev/null 2>&1
# The comm is the binary's name cut to 15 characters, as the kernel keeps it.
comm=$(basename "$mur" | cut -c1-15)
perf script -i "$data" --comm "$comm" -F ip,sym,dso --no-demangle 2>/dev/null |
  awk -v dso="($mur)" '$NF == dso && $2 != "[unknown]" { print $2 }' |
  awk '!seen[$0]++' >"$out"
echo "$(wc -l <"$out") functions in $out" >&2
