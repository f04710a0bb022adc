#!/usr/bin/env bash
# Build the reshaped verbs of the `cli-compact` condition as WebAssembly components.
#
#   plugins/compact/build.sh     # from anywhere in the repo
#
# They land in plugins/compact/target/wasm32-unknown-unknown/release/mur_verb_compact_<name>.wasm;
# the condition installs them over the standard verbs of the same names.
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target=wasm32-unknown-unknown
if ! rustup target list --installed | grep -qx "$target"; then
    rustup target add "$target"
fi
# Intermediate builds shared with the standard verbs (see plugins/build.sh).
export CARGO_BUILD_BUILD_DIR="${CARGO_BUILD_BUILD_DIR:-$dir/../../target/verb-builds}"
# Run from here, so cargo reads plugins/.cargo/config.toml (the component linker).
cd "$dir"
cargo build --manifest-path "$dir/Cargo.toml" --target-dir "$dir/target" --release --target "$target"
ls "$dir/target/$target/release"/mur_verb_compact_*.wasm
