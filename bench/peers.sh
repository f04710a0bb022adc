#!/bin/sh
# Installs the peer clients mur-bench measures against the same session, pinned,
# into bench/peers/ (ignored by git; nothing else on the machine changes):
#
#   mcporter                        `mcporter call <endpoint>.<tool> key=value`
#   @modelcontextprotocol/inspector the MCP Inspector: `mcp-inspector --cli` and its
#                                   `mcpdo` command-line client
#   node                            Node.js 24 from npm (the Inspector needs >= 22.19),
#                                   which runs both
#
# Then `cargo run --release -p mur-bench -- --only peers` measures them. CI never
# runs this; without it the peers section says the peers are not installed.
set -eu
cd "$(dirname "$0")"
mkdir -p peers
# A directory that ignores itself: no change to the repository's .gitignore.
printf '*\n' > peers/.gitignore
cat > peers/package.json <<'JSON'
{
  "name": "mur-bench-peers",
  "private": true,
  "description": "Peer MCP clients measured by mur-bench (bench/peers.sh)",
  "dependencies": {
    "@modelcontextprotocol/inspector": "2.12.0",
    "mcporter": "0.12.3",
    "node": "24.21.0"
  }
}
JSON
npm install --prefix peers --no-audit --no-fund --loglevel=error
node=peers/node_modules/node/bin/node
"$node" --version
echo "peers installed in $(pwd)/peers"
