#!/usr/bin/env bash
# The scripted CLI agent, task `count-to-three`: three clicks on the + button.
set -euo pipefail
# First the selector as an option, as agents often write it: `click` refuses it (exit 1,
# nothing sent) and says how it is written. The refusal is what mur's usage log, `usage
# report` and a study's report count as refused argv (`click --selector WORD`).
mur devtools click --selector '#btn-inc' || true
for _ in 1 2 3; do
    mur devtools click '#btn-inc'
done
