#!/usr/bin/env bash
# The Dockerfile runs `npm run build` on the build context that .dockerignore leaves. No Docker
# engine runs here, so this builds that same context in a temporary folder (with the installed
# node_modules) and fails when something the build needs is ignored: a module imported from
# test/, say. Paths only; the image's own `npm ci` is not repeated.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
context="$(mktemp -d)"
trap 'rm -rf "$context"' EXIT

# rsync reads .dockerignore's plain names and globs as patterns at any depth, where Docker anchors
# them at the root: it can only leave out more than the image does, so a pass here holds there.
command -v rsync >/dev/null || { echo "[check-image-context] rsync is needed" >&2; exit 1; }
rsync -a --exclude-from=.dockerignore ./ "$context/"
ln -s "$PWD/node_modules" "$context/node_modules"
if ! output="$(cd "$context" && npm run --silent build 2>&1)"; then
  echo "$output" >&2
  echo "[check-image-context] npm run build fails on the image's build context" >&2
  exit 1
fi
for entry in gateway/src/main.js rest-facade/src/main.js subgraphs/analytics/src/main.js \
  subgraphs/keys/src/main.js subgraphs/webhooks/src/main.js scripts/admin.js; do
  [[ -f "$context/dist/$entry" ]] || { echo "[check-image-context] dist/$entry missing" >&2; exit 1; }
done
[[ -f "$context/dashboard/dist/index.html" ]] ||
  { echo "[check-image-context] dashboard/dist/index.html missing (the gateway serves it)" >&2; exit 1; }
echo "[check-image-context] the image's build context builds" >&2
