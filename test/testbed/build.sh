#!/usr/bin/env bash
# Build the testbed's upstream components from pinned Go modules (no source is copied into the repo,
# no binary is committed). Called by `testbed.sh build`.
#
#   build.sh [BIN_DIR]      BIN_DIR defaults to $KAAS_TESTBED_BIN or .kaas-test/testbed-bin (release set
#                           v1.12) / .kaas-test/testbed-bin-current (release set current)
#
# KAAS_TESTBED_RELEASES selects the release set (docs/development/testbed-releases.md):
#   v1.12            the modules below: Kubernetes 1.34, Cluster API v1.12, CAPO v0.14.7, ORC v2.4, KWOK v0.7
#   current (default) go/current/k8s (Kubernetes 1.36.3, Cluster API v1.14.2, OCCM v1.36.0, KWOK v0.8.0, and
#                    kube-proxy/agnhost of the same Kubernetes) and go/current/capo (CAPO v0.14.7 with its
#                    own pins, ORC v2.6.0); etcd and Envoy Gateway are the same modules in both sets.
# Each set has its own stamp; its BIN_DIR default differs, so switching sets relinks nothing.
#
# The v1.12 set's wrapper modules pin the versions (their go.mod/go.sum are the only inputs besides this file):
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
# (go/helm, helm.sh/helm/v3 cmd/helm, is built by build-helm.sh alone: not yet part of this build, whose cold
#  time has not been measured with it; docs/guides/cluster-stacks-variables.md)
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

# The module proxy only (no direct VCS fallback: a missing module fails instead of reaching for git);
# the toolchain on the machine, no toolchain download; static binaries, as upstream builds them.
export GOPROXY=${KAAS_GOPROXY:-https://proxy.golang.org} GOTOOLCHAIN=local CGO_ENABLED=0
export GOFLAGS="-mod=readonly -buildvcs=false -trimpath"
command -v go >/dev/null || { echo "build.sh: go is not on PATH (the testbed needs Go >= 1.26.6 and the Go module proxy)" >&2; exit 1; }

# The release set: module directories (under go/) and the versions they pin (stamped into the binaries).
RELEASES=${KAAS_TESTBED_RELEASES:-current}
case "$RELEASES" in
  v1.12)
    K8S_MOD=k8s CAPO_MOD=k8s KWOK_MOD=kwok
    K8S_VERSION=v1.34.10             # k8s.io/kubernetes in go/k8s/go.mod
    OCCM_VERSION=v1.34.1             # k8s.io/cloud-provider-openstack in go/k8s/go.mod
    CAPI_VERSION=v1.12.10            # sigs.k8s.io/cluster-api in go/k8s/go.mod
    CAPI_CORE=sigs.k8s.io/cluster-api ;;
  current)
    K8S_MOD=current/k8s CAPO_MOD=current/capo KWOK_MOD=current/k8s
    K8S_VERSION=v1.36.3              # k8s.io/kubernetes in go/current/k8s/go.mod
    OCCM_VERSION=v1.36.0             # k8s.io/cloud-provider-openstack in go/current/k8s/go.mod
    CAPI_VERSION=v1.14.2             # sigs.k8s.io/cluster-api in go/current/k8s/go.mod
    # CAPI v1.14 moved the core manager's main package (and its config/) from the module root to core/.
    CAPI_CORE=sigs.k8s.io/cluster-api/core ;;
  *) echo "build.sh: KAAS_TESTBED_RELEASES=$RELEASES is not a release set: use current (the default) or v1.12" >&2; exit 2 ;;
esac
[ -n "${1:-}${KAAS_TESTBED_BIN:-}" ] || { [ "$RELEASES" = v1.12 ] || BIN=$ROOT/.kaas-test/testbed-bin-$RELEASES; }
mkdir -p "$BIN"
BIN=$(cd "$BIN" && pwd)
k8s_minor=${K8S_VERSION#v1.}; k8s_minor=${k8s_minor%%.*}
capi_minor=${CAPI_VERSION#v1.}; capi_minor=${capi_minor%%.*}
K8S_LDFLAGS="-s -w -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$k8s_minor
  -X k8s.io/component-base/version.gitTreeState=clean -X k8s.io/component-base/version.buildDate=2026-01-01T00:00:00Z"
# CAPI refuses a management cluster whose /version is the unstamped v0.0.0-master.
stamp_k8s="-X k8s.io/component-base/version.gitVersion=$K8S_VERSION"
stamp_occm="-X k8s.io/component-base/version.gitVersion=$OCCM_VERSION"
stamp_capi="-X sigs.k8s.io/cluster-api/version.gitVersion=$CAPI_VERSION -X sigs.k8s.io/cluster-api/version.gitMajor=1 -X sigs.k8s.io/cluster-api/version.gitMinor=$capi_minor"
EG_VERSION=v1.9.0                    # github.com/envoyproxy/gateway in go/envoy-gateway/go.mod
stamp_eg="-X github.com/envoyproxy/gateway/internal/cmd/version.envoyGatewayVersion=$EG_VERSION"

# output  module-dir  package  ldflags
TARGETS=(
  "etcd                               etcd       go.etcd.io/etcd/server/v3                                             -s -w"
  "kube-apiserver                     $K8S_MOD   k8s.io/kubernetes/cmd/kube-apiserver                                  K8S $stamp_k8s"
  "kube-controller-manager            $K8S_MOD   k8s.io/kubernetes/cmd/kube-controller-manager                         K8S $stamp_k8s"
  "kube-scheduler                     $K8S_MOD   k8s.io/kubernetes/cmd/kube-scheduler                                  K8S $stamp_k8s"
  "capi-manager                       $K8S_MOD   $CAPI_CORE                                                            -s -w"
  "capi-kubeadm-bootstrap             $K8S_MOD   sigs.k8s.io/cluster-api/bootstrap/kubeadm                             -s -w"
  "capi-kubeadm-control-plane         $K8S_MOD   sigs.k8s.io/cluster-api/controlplane/kubeadm                          -s -w"
  "clusterctl                         $K8S_MOD   sigs.k8s.io/cluster-api/cmd/clusterctl                                -s -w $stamp_capi"
  "capo-manager                       $CAPO_MOD  sigs.k8s.io/cluster-api-provider-openstack                            -s -w"
  "orc-manager                        $CAPO_MOD  github.com/k-orc/openstack-resource-controller/v2/cmd/manager          -s -w"
  "openstack-cloud-controller-manager $K8S_MOD   k8s.io/cloud-provider-openstack/cmd/openstack-cloud-controller-manager K8S $stamp_occm"
  "kwok                               $KWOK_MOD  sigs.k8s.io/kwok/cmd/kwok                                          -s -w"
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
# Both come from the set's k8s.io/kubernetes (go/k8s or go/current/k8s); agnhost is
# k8s.io/kubernetes/test/images/agnhost in that module. Stamped on their own (BIN/.stamp-datapath): the default build neither builds nor relinks them.
DP_TARGETS=(
  "kube-proxy                         $K8S_MOD  k8s.io/kubernetes/cmd/kube-proxy                                      K8S $stamp_k8s"
  "agnhost                            $K8S_MOD  k8s.io/kubernetes/test/images/agnhost                                 -s -w"
)
WITH_DP=${KAAS_TESTBED_DATAPATH:-0}
# module:wrapper-module (directory under manifests/: the module's base name) — YAML read from the module cache
MANIFEST_MODULES="sigs.k8s.io/cluster-api:$K8S_MOD sigs.k8s.io/cluster-api-provider-openstack:$CAPO_MOD github.com/k-orc/openstack-resource-controller/v2:$CAPO_MOD"
# The set's wrapper modules (their go.mod/go.sum go into the stamp).
SET_MODS=$(printf '%s\n' etcd "$K8S_MOD" "$CAPO_MOD" "$KWOK_MOD" | sort -u)

stamp=$({ for m in $SET_MODS; do cat "$HERE/go/$m/go.mod" "$HERE/go/$m/go.sum"; done; cat "$0"
  echo "$RELEASES"; go version; printf '%s\n' "${TARGETS[@]}" "$K8S_LDFLAGS" "$GOFLAGS"; } | sha256sum | cut -c1-16)
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
  st=$(cat "$HERE/go/$K8S_MOD/go.mod" "$HERE/go/$K8S_MOD/go.sum" "$0" <(echo "$RELEASES") <(go version) <(printf '%s\n' "${DP_TARGETS[@]}" "$K8S_LDFLAGS" "$GOFLAGS") | sha256sum | cut -c1-16)
  for t in "${DP_TARGETS[@]}"; do read -r out _ <<<"$t"; [ -x "$BIN/$out" ] || ok=""; done
  if [ -n "$ok" ] && [ "$(cat "$BIN/.stamp-datapath" 2>/dev/null)" = "$st" ]; then
    echo "[testbed build] kube-proxy, agnhost up to date (stamp $st)"; return 0
  fi
  rm -f "$BIN/.stamp-datapath"
  for t in "${DP_TARGETS[@]}"; do build_one "$t"; done
  echo "$st" > "$BIN/.stamp-datapath"
}
# What testbed.sh stamps into the testbed (the apiserver's version, the image name, testbed.env).
printf 'TESTBED_RELEASES=%s\nK8S_VERSION=%s\nCAPI_VERSION=%s\nOCCM_VERSION=%s\n' "$RELEASES" "$K8S_VERSION" "$CAPI_VERSION" "$OCCM_VERSION" > "$BIN/releases.env"
if [ -n "$complete" ] && [ "$(cat "$BIN/.stamp" 2>/dev/null)" = "$stamp" ]; then
  echo "[testbed build] up to date ($BIN, stamp $stamp): nothing built"
  envoy_gateway
  datapath
  exit 0
fi

T_ALL=$(date +%s)
echo "[testbed build] release set $RELEASES (Kubernetes $K8S_VERSION, Cluster API $CAPI_VERSION), $(go version | cut -d' ' -f3-), GOPROXY=$GOPROXY, into $BIN"
rm -f "$BIN/.stamp"
for t in "${TARGETS[@]}"; do build_one "$t"; done

t0=$(date +%s)
rm -rf "$BIN/manifests.new"; mkdir -p "$BIN/manifests.new"
for mm in $MANIFEST_MODULES; do
  m=${mm%%:*} wm=$HERE/go/${mm#*:}
  dir=$(cd "$wm" && go list -m -f '{{.Dir}}' "$m")
  [ -d "$dir" ] || (cd "$wm" && go mod download "$m")
  dir=$(cd "$wm" && go list -m -f '{{.Dir}}' "$m")
  ver=$(cd "$wm" && go list -m -f '{{.Version}}' "$m")
  dest="$BIN/manifests.new/$(basename "${m%/v2}")"
  mkdir -p "$dest"
  # Only the YAML the testbed installs: CRD bases, webhook manifests and kustomizations (for the labels).
  (cd "$dir" && find . -path ./test -prune -o \( -path '*/config/crd/*' -o -path '*/config/webhook/*' \) -name '*.yaml' -print) \
    | while read -r f; do mkdir -p "$dest/$(dirname "$f")"; cp "$dir/$f" "$dest/$f"; done
  chmod -R u+w "$dest"
  echo "$m $ver" > "$dest/VERSION"
done
# KWOK's stages (what a fake node and pod go through), for workload.sh: KWOK v0.8.0 no longer falls back to
# built-in stages when its --config has none ("no stages found", exit 1); v0.7.0 did, with these same files
# embedded (sigs.k8s.io/kwok pkg/kwok/cmd/root.go getDefaultNodeStages/getDefaultPodStages at v0.7.0:
# node/fast, node/heartbeat since its node lease duration defaults to 40 s, pod/fast).
dir=$(cd "$HERE/go/$KWOK_MOD" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)
mkdir -p "$BIN/manifests.new/kwok/stage"
for f in node/fast/node-initialize node/heartbeat/node-heartbeat pod/fast/pod-ready pod/fast/pod-complete pod/fast/pod-delete; do
  cp "$dir/kustomize/stage/$f.yaml" "$BIN/manifests.new/kwok/stage/" \
    || { echo "[testbed build] FAILED: KWOK stage $f.yaml not in $dir/kustomize/stage" >&2; exit 1; }
done
chmod -R u+w "$BIN/manifests.new/kwok"
rm -rf "$BIN/manifests"; mv "$BIN/manifests.new" "$BIN/manifests"
echo "[testbed build] copied upstream CRD and webhook YAML and KWOK's stages in $(($(date +%s) - t0)) s"
echo "$stamp" > "$BIN/.stamp"
echo "[testbed build] done in $(($(date +%s) - T_ALL)) s: ${#TARGETS[@]} binaries in $BIN"
envoy_gateway
datapath
