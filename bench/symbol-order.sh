#!/bin/sh
# Writes a link order for `mur` from a profile of warm calls: the functions a
# call runs, in the order they were first sampled, one mangled name a line.
# host/build.rs links every release build of `mur` on x86_64 Linux with the
# committed one, host/symbol-order.txt (rust-lld's --symbol-ordering-file;
# `MUR_SYMBOL_ORDER=FILE` for another, `MUR_SYMBOL_ORDER=` for none): the code a
# call touches is packed together instead of spread over the binary, so fewer
# pages are faulted in and the peak RSS is smaller (docs/performance.md, "A named verb against
# the contract floor").
#
# The names carry hashes of the toolchain, the dependencies and the build profile:
# profile a release build, and make the order anew when the toolchain or
# Cargo.lock changes (names it no longer finds are skipped: a stale order costs
# speed, never correctness; ~1 ms a warm call, measured. `mur-bench` warns when fewer
# than 90% of the names are found in the build it measures). Build `mur` on its own (`-p mur`, as below and as
# users install it), for the profile and for the build that uses the order: built
# with another package (`-p mur -p mur-bench`), cargo unifies their dependencies'
# features, the generic functions get other hashes in their names, and about half
# of the order is not found (measured: 520 of 957 names, 30 more page faults a
# call). Run where `mur devtools state --selector '#count'` answers (a running
# mur-sample, the standard verbs and docs/examples/count.json installed; checked
# first by bench/check-profile-rows.sh); then rebuild. The profile takes the four rows of `mur-bench`'s
# latency table: a named verb, a data verb, a derived verb and `call`.
#
#   MUR_SYMBOL_ORDER= cargo build --release -p mur
#   bench/symbol-order.sh target/release/mur host/symbol-order.txt [runs, default 1000]
set -eu
mur=$(realpath "$1")
rows="$(dirname "$0")/profile-rows.txt"
out=$2
runs=${3:-1000}
sh "$(dirname "$0")/check-profile-rows.sh" "$mur" symbol-order.sh || exit 1
data=$(mktemp)
trap 'rm -f "$data" "$data.cg" "$data.ran" "$data.text"' EXIT
perf record -q -F 30000 -o "$data" -- sh -c '
  i=0
  while [ "$i" -lt "$2" ]; do
    grep -v "^#" "$3" | while read -r args; do
      "$1" devtools $args </dev/null >/dev/null
    done
    i=$((i + 1))
  done' sh "$mur" "$runs" "$rows" >/dev/null 2>&1
# The comm is the binary's name cut to 15 characters, as the kernel keeps it.
comm=$(basename "$mur" | cut -c1-15)
perf script -i "$data" --comm "$comm" -F ip,sym,dso --no-demangle 2>/dev/null |
  awk -v dso="($mur)" '$NF == dso && $2 != "[unknown]" { print $2 }' |
  awk '!seen[$0]++' >"$out"
sampled=$(wc -l <"$out")
# Sampling misses what runs briefly: a function touched once a call is rarely
# sampled, and each left out of the order sits somewhere in the other 15 MB of
# code, a page fault (~3–4 µs with the kernel's fault-around) a call. callgrind
# sees every function executed: those the profile missed go after the sampled
# ones (measured: 39 such functions in the static build, 10 page faults and
# ~0.04 ms of a named call). Skipped when valgrind is not installed.
if command -v valgrind >/dev/null 2>&1; then
  : >"$data.ran"
  # Word splitting of $args is wanted: each line is one command line.
  grep -v '^#' "$rows" | while read -r args; do
    # A run that fails under valgrind (a profile-guided build dies in rustix's
    # reading of the vDSO there) adds nothing: the order keeps what was sampled.
    # shellcheck disable=SC2086
    if valgrind --tool=callgrind --demangle=no --callgrind-out-file="$data.cg" \
      "$mur" devtools $args </dev/null >/dev/null 2>&1; then
      sed -n 's/^c\{0,1\}fn=([0-9]*) //p' "$data.cg" >>"$data.ran"
    else
      echo "symbol-order.sh: \`$args\` failed under callgrind; left to the sampled order" >&2
    fi
    rm -f "$data.cg"
  done
  nm --defined-only "$mur" | awk '$2 ~ /^[tTwW]$/ { print $3 }' >"$data.text"
  # Functions of this binary that ran, in callgrind's order, not yet in the order.
  awk 'FILENAME == ARGV[1] { text[$0] = 1; next }
       FILENAME == ARGV[2] { have[$0] = 1; next }
       ($0 in text) && !($0 in have) { have[$0] = 1; print }' \
    "$data.text" "$out" "$data.ran" >>"$out"
  rm -f "$data.ran" "$data.text"
fi
echo "$(wc -l <"$out") functions in $out ($sampled sampled)" >&2
