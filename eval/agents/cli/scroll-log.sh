#!/usr/bin/env bash
# The scripted CLI agent, task `scroll-log`: scroll the log until line 150 is in view.
set -euo pipefail
mur devtools switch settings
mur devtools scroll '#log' --to '#log-150'
