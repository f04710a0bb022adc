#!/usr/bin/env bash
# The scripted CLI agent, task `restart`: reload, wait for the new session, set the counter.
set -euo pipefail
mur devtools reload
# The next call finds the new session once it has announced itself.
for _ in $(seq 50); do
    mur devtools -q version >/dev/null 2>&1 && break
    sleep 0.1
done
mur devtools fire counter.set --args '{"value": 1}'
