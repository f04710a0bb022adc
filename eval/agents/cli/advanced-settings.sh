#!/usr/bin/env bash
# The scripted CLI agent, task `advanced-settings`: open Advanced, tick verbose, replace the cache size.
set -euo pipefail
mur devtools switch settings
mur devtools expand '#advanced'
mur devtools toggle '#verbose'
mur devtools type '#cache-size' 128 --clear
