#!/usr/bin/env bash
# Command two: every test of the project — the workspace's unit, end-to-end,
# interop and conformance tests, then the standard verbs' own unit tests and the
# cli-compact condition's (separate cargo workspaces built natively here).
#
#   bash scripts/test.sh
#
# The end-to-end tests build what they need themselves: the binaries, the
# standard verbs for wasm32-unknown-unknown and the test guests for wasm32-wasip2
# (adding each target via rustup when missing), and their npm packages (npm ci on
# first use).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

# The two verb workspaces share their dependencies' native builds, as their
# wasm builds do (plugins/build.sh); the workspace's own build keeps target/.
verb_builds="$repo/target/verb-builds"
CARGO_BUILD_BUILD_DIR="$verb_builds" cargo test --manifest-path plugins/Cargo.toml
CARGO_BUILD_BUILD_DIR="$verb_builds" cargo test --manifest-path plugins/compact/Cargo.toml
cargo test --workspace --no-fail-fast
