#!/usr/bin/env bash
# The scripted CLI agent, task `about-title`: read the other window's title, type it into the todo input.
set -euo pipefail
title=$(mur devtools windows | jq -r '.windows[] | select(.id != "main") | .title')
mur devtools switch todo
mur devtools type '#todo-input' "$title"
