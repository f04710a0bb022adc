#!/usr/bin/env bash
# The scripted CLI agent, task `count-to-three`: three clicks on the + button.
set -euo pipefail
for _ in 1 2 3; do
    mur devtools click '#btn-inc'
done
