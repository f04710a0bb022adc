#!/usr/bin/env bash
# The scripted CLI agent, task `first-warning`: read the first warning line of the log, set the counter to its number.
set -euo pipefail
line=$(mur devtools state --selector '#log *:text("warn")' | jq -r .text)
number=$((10#${line%% *}))
mur devtools fire counter.set --args "{\"value\": $number}"
