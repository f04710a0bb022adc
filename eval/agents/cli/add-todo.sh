#!/usr/bin/env bash
# The scripted CLI agent, task `add-todo`: type into the input, press Add, wait for the todo to arrive.
set -euo pipefail
mur devtools switch todo
mur devtools type '#todo-input' 'buy milk'
mur devtools click '#todo-add'
mur devtools wait '#todo-list ListItem' --text 'buy milk'
