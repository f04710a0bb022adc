#!/usr/bin/env bash
# The scripted CLI agent, task `select-todo`: select the item by its text.
set -euo pipefail
mur devtools switch todo
mur devtools select '#todo-list' 'ListItem:text("bravo")'
