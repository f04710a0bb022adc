#!/usr/bin/env bash
# Build every standard `mur devtools` verb as a WebAssembly component.
#
#   plugins/build.sh            # from anywhere in the repo
#
# Installs the `wasm32-unknown-unknown` Rust target with rustup when it is missing, then
# builds the plugins workspace in release mode for it. The toolchain's component linker
# (plugins/.cargo/config.toml) emits components, so no cargo-component is needed, and a
# verb built without WASI imports nothing. The components land in
# plugins/target/wasm32-unknown-unknown/release/mur_verb_<name>.wasm; `mur devtools
# verbs add` installs them into mur's verb directory.
set -euo pipefail

plugins_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target=wasm32-unknown-unknown

if ! rustup target list --installed | grep -qx "$target"; then
    echo "installing the Rust target $target" >&2
    rustup target add "$target"
fi

# The verb workspaces (this one, plugins/compact and the test guests) build with the
# same release profile into one directory of intermediate builds, so the crates they
# share (wit-bindgen and its macro crates, serde_json) compile once for all of them;
# each workspace's components still land in its own target dir.
export CARGO_BUILD_BUILD_DIR="${CARGO_BUILD_BUILD_DIR:-$plugins_dir/../target/verb-builds}"
# An explicit target dir, so a CARGO_TARGET_DIR in the environment cannot move the output;
# run from here, so cargo reads plugins/.cargo/config.toml (the linker).
cd "$plugins_dir"
cargo build --manifest-path "$plugins_dir/Cargo.toml" --target-dir "$plugins_dir/target" --release --target "$target"

out_dir="$plugins_dir/target/$target/release"
echo "verb components are in $out_dir:"
ls "$out_dir"/mur_verb_*.wasm
echo "install them with: mur devtools verbs add $out_dir/mur_verb_*.wasm"
