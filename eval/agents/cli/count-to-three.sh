#!/usr/bin/env bash
# The scripted CLI agent, task `count-to-three`: three clicks on the + button.
set -euo pipefail
# First an option click does not take, as agents often guess one: `click` refuses it (exit 1,
# nothing sent) and says how it is written. The refusal is what mur's usage log, `usage
# report` and a study's report count as refused argv (`click --element WORD`).
mur devtools click --element '#btn-inc' || true
for _ in 1 2 3; do
    mur devtools click '#btn-inc'
done
