#!/usr/bin/env bash
# The scripted agent of the cli-call and cli-derived conditions: each task as the tool
# calls the scripted MCP agent makes (eval/agents/mcp/agent.py), made through one form of
# mur: `mur devtools call TOOL --args JSON` (cli-call) or the tool's derived verb,
# `mur devtools TOOL-NAME --args JSON` (cli-derived).
#
#   agent.sh call|derived TASK
set -euo pipefail
form=$1
task=$2

# `tool NAME JSON [mur options…]`: one call; its result's JSON on stdout.
tool() {
    local name=$1 args=$2
    shift 2
    case $form in
        call) mur devtools call "$name" --args "$args" "$@" | jq -c '.structuredContent // .' ;;
        derived)
            # camelCase → kebab-case; a tool with an `args` property of its own takes
            # the whole object with --all-args.
            local verb
            verb=$(sed -E 's/([a-z0-9])([A-Z])/\1-\2/g' <<<"$name" | tr '[:upper:]' '[:lower:]')
            local flag=--args
            [[ $name == fire ]] && flag=--all-args
            mur devtools "$verb" "$flag" "$args" "$@"
            ;;
        *) echo "error: unknown form \`$form\` (call or derived)" >&2; exit 1 ;;
    esac
}

add_todo() {
    tool switchComponent '{"component":"todo"}'
    tool type "{\"selector\":\"#todo-input\",\"text\":\"$1\"}"
    tool click '{"selector":"#todo-add"}'
    tool waitFor "{\"selector\":\"#todo-list ListItem\",\"text\":\"$1\"}"
}

case $task in
    count-to-three) for _ in 1 2 3; do tool click '{"selector":"#btn-inc"}'; done ;;
    add-todo) add_todo 'buy milk' ;;
    finish-todo)
        add_todo 'water plants'
        tool toggle '{"selector":"ListItem:text(\"water plants\")"}'
        ;;
    select-todo)
        tool switchComponent '{"component":"todo"}'
        tool select '{"selector":"#todo-list","item":"ListItem:text(\"bravo\")"}'
        ;;
    forest-theme)
        tool switchComponent '{"component":"settings"}'
        tool select '{"selector":"#theme","item":"#theme-forest"}'
        ;;
    advanced-settings)
        tool switchComponent '{"component":"settings"}'
        tool expand '{"selector":"#advanced"}'
        tool toggle '{"selector":"#verbose"}'
        tool type '{"selector":"#cache-size","text":"128","clear":true}'
        ;;
    scroll-log)
        tool switchComponent '{"component":"settings"}'
        tool scroll '{"selector":"#log","to":"#log-150"}'
        ;;
    first-warning)
        line=$(tool state '{"selector":"#log *:text(\"warn\")"}' | jq -r .text)
        tool fire "{\"target\":\"counter.set\",\"args\":{\"value\":$((10#${line%% *}))}}"
        ;;
    about-title)
        title=$(tool windows '{}' | jq -r '.windows[] | select(.id != "main") | .title')
        tool switchComponent '{"component":"todo"}'
        tool type "$(jq -cn --arg t "$title" '{selector:"#todo-input",text:$t}')"
        ;;
    updates-off) tool toggle '{"selector":"#check-updates"}' ;;
    settings-screenshot)
        tool switchComponent '{"component":"settings"}'
        tool toggle '{"selector":"#dark-mode"}'
        # The image is a content block beside the structured result: `call` prints
        # it (base64), a derived verb writes it with `--out FILE`, as its note says.
        if [[ $form == call ]]; then
            mur devtools call screenshot --args '{"window":"main"}' |
                jq -r '.content[] | select(.type == "image") | .data' | base64 -d >settings.png
        else
            tool screenshot '{"window":"main"}' --out settings.png >/dev/null
        fi
        ;;
    restart)
        tool reload '{}' || true
        # No wait between: the call after a reload finds the new session.
        tool fire '{"target":"counter.set","args":{"value":1}}'
        ;;
    clear-todos) tool clearTodos '{}' --answer confirm=true ;;
    focus-cache)
        tool switchComponent '{"component":"settings"}'
        tool expand '{"selector":"#advanced"}'
        tool focus '{"selector":"#cache-size"}'
        ;;
    *) echo "error: no script for task \`$task\`" >&2; exit 1 ;;
esac
