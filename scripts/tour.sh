#!/usr/bin/env bash
# The mur tour: build mur, the sample app and the standard verbs, start the sample,
# and walk through mur's main job, printing each command before its output.
#
#   bash scripts/tour.sh
#
# Needs only a Rust toolchain (rustup adds the wasm32-unknown-unknown target when missing).
# Everything runs in a private sandbox (XDG_RUNTIME_DIR, XDG_DATA_HOME, XDG_CACHE_HOME
# and XDG_STATE_HOME in a temporary directory, removed on exit), so your own sessions,
# installed verbs and usage log are neither seen nor touched. The screenshot is kept at
# target/tour/tour.png. Exits 0 when every step behaved as shown.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
target_dir="${CARGO_TARGET_DIR:-$repo/target}"
sample_pid=""

if [[ -t 1 && -z "${NO_COLOR:-}" ]]; then
    bold=$'\e[1m' dim=$'\e[2m' reset=$'\e[0m'
else
    bold="" dim="" reset=""
fi

sandbox="$(mktemp -d "${TMPDIR:-/tmp}/mur-tour.XXXXXX")"
cleanup() {
    if [[ -n "$sample_pid" ]] && kill -0 "$sample_pid" 2>/dev/null; then
        kill -INT "$sample_pid" 2>/dev/null || true
        wait "$sample_pid" 2>/dev/null || true
    fi
    rm -rf "$sandbox"
}
trap cleanup EXIT
echo "${dim}the tour runs in a private sandbox ($sandbox), removed on exit; your own sessions and verbs are untouched${reset}"
export XDG_RUNTIME_DIR="$sandbox/run" XDG_DATA_HOME="$sandbox/data" XDG_CACHE_HOME="$sandbox/cache" XDG_STATE_HOME="$sandbox/state"
mkdir -m 700 "$XDG_RUNTIME_DIR"
lock_dir="$XDG_RUNTIME_DIR/reactor-devtools"

# Prints a word as a shell would need it typed: bare when safe, else single-quoted.
shell_word() {
    if [[ "$1" =~ ^[A-Za-z0-9_./:=@,+-]+$ ]]; then printf '%s' "$1"; else printf "'%s'" "${1//\'/\'\\\'\'}"; fi
}

# Prints `$ cmd args…` in bold (a blank line before it).
show() {
    local line="" word
    for word in "$@"; do line+=" $(shell_word "$word")"; done
    show_line "${line# }"
}

# Prints `$ <line>` in bold, as it is.
show_line() {
    printf '\n%s$ %s%s\n' "$bold" "$1" "$reset"
}

# Shows a command, runs it; the tour stops if it fails.
step() {
    show "$@"
    "$@"
}

# Shows a command that is meant to fail, runs it, and checks its exit code.
failing_step() {
    local want="$1" code=0
    shift
    show "$@"
    "$@" || code=$?
    echo "${dim}→ exit $code${reset}"
    if [[ "$code" != "$want" ]]; then
        echo "error: expected exit $want from \`$*\`, got $code" >&2
        exit 1
    fi
}

build() {
    echo "building mur, mur-sample and the standard verbs (the first build takes a few minutes)" >&2
    # The whole workspace's binaries, not `-p mur -p mur-sample`: cargo resolves
    # features over the packages named, so building two of them alone compiles half
    # the dependency tree a second time beside `cargo build`/`cargo test`'s (minutes
    # in CI, where the end-to-end tests run this tour after the workspace's build).
    cargo build --workspace --bins
    bash plugins/build.sh >/dev/null
    export PATH="$target_dir/debug:$PATH"
}

start_sample() {
    mkdir -p "$sandbox/app"
    : >"$sandbox/app/Tour.csproj"
    show_line "mur-sample --project $sandbox/app/Tour.csproj &"
    mur-sample --project "$sandbox/app/Tour.csproj" 2>"$sandbox/sample.log" &
    sample_pid=$!
    local tries=0
    until compgen -G "$lock_dir/*.json" >/dev/null; do
        if ! kill -0 "$sample_pid" 2>/dev/null; then
            echo "error: mur-sample exited before announcing its session" >&2
            cat "$sandbox/sample.log" >&2
            exit 1
        fi
        tries=$((tries + 1))
        if ((tries > 600)); then
            echo "error: mur-sample wrote no lockfile in 60 s" >&2
            exit 1
        fi
        sleep 0.1
    done
    echo "${dim}session announced: $(basename "$lock_dir"/*.json)${reset}"
}

walk() {
    step mur devtools session list --pretty
    step mur devtools tree --selector '#counter'
    for _ in 1 2 3; do step mur devtools click '#btn-inc'; done
    step mur devtools state --selector '#count'
    step mur devtools switch todo
    step mur devtools type '#todo-input' 'buy milk'
    step mur devtools invoke '#todo-add'
    step mur devtools wait '#todo-list > ListItem' --text 'buy milk'
    step mur devtools switch settings
    step mur devtools toggle '#dark-mode'
    step mur devtools select '#theme' '#theme-forest'
    mkdir -p "$target_dir/tour"
    step mur devtools screenshot --out "$target_dir/tour/tour.png"
    show_line "mur devtools call tools/list | grep -o '\"name\":\"[^\"]*\"'"
    mur devtools call tools/list | grep -o '"name":"[^"]*"'
    failing_step 5 mur devtools state --selector '#missing'
}

stop_sample() {
    show kill -INT "$sample_pid"
    kill -INT "$sample_pid"
    wait "$sample_pid" || true
    sample_pid=""
    if compgen -G "$lock_dir/*.json" >/dev/null; then
        echo "error: a lockfile remains after the app stopped: $(ls "$lock_dir")" >&2
        exit 1
    fi
    echo "${dim}the app stopped and removed its lockfile${reset}"
    failing_step 4 mur devtools session list
}

install_verbs() {
    show_line "mur devtools verbs add plugins/target/wasm32-unknown-unknown/release/mur_verb_*.wasm"
    mur devtools verbs add plugins/target/wasm32-unknown-unknown/release/mur_verb_*.wasm
}

build
install_verbs
start_sample
walk
stop_sample
echo
echo "${bold}tour complete${reset}: the screenshot is at $target_dir/tour/tour.png"
