#!/usr/bin/env bash
# The scripted agent of every shipped condition, for `mur-eval study`: it picks the
# reference agent of the condition it runs under (MUR_EVAL_CONDITION) and the task.
#
#   mur-eval study --agent "bash $PWD/eval/agents/scripted.sh {task}" …
#
# cli-named and cli-compact: eval/agents/cli/TASK.sh (named verbs); cli-call and
# cli-derived: eval/agents/tools/agent.sh; mcp: eval/agents/mcp/agent.py with the Python
# MCP SDK 2.x (MUR_EVAL_PYTHON, passed with `--pass-env MUR_EVAL_PYTHON`, else
# target/interop-modern-venv's python3, else python3; docs/eval.md says how to make it);
# both: an agent without a preference, the named-verb script on odd repeats
# (MUR_EVAL_REPEAT) and the MCP agent on even ones.
set -euo pipefail
task=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

mcp_agent() {
    python=${MUR_EVAL_PYTHON:-$here/../../target/interop-modern-venv/bin/python3}
    [[ -x $python ]] || python=python3
    exec "$python" -B "$here/mcp/agent.py" --config "$MUR_EVAL_MCP_CONFIG" --task "$task"
}

case ${MUR_EVAL_CONDITION:?the study names the condition in MUR_EVAL_CONDITION} in
    cli-named | cli-compact) exec bash "$here/cli/$task.sh" ;;
    cli-call) exec bash "$here/tools/agent.sh" call "$task" ;;
    cli-derived) exec bash "$here/tools/agent.sh" derived "$task" ;;
    mcp) mcp_agent ;;
    both)
        if (( ${MUR_EVAL_REPEAT:-1} % 2 )); then exec bash "$here/cli/$task.sh"; fi
        mcp_agent
        ;;
    *) echo "error: no scripted agent for condition \`$MUR_EVAL_CONDITION\`" >&2; exit 1 ;;
esac
