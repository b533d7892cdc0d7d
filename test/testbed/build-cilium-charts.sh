#!/usr/bin/env bash
# The cilium charts of the cilium scenario (cilium-step.test.ts, issue 32 §4), as a Helm chart repository:
# each cilium release's Go module (github.com/cilium/cilium) holds that release's chart under
# install/kubernetes/cilium. The modules come from the Go module proxy, are checked against the hashes pinned
# below (go.sum's h1: form; the checksum database is not reachable here, so these pins are the check), and
# the testbed's helm packages each chart and indexes them. No chart is committed; the scenario serves OUT on
# loopback inside the testbed's namespace and points kaas's cilium_chart_repo at it, as an air-gapped site
# points it at its mirror.
#
#   build-cilium-charts.sh [OUT]   OUT defaults to .kaas-test/cilium-charts; helm from build-helm.sh
#
# The releases: v1.18.10 (the newest v1.18 the proxy serves here; kaas's table names v1.18.14, which it
# refuses), v1.19.3 and v1.20.2 (kaas's picks for Kubernetes 1.34–1.35 and 1.36).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${1:-$ROOT/.kaas-test/cilium-charts}
HELM=${KAAS_HELM:-$ROOT/.kaas-test/helm-bin/helm}
export GOPROXY=${KAAS_GOPROXY:-https://proxy.golang.org} GOTOOLCHAIN=local GOSUMDB=off GOFLAGS=-mod=mod
declare -A PIN=(
  [v1.18.10]=h1:GjDK7JOASSSv0DfaKnN5BQsAAqANq4khLqP5dBpqK7U=
  [v1.19.3]=h1:foJrHPk45HwshOd8Qf/kptf9JxPfNySkIDKsetZa9+Y=
  [v1.20.2]=h1:dqiEGIcXc+gqCLYG/l7VCFJ8GHyb4HUrwbZOpkX5dL8=
)
die() { echo "[cilium charts] $*" >&2; exit 1; }
command -v go >/dev/null || die "go is not on PATH (the charts come from the Go module proxy)"
[ -x "$HELM" ] || die "no helm at $HELM: run test/testbed/build-helm.sh first"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
st=$(for v in "${!PIN[@]}"; do echo "$v ${PIN[$v]}"; done | sort | cat - "$0" | sha256sum | cut -c1-16)
if [ -f "$OUT/index.yaml" ] && [ "$(cat "$OUT/.stamp" 2>/dev/null)" = "$st" ]; then
  echo "[cilium charts] up to date ($OUT, stamp $st)"; exit 0
fi
rm -f "$OUT/.stamp" "$OUT"/*.tgz "$OUT/index.yaml"
t0=$(date +%s)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for v in $(printf '%s\n' "${!PIN[@]}" | sort -V); do
  info=$(cd "$tmp" && go mod download -json "github.com/cilium/cilium@$v") || die "go mod download github.com/cilium/cilium@$v failed: $(printf '%s' "${info:-}" | jq -r '.Error // empty' 2>/dev/null)"
  sum=$(printf '%s' "$info" | jq -r '.Sum')
  [ "$sum" = "${PIN[$v]}" ] || die "github.com/cilium/cilium@$v: the module's hash is $sum, not the pinned ${PIN[$v]}"
  chart=$(printf '%s' "$info" | jq -r '.Dir')/install/kubernetes/cilium
  grep -q "^version: ${v#v}$" "$chart/Chart.yaml" || die "$chart/Chart.yaml is not version ${v#v}"
  "$HELM" package "$chart" -d "$OUT" >/dev/null || die "helm package $chart failed"
done
"$HELM" repo index "$OUT" >/dev/null
echo "$st" > "$OUT/.stamp"
echo "[cilium charts] $(ls "$OUT"/*.tgz | xargs -n1 basename | tr '\n' ' ')indexed in $OUT in $(($(date +%s) - t0)) s"
