#!/usr/bin/env bash
# The scripted CLI agent, task `forest-theme`: select the theme in the settings' list.
set -euo pipefail
mur devtools switch settings
mur devtools select '#theme' '#theme-forest'
