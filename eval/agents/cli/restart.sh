#!/usr/bin/env bash
# The scripted CLI agent, task `restart`: reload, then set the counter.
set -euo pipefail
mur devtools reload
# No wait between: the call after a reload finds the new session (mur waits for the
# successor that holds the session's slot).
mur devtools fire counter.set --args '{"value": 1}'
