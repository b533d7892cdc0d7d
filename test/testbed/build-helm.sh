#!/usr/bin/env bash
# Build helm (helm.sh/helm/v3 cmd/helm, pinned by test/testbed/go/helm/go.mod and go.sum) from the Go
# module proxy; no binary is committed. The tests that render the Cluster Stacks class chart
# (test/unit/cluster/class-patches-helm.test.ts) run $KAAS_HELM, else .kaas-test/helm-bin/helm.
#
#   build-helm.sh [BIN_DIR]   BIN_DIR defaults to $KAAS_HELM_BIN or .kaas-test/helm-bin
#
# build.sh calls it with the testbed's bin dir. A stamp (sha256 of go.mod/go.sum, this script, go
# version, flags) in BIN_DIR/.stamp-helm skips a build that is up to date.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=${1:-${KAAS_HELM_BIN:-$ROOT/.kaas-test/helm-bin}}
export GOPROXY=${KAAS_GOPROXY:-https://proxy.golang.org} GOTOOLCHAIN=local CGO_ENABLED=0
export GOFLAGS="-mod=readonly -buildvcs=false -trimpath"
command -v go >/dev/null || { echo "build-helm.sh: go is not on PATH (helm needs Go >= 1.26.6 and the Go module proxy)" >&2; exit 1; }
mkdir -p "$BIN"
BIN=$(cd "$BIN" && pwd)
MOD=$HERE/go/helm
st=$(cat "$MOD/go.mod" "$MOD/go.sum" "$0" <(go version) <(echo "$GOFLAGS") | sha256sum | cut -c1-16)
if [ -x "$BIN/helm" ] && [ "$(cat "$BIN/.stamp-helm" 2>/dev/null)" = "$st" ]; then
  echo "[helm build] helm up to date ($BIN/helm, stamp $st)"; exit 0
fi
rm -f "$BIN/.stamp-helm"
t0=$(date +%s)
( cd "$MOD" && go build -p 2 -ldflags "-s -w" -o "$BIN/helm.new" helm.sh/helm/v3/cmd/helm ) \
  || { echo "[helm build] FAILED: helm.sh/helm/v3/cmd/helm in test/testbed/go/helm" >&2; exit 1; }
mv "$BIN/helm.new" "$BIN/helm"
echo "$st" > "$BIN/.stamp-helm"
echo "[helm build] built helm into $BIN in $(($(date +%s) - t0)) s"
