#!/usr/bin/env bash
# The scripted CLI agent, task `clear-todos`: the derived verb, with the answer to its question.
set -euo pipefail
mur devtools clear-todos --answer confirm=true
