#!/usr/bin/env bash
# Installs a MongoDB-compatible engine for the integration tests, idempotently.
#
# 1. If `mongod` or `ferretdb` is on PATH, or .tools/bin/ferretdb already runs, it says so and stops.
# 2. Otherwise it builds FerretDB v1.24.2 (SQLite backend, pure Go, no cgo needed) from the Go module
#    proxy into .tools/bin/ferretdb. Go must be installed.
#
# What was found on the project's machines (Go 1.26.x):
#  - `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2` fails: the proxy answers 403 to the
#    module's @v/list lookup that `go install pkg@version` makes (deprecation check). It is still tried
#    first, so the script works unchanged wherever the proxy allows it.
#  - A binary built straight from the read-only module cache panics at start with
#    "Invalid build/version/version.txt": that file is empty in the module zip (FerretDB fills it from
#    git at release time).
#  - What works: `go mod download -json github.com/FerretDB/FerretDB@v1.24.2` inside a throwaway module
#    to get the source "Dir", copy it to a temp folder, make it writable, write "v1.24.2" into
#    build/version/version.txt and `go build -trimpath ./cmd/ferretdb` inside the copy (about three
#    minutes cold on two cores, download included; a line every 20 s says it is still going).
#  - If a build fails on a go:linkname restriction (newer Go toolchains), it is retried with
#    -ldflags=-checklinkname=0. With Go 1.26.8 the plain build succeeded; the retry was not needed.
set -euo pipefail

FERRETDB_VERSION="v1.24.2"
MODULE="github.com/FerretDB/FerretDB"

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS_BIN="$REPO_ROOT/.tools/bin"
TARGET="$TOOLS_BIN/ferretdb"

# Messages go to the script's stderr as it started (fd 3), also from a step whose output is logged.
exec 3>&2
log() { printf '[ferretdb-install] %s\n' "$*" >&3; }
die() {
  log "ERROR: $*"
  exit 1
}

# --- 1. Already there? ---------------------------------------------------------------------------
if command -v mongod >/dev/null 2>&1; then
  log "found mongod on PATH: $(command -v mongod) ($(mongod --version 2>/dev/null | head -n1 || echo 'version unknown'))"
  exit 0
fi
if command -v ferretdb >/dev/null 2>&1 && ferretdb --version >/dev/null 2>&1; then
  log "found ferretdb on PATH: $(command -v ferretdb) ($(ferretdb --version 2>/dev/null | head -n1))"
  exit 0
fi
if [[ -x "$TARGET" ]] && "$TARGET" --version >/dev/null 2>&1; then
  log "found $TARGET ($("$TARGET" --version 2>/dev/null | head -n1))"
  exit 0
fi

# --- 2. Build it ---------------------------------------------------------------------------------
command -v go >/dev/null 2>&1 ||
  die "Go is not installed (needed to build FerretDB $FERRETDB_VERSION). Install Go >= 1.22, or put mongod or ferretdb on PATH."
log "no mongod/ferretdb found; building FerretDB $FERRETDB_VERSION with $(go version)"
mkdir -p "$TOOLS_BIN"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/ferretdb-build.XXXXXX")"
cleanup() { chmod -R u+w "$WORK" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

export CGO_ENABLED="${CGO_ENABLED:-0}"
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"

works() { [[ -x "$TARGET" ]] && "$TARGET" --version >/dev/null 2>&1; }

# `with_progress COMMAND...` runs COMMAND, saying every 20 s that it still runs (a cold build is
# silent for minutes otherwise), and returns its status.
with_progress() {
  local started=$SECONDS next=20
  "$@" &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    if ((SECONDS - started >= next)); then
      log "$1 $2 still running… $((SECONDS - started)) s"
      next=$((next + 20))
    fi
  done
  wait "$pid"
}

# `go_build SUBCOMMAND ARGS...` runs `go SUBCOMMAND ARGS...`; on a go:linkname failure it retries
# once as `go SUBCOMMAND -ldflags=-checklinkname=0 ARGS...`.
go_build() {
  local sub="$1" out="$WORK/build.log"
  shift
  if with_progress go "$sub" "$@" >"$out" 2>&1; then return 0; fi
  if grep -qi 'linkname' "$out"; then
    log "build hit a go:linkname restriction; retrying with -ldflags=-checklinkname=0"
    with_progress go "$sub" -ldflags=-checklinkname=0 "$@" >"$out" 2>&1 && return 0
  fi
  sed 's/^/    /' "$out" >&2
  return 1
}

# 2a. Plain `go install` (works where the proxy serves @v/list). The binary must also start:
#     one built from the module cache has an empty version.txt and panics.
log "trying: go install $MODULE/cmd/ferretdb@$FERRETDB_VERSION"
if GOBIN="$TOOLS_BIN" go_build install -trimpath "$MODULE/cmd/ferretdb@$FERRETDB_VERSION"; then
  if works; then
    log "installed $TARGET ($("$TARGET" --version | head -n1))"
    exit 0
  fi
  log "go install produced a binary that does not start (empty build/version/version.txt); building from a patched copy"
  rm -f "$TARGET"
else
  log "go install failed (see above); building from a patched copy of the module source"
fi

# 2b. Download the module source, patch version.txt, build from the copy.
log "downloading $MODULE@$FERRETDB_VERSION source"
mkdir -p "$WORK/mod"
(cd "$WORK/mod" && go mod init ferretdb-build.local >/dev/null 2>&1)
JSON="$(cd "$WORK/mod" && with_progress go mod download -json "$MODULE@$FERRETDB_VERSION")" ||
  die "go mod download $MODULE@$FERRETDB_VERSION failed: $JSON"
SRC_DIR="$(printf '%s\n' "$JSON" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p' | head -n1)"
[[ -n "$SRC_DIR" && -d "$SRC_DIR" ]] || die "could not find the module source dir in: $JSON"

cp -R "$SRC_DIR" "$WORK/src"
chmod -R u+w "$WORK/src"
echo "$FERRETDB_VERSION" >"$WORK/src/build/version/version.txt"

log "building ./cmd/ferretdb (about three minutes the first time)"
(cd "$WORK/src" && go_build build -trimpath -o "$TARGET" ./cmd/ferretdb) ||
  die "go build of FerretDB $FERRETDB_VERSION failed"

works || die "built $TARGET but '$TARGET --version' fails"
log "installed $TARGET ($("$TARGET" --version | head -n1))"
