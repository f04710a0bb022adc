#!/usr/bin/env bash
# The scripted CLI agent, task `settings-screenshot`: dark mode on, then the main window saved as a PNG.
set -euo pipefail
mur devtools switch settings
mur devtools toggle '#dark-mode'
mur devtools screenshot --window main --out settings.png
