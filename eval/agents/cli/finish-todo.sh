#!/usr/bin/env bash
# The scripted CLI agent, task `finish-todo`: add the todo, wait for it, then toggle its done mark.
set -euo pipefail
mur devtools switch todo
mur devtools type '#todo-input' 'water plants'
mur devtools click '#todo-add'
mur devtools wait '#todo-list ListItem' --text 'water plants'
mur devtools toggle 'ListItem:text("water plants")'
