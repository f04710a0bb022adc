#!/usr/bin/env bash
# Install mur for real use: `mur` on your PATH (cargo install) and the standard
# verbs in your verb directory.
#
#   bash scripts/setup.sh
#
# Needs a Rust toolchain (rustup adds the wasm32-unknown-unknown target when missing).
# `cargo install` puts `mur` in ${CARGO_INSTALL_ROOT:-${CARGO_HOME:-~/.cargo}}/bin.
#
# On x86_64 Linux with `musl-gcc` (Debian and Ubuntu: `apt install musl-tools`; the
# C parts of wasmtime are compiled with it), `mur` is built statically
# against musl: it starts without the dynamic loader and glibc's start-up, 0.6-1.4 ms
# of every call (docs/performance.md, "The static build"). MUR_STATIC=0 builds
# against the system's glibc instead; so does a machine without musl-gcc.
# The verbs go to mur's verb directory ($XDG_DATA_HOME/mur/verbs, by default
# ~/.local/share/mur/verbs); installed verbs of the same names are replaced.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
bin_dir="${CARGO_INSTALL_ROOT:-${CARGO_HOME:-$HOME/.cargo}}/bin"

install=(cargo install --locked --path host)
musl=x86_64-unknown-linux-musl
if [[ "${MUR_STATIC:-1}" != 0 && "$(uname -sm)" == "Linux x86_64" ]]; then
    if ! command -v musl-gcc >/dev/null; then
        echo "note: no musl-gcc: building against glibc (a static build starts faster: apt install musl-tools)"
    elif rustup target add "$musl" >/dev/null; then
        install+=(--target "$musl")
    else
        echo "note: rustup could not add $musl: building against glibc"
    fi
fi
echo "==> ${install[*]}"
"${install[@]}"

echo "==> building the standard verbs (plugins/build.sh)"
bash plugins/build.sh >/dev/null

echo "==> mur devtools verbs add --force plugins/target/wasm32-unknown-unknown/release/mur_verb_*.wasm"
"$bin_dir/mur" devtools verbs add --force plugins/target/wasm32-unknown-unknown/release/mur_verb_*.wasm

echo
echo "installed $("$bin_dir/mur" --version) at $bin_dir/mur, with $("$bin_dir/mur" devtools verbs list | tail -n +2 | wc -l | tr -d ' ') verbs"
case ":$PATH:" in
    *":$bin_dir:"*) ;;
    *) echo "hint: $bin_dir is not on your PATH; add it: export PATH=\"$bin_dir:\$PATH\"" ;;
esac
cat <<EOT

next:
  start a session: run your app with devtools enabled (a Rust app: see docs/server.md),
    or the sample app:  cargo run -p mur-sample -- --project /tmp/demo/App.csproj &
  then:               mur devtools session list --pretty
                      mur devtools tree
  completions:        mur completions bash > ~/.local/share/bash-completion/completions/mur
  for agents:         mur devtools guide
EOT
