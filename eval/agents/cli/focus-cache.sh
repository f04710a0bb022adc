#!/usr/bin/env bash
# The scripted CLI agent, task `focus-cache`: open Advanced so the field shows, then focus it.
set -euo pipefail
mur devtools switch settings
mur devtools expand '#advanced'
mur devtools focus '#cache-size'
