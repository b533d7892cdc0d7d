#!/usr/bin/env bash
# Build the testbed's upstream components from pinned Go modules (no source is copied into the repo,
# no binary is committed). Called by `testbed.sh build`.
#
#   build.sh [BIN_DIR]      BIN_DIR defaults to $KAAS_TESTBED_BIN or .kaas-test/testbed-bin
#
# Four wrapper modules pin the versions (their go.mod/go.sum are the only inputs besides this file):
#   go/etcd  go.etcd.io/etcd/server/v3                           -> etcd
#   go/k8s   k8s.io/kubernetes (31 staging replaces)              -> kube-apiserver, kube-controller-manager,
#                                                                    kube-scheduler (version-stamped)
#            sigs.k8s.io/cluster-api                              -> capi-manager, capi-kubeadm-bootstrap,
#                                                                    capi-kubeadm-control-plane, clusterctl
#            sigs.k8s.io/cluster-api-provider-openstack           -> capo-manager
#            k8s.io/cloud-provider-openstack                      -> openstack-cloud-controller-manager
#            github.com/k-orc/openstack-resource-controller/v2     -> orc-manager
#   go/kwok  sigs.k8s.io/kwok (its own module: it pins k8s.io/* v0.33) -> kwok (the workload side's
#                                                                    simulated nodes and pods)
#   go/envoy-gateway  github.com/envoyproxy/gateway (its own module: it pins k8s.io/* v0.36 and
#                     Go >= 1.26.6)                               -> envoy-gateway (the controller that turns
#                                                                    kaas's Gateway + EnvoyProxy into the envoy
#                                                                    Deployment and LoadBalancer Service)
#   go/k8s (again, only with KAAS_TESTBED_DATAPATH=1)             -> kube-proxy, agnhost (the workload nodes'
#                                                                    real data path: datapath-nodes.sh)
# and the upstream YAML (CRDs, webhook configurations) is copied from the module cache into
# BIN_DIR/manifests/<module>/ for testbed.sh start to patch.
#
# A stamp (sha256 of the go.mod/go.sum pairs, the flags and this script) is kept in BIN_DIR/.stamp;
# when it matches and every output exists, nothing is built. Each binary is built on its own (one link
# each) but the Go build cache shares every compiled package, so a binary after the first costs mostly
# its own packages. Prints what it built and how long each part took.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=${1:-${KAAS_TESTBED_BIN:-$ROOT/.kaas-test/testbed-bin}}
mkdir -p "$BIN"
BIN=$(cd "$BIN" && pwd)

# The module proxy only (no direct VCS fallback: a missing module fails instead of reaching for git);
# the toolchain on the machine, no toolchain download; static binaries, as upstream builds them.
export GOPROXY=${KAAS_GOPROXY:-https://proxy.golang.org} GOTOOLCHAIN=local CGO_ENABLED=0
export GOFLAGS="-mod=readonly -buildvcs=false -trimpath"
command -v go >/dev/null || { echo "build.sh: go is not on PATH (the testbed needs Go >= 1.26.6 and the Go module proxy)" >&2; exit 1; }

K8S_VERSION=v1.34.10                 # k8s.io/kubernetes in go/k8s/go.mod
OCCM_VERSION=v1.34.1                 # k8s.io/cloud-provider-openstack in go/k8s/go.mod
K8S_LDFLAGS="-s -w -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=34
  -X k8s.io/component-base/version.gitTreeState=clean -X k8s.io/component-base/version.buildDate=2026-01-01T00:00:00Z"
# CAPI refuses a management cluster whose /version is the unstamped v0.0.0-master.
stamp_k8s="-X k8s.io/component-base/version.gitVersion=$K8S_VERSION"
stamp_occm="-X k8s.io/component-base/version.gitVersion=$OCCM_VERSION"
CAPI_VERSION=v1.12.10                # sigs.k8s.io/cluster-api in go/k8s/go.mod
stamp_capi="-X sigs.k8s.io/cluster-api/version.gitVersion=$CAPI_VERSION -X sigs.k8s.io/cluster-api/version.gitMajor=1 -X sigs.k8s.io/cluster-api/version.gitMinor=12"
EG_VERSION=v1.9.0                    # github.com/envoyproxy/gateway in go/envoy-gateway/go.mod
stamp_eg="-X github.com/envoyproxy/gateway/internal/cmd/version.envoyGatewayVersion=$EG_VERSION"

# output  module-dir  package  ldflags
TARGETS=(
  "etcd                               etcd go.etcd.io/etcd/server/v3                                             -s -w"
  "kube-apiserver                     k8s  k8s.io/kubernetes/cmd/kube-apiserver                                  K8S $stamp_k8s"
  "kube-controller-manager            k8s  k8s.io/kubernetes/cmd/kube-controller-manager                         K8S $stamp_k8s"
  "kube-scheduler                     k8s  k8s.io/kubernetes/cmd/kube-scheduler                                  K8S $stamp_k8s"
  "capi-manager                       k8s  sigs.k8s.io/cluster-api                                               -s -w"
  "capi-kubeadm-bootstrap             k8s  sigs.k8s.io/cluster-api/bootstrap/kubeadm                             -s -w"
  "capi-kubeadm-control-plane         k8s  sigs.k8s.io/cluster-api/controlplane/kubeadm                          -s -w"
  "clusterctl                         k8s  sigs.k8s.io/cluster-api/cmd/clusterctl                                -s -w $stamp_capi"
  "capo-manager                       k8s  sigs.k8s.io/cluster-api-provider-openstack                            -s -w"
  "orc-manager                        k8s  github.com/k-orc/openstack-resource-controller/v2/cmd/manager          -s -w"
  "openstack-cloud-controller-manager k8s  k8s.io/cloud-provider-openstack/cmd/openstack-cloud-controller-manager K8S $stamp_occm"
  "kwok                               kwok sigs.k8s.io/kwok/cmd/kwok                                          -s -w"
)
# Built only for the workload side (KAAS_TESTBED_WORKLOAD=1, testbed.sh start --workload) unless
# KAAS_TESTBED_ENVOY_GATEWAY=0: Envoy Gateway's
# controller is a large build of its own (8 minutes cold) that only the workload-side gateway rows use.
# Stamped on its own (BIN/.stamp-envoy-gateway), so switching between the two modes relinks nothing.
EG_TARGET="envoy-gateway                      envoy-gateway github.com/envoyproxy/gateway/cmd/envoy-gateway          -s -w $stamp_eg"
WITH_EG=${KAAS_TESTBED_WORKLOAD:-0}
[ "${KAAS_TESTBED_ENVOY_GATEWAY:-1}" = 0 ] && WITH_EG=0   # npm test's workload smoke: no gateway rows
# Built only for the data path (KAAS_TESTBED_DATAPATH=1, testbed.sh start --workload --datapath): a real
# kube-proxy per workload node and agnhost for the e2e-test-images pods (test/testbed/datapath-nodes.sh).
# Both come from k8s.io/kubernetes v1.34.10 (go/k8s); agnhost is k8s.io/kubernetes/test/images/agnhost in
# that module. Stamped on their own (BIN/.stamp-datapath): the default build neither builds nor relinks them.
DP_TARGETS=(
  "kube-proxy                         k8s  k8s.io/kubernetes/cmd/kube-proxy                                      K8S $stamp_k8s"
  "agnhost                            k8s  k8s.io/kubernetes/test/images/agnhost                                 -s -w"
)
WITH_DP=${KAAS_TESTBED_DATAPATH:-0}
# module@version  (directory under manifests/)  — YAML read from the module cache
MANIFEST_MODULES="sigs.k8s.io/cluster-api sigs.k8s.io/cluster-api-provider-openstack github.com/k-orc/openstack-resource-controller/v2"

stamp=$(cat "$HERE/go/etcd/go.mod" "$HERE/go/etcd/go.sum" "$HERE/go/k8s/go.mod" "$HERE/go/k8s/go.sum" \
  "$HERE/go/kwok/go.mod" "$HERE/go/kwok/go.sum" "$0" \
  <(go version) <(printf '%s\n' "${TARGETS[@]}" "$K8S_LDFLAGS" "$GOFLAGS") | sha256sum | cut -c1-16)
complete=1
for t in "${TARGETS[@]}"; do read -r out _ <<<"$t"; [ -x "$BIN/$out" ] || complete=""; done
[ -d "$BIN/manifests" ] || complete=""
build_one() { # target line
  local out mod pkg flags t0
  read -r out mod pkg flags <<<"$1"
  flags=${flags/K8S/$(echo $K8S_LDFLAGS)}
  t0=$(date +%s)
  ( cd "$HERE/go/$mod" && go build -p 2 -ldflags "$flags" -o "$BIN/$out.new" "$pkg" ) \
    || { echo "[testbed build] FAILED: $out ($pkg in test/testbed/go/$mod)" >&2; exit 1; }
  mv "$BIN/$out.new" "$BIN/$out"
  echo "[testbed build] built $out ($pkg) in $(($(date +%s) - t0)) s"
}
envoy_gateway() {
  [ "$WITH_EG" = 1 ] || return 0
  local st
  st=$(cat "$HERE/go/envoy-gateway/go.mod" "$HERE/go/envoy-gateway/go.sum" "$0" <(go version) <(printf '%s\n' "$EG_TARGET" "$GOFLAGS") | sha256sum | cut -c1-16)
  if [ -x "$BIN/envoy-gateway" ] && [ "$(cat "$BIN/.stamp-envoy-gateway" 2>/dev/null)" = "$st" ]; then
    echo "[testbed build] envoy-gateway up to date (stamp $st)"; return 0
  fi
  rm -f "$BIN/.stamp-envoy-gateway"
  build_one "$EG_TARGET"
  echo "$st" > "$BIN/.stamp-envoy-gateway"
}
datapath() {
  [ "$WITH_DP" = 1 ] || return 0
  local st t out ok=1
  st=$(cat "$HERE/go/k8s/go.mod" "$HERE/go/k8s/go.sum" "$0" <(go version) <(printf '%s\n' "${DP_TARGETS[@]}" "$K8S_LDFLAGS" "$GOFLAGS") | sha256sum | cut -c1-16)
  for t in "${DP_TARGETS[@]}"; do read -r out _ <<<"$t"; [ -x "$BIN/$out" ] || ok=""; done
  if [ -n "$ok" ] && [ "$(cat "$BIN/.stamp-datapath" 2>/dev/null)" = "$st" ]; then
    echo "[testbed build] kube-proxy, agnhost up to date (stamp $st)"; return 0
  fi
  rm -f "$BIN/.stamp-datapath"
  for t in "${DP_TARGETS[@]}"; do build_one "$t"; done
  echo "$st" > "$BIN/.stamp-datapath"
}
if [ -n "$complete" ] && [ "$(cat "$BIN/.stamp" 2>/dev/null)" = "$stamp" ]; then
  echo "[testbed build] up to date ($BIN, stamp $stamp): nothing built"
  envoy_gateway
  datapath
  exit 0
fi

T_ALL=$(date +%s)
echo "[testbed build] $(go version | cut -d' ' -f3-), GOPROXY=$GOPROXY, into $BIN"
rm -f "$BIN/.stamp"
for t in "${TARGETS[@]}"; do build_one "$t"; done

t0=$(date +%s)
rm -rf "$BIN/manifests.new"; mkdir -p "$BIN/manifests.new"
for m in $MANIFEST_MODULES; do
  dir=$(cd "$HERE/go/k8s" && go list -m -f '{{.Dir}}' "$m")
  [ -d "$dir" ] || (cd "$HERE/go/k8s" && go mod download "$m")
  dir=$(cd "$HERE/go/k8s" && go list -m -f '{{.Dir}}' "$m")
  ver=$(cd "$HERE/go/k8s" && go list -m -f '{{.Version}}' "$m")
  dest="$BIN/manifests.new/$(basename "${m%/v2}")"
  mkdir -p "$dest"
  # Only the YAML the testbed installs: CRD bases, webhook manifests and kustomizations (for the labels).
  (cd "$dir" && find . -path ./test -prune -o \( -path '*/config/crd/*' -o -path '*/config/webhook/*' \) -name '*.yaml' -print) \
    | while read -r f; do mkdir -p "$dest/$(dirname "$f")"; cp "$dir/$f" "$dest/$f"; done
  chmod -R u+w "$dest"
  echo "$m $ver" > "$dest/VERSION"
done
rm -rf "$BIN/manifests"; mv "$BIN/manifests.new" "$BIN/manifests"
echo "[testbed build] copied upstream CRD and webhook YAML in $(($(date +%s) - t0)) s"
echo "$stamp" > "$BIN/.stamp"
echo "[testbed build] done in $(($(date +%s) - T_ALL)) s: ${#TARGETS[@]} binaries in $BIN"
envoy_gateway
datapath
