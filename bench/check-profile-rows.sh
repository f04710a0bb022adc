#!/bin/sh
# Checks that every row of bench/profile-rows.txt answers with this `mur` before
# bench/symbol-order.sh or bench/rodata-order.sh profiles it: a profile of calls
# that fail (no mur-sample running, the verbs not installed) is an order of the
# error path, written without complaint (docs/performance.md, "The orders made anew
# once more").
#
#   bench/check-profile-rows.sh target/release/mur symbol-order.sh
set -eu
mur=$1
caller=$2
# Word splitting of $args is wanted: each line is one command line.
grep -v '^#' "$(dirname "$0")/profile-rows.txt" | while read -r args; do
  # shellcheck disable=SC2086
  if ! "$mur" devtools $args </dev/null >/dev/null 2>&1; then
    echo "$caller: \`mur devtools $args\` fails here: start mur-sample and install the standard verbs and docs/examples/count.json first" >&2
    exit 1
  fi
done
