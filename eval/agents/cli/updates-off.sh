#!/usr/bin/env bash
# The scripted CLI agent, task `updates-off`: untick the checkbox in the About window.
set -euo pipefail
mur devtools toggle '#check-updates'
