#!/usr/bin/env bash
# The kaas testbed: a real management cluster (etcd, kube-apiserver, kube-controller-manager, the Cluster
# API core, kubeadm bootstrap and kubeadm control-plane managers, CAPO) built from pinned Go modules, next
# to a real OpenStack peer (test/peer/start.sh), all inside a network namespace this script creates.
#
#   testbed.sh build         build (or find up to date) the binaries: test/testbed/build.sh
#   testbed.sh start DIR     start everything, leave DIR/testbed.env and DIR/settings/testbed.yaml
#   testbed.sh start --workload DIR   also the workload side (or KAAS_TESTBED_WORKLOAD=1): test/testbed/workload.sh
#   testbed.sh start --workload --datapath DIR   also the nodes' real data path (or KAAS_TESTBED_DATAPATH=1; implies
#                            --workload): kube-proxy per node, pods that answer (test/testbed/datapath-nodes.sh)
#   testbed.sh stop DIR      stop exactly what start DIR started, delete the namespace
#   testbed.sh upgrade DIR   a running v1.12 testbed's management cluster to the current set's Cluster API, with
#                            the real `clusterctl upgrade apply` (below; docs/development/testbed-releases.md)
# KAAS_TESTBED_AMPHORA=1 (needs the data path; never in npm test): the peer runs real amphorae from its start
#                            (PEER_AMPHORA=1: octavia-worker's real drivers, health manager, Nova boots each
#                            amphora as a container; docs/development/amphora-testbed.md)
# KAAS_TESTBED_AMPHORA=region (needs the data path; npm test's smoke): real amphorae only for load balancers
#                            made through region RegionAmphora (PEER_AMPHORA=region; testbed.env AMPHORA=region
#                            and AMPHORA_CLOUD, the clouds.yaml entry there); the kube-API LBs stay no-op
#
# Isolation: everything runs in the named network namespace TESTBED_NETNS (ip netns), whose only link is
# lo; the peer's external (floating-IP) range PEER_EXTERNAL_CIDR is put on that lo, so the API load
# balancer's floating IP that CAPI's ClusterCache dials, and any LB VIP, is an address of the namespace
# itself: nothing can reach, or leave for, an address outside it. The build (Go module proxy) and the
# peer's package install (Debian) run outside, before. With the data path the range is the peer's br-ex
# instead (OVN answers floating IPs; test/peer/datapath.sh), the API floating IP a /32 on lo, and the
# namespace's other links (br-int, br-ex, ovs-netdev, the servers' tap*, the nodes' mg-*, the client's
# cl-h) lead only to namespaces of this run: the VMs' kaas-vm-*, the pods' and CLIENT_NETNS, which sits
# on br-ex with an address neutron never allocates.
#
# What runs inside (all on 127.0.0.1 unless said):
#   the OpenStack peer       Keystone :5000, Octavia :9876/:9877 (+ worker), Neutron :9696, OVN NB/SB,
#                            Glance, Placement, Nova (fake virt driver), RabbitMQ — see test/peer/start.sh
#   etcd                     :2379 (tmpfs-friendly: --unsafe-no-fsync)
#   kube-apiserver           :6443, etcd prefix /mgmt, RBAC, own CA (DIR/pki); admin = client cert
#                            (O=system:masters), as envtest does
#   kube-controller-manager  :10257, garbage collector + namespace controllers (CAPI's deletion needs GC)
#   capi-manager             webhooks :9443, health :9440 (ClusterTopology on)
#   capi-kubeadm-bootstrap   webhooks :9444, health :9441
#   capi-kubeadm-control-plane webhooks :9445, health :9442
#   capo-manager             webhooks :9446, health :9447
# CRDs and webhook configurations come from the module zips, patched as envtest does
# (test/testbed/manifests.mjs): contract labels, conversion and webhook URLs on 127.0.0.1, the testbed CA.
#
# DIR/testbed.env (shell assignments): TESTBED_NETNS, TESTBED_DIR, MGMT_KUBECONFIG, OS_CLIENT_CONFIG_FILE,
# TESTBED_CLOUD (application credential of the peer's non-admin project "demo"), TESTBED_IMAGE,
# TESTBED_FLAVOR, TESTBED_EXTERNAL_NETWORK, PATH (the built clusterctl first) and
# CLUSTERCTL_DISABLE_VERSIONCHECK=true (clusterctl never looks online) (with the data path also DATAPATH=1 and
# CLIENT_NETNS, a namespace of its own for the tests' clients); DIR/settings/testbed.yaml: a kaas environment for it, so that
#   ip netns exec "$TESTBED_NETNS" kaas create-cluster NAME --settings-dir DIR/settings --env testbed
# is all a person types. Logs: DIR/log/. Needs root (namespaces, the peer).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
# The release set (KAAS_TESTBED_RELEASES=current|v1.12, build.sh; docs/development/testbed-releases.md): each
# has its own binaries directory, so switching sets relinks nothing.
RELEASES=${KAAS_TESTBED_RELEASES:-current}
case "$RELEASES" in
  v1.12) BIN=${KAAS_TESTBED_BIN:-$ROOT/.kaas-test/testbed-bin} ;;
  current) BIN=${KAAS_TESTBED_BIN:-$ROOT/.kaas-test/testbed-bin-current} ;;
  *) echo "testbed.sh: KAAS_TESTBED_RELEASES=$RELEASES is not a release set: use current (the default) or v1.12" >&2; exit 2 ;;
esac
EXTERNAL_CIDR=${PEER_EXTERNAL_CIDR:-172.24.4.0/24}
PEER_SCRIPTS=${KAAS_TESTBED_PEER_SCRIPTS:-$ROOT/test/peer}   # the peer's start.sh/stop.sh
K8S_VERSION=   # the set's Kubernetes version, from BIN/releases.env (written by build.sh)

die() { echo "testbed.sh: $*" >&2; exit 1; }
T0=$(date +%s%N)
say() { local ms=$((($(date +%s%N) - T0) / 1000000)); printf '[testbed %3d.%01ds] %s\n' $((ms / 1000)) $((ms % 1000 / 100)) "$*"; }

usage() { sed -n '7,13p' "$0" | sed 's/^# *//' >&2; exit 2; }
[ $# -ge 1 ] || usage
CMD=$1; shift

# The data path's Debian packages (kube-proxy's iptables (nft backend), nginx for the ingress controller pods).
DATAPATH_PACKAGES="iptables nginx-light"
datapath_packages() {
  local p missing="" guard=""
  for p in $DATAPATH_PACKAGES; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"; done
  [ -n "$missing" ] || return 0
  echo "[testbed] installing:$missing"
  # Maintainer scripts must not start nginx (policy-rc.d guard, as test/peer/start.sh).
  [ -e /usr/sbin/policy-rc.d ] || { printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; guard=1; }
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null \
    || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing >/dev/null; } \
    || { [ -n "$guard" ] && rm -f /usr/sbin/policy-rc.d; die "apt-get install$missing failed"; }
  [ -n "$guard" ] && rm -f /usr/sbin/policy-rc.d
  return 0
}

if [ "$CMD" = build ]; then
  KAAS_TESTBED_RELEASES=$RELEASES bash "$HERE/build.sh" "$BIN"
  [ "${KAAS_TESTBED_DATAPATH:-0}" = 1 ] && datapath_packages
  # The peer's Debian packages, while the registries are reachable (the namespace has no network).
  grep -q PEER_INSTALL_ONLY "$PEER_SCRIPTS/start.sh" || die "$PEER_SCRIPTS/start.sh cannot install its packages alone (PEER_INSTALL_ONLY)"
  # (with the data path also Open vSwitch, OVN and the fixed ovn provider from PyPI: PEER_DATAPATH=1)
  PEER_INSTALL_ONLY=1 NOVA=1 OCTAVIA_WORKER=1 NEUTRON=1 PEER_DATAPATH="${KAAS_TESTBED_DATAPATH:-0}" \
    PEER_AMPHORA="$([ "${KAAS_TESTBED_DATAPATH:-0}" = 1 ] && echo "${KAAS_TESTBED_AMPHORA:-0}" || echo 0)" bash "$PEER_SCRIPTS/start.sh" "$ROOT/.kaas-test/testbed-packages"
  exit 0
fi

WORKLOAD=${KAAS_TESTBED_WORKLOAD:-0}
DATAPATH=${KAAS_TESTBED_DATAPATH:-0}
while [ "${1:-}" = --workload ] || [ "${1:-}" = --datapath ]; do
  if [ "$1" = --workload ]; then WORKLOAD=1; else DATAPATH=1; fi
  shift
done
[ "$DATAPATH" = 1 ] && WORKLOAD=1   # the data path is the workload nodes'
# Real amphorae (issue 30): on from the peer's start, so every amphora LB boots a container, the workload
# cluster's kube-API LB included (docs/development/amphora-testbed.md says why not later).
AMPHORA=${KAAS_TESTBED_AMPHORA:-0}
case $AMPHORA in 0|1|region) ;; *) echo "testbed.sh: KAAS_TESTBED_AMPHORA=$AMPHORA: use 0, 1 or region" >&2; exit 2 ;; esac
if [ "$CMD" = start ] && [ "$AMPHORA" != 0 ] && [ "$DATAPATH" != 1 ]; then
  echo "testbed.sh: KAAS_TESTBED_AMPHORA=$AMPHORA needs the data path (amphorae are containers on OVN): add KAAS_TESTBED_DATAPATH=1 (or --datapath)" >&2; exit 2
fi
[ $# -ge 1 ] || usage
mkdir -p "$1"
DIR=$(cd "$1" && pwd)
NS=kaas-tb-$(printf '%s' "$DIR" | sha1sum | cut -c1-8)
CLIENT_NS=kaas-cl-${NS#kaas-tb-}   # DATAPATH=1: the namespace tests send requests from (the peer attaches it)
PIDS="$DIR/pids"
LOG="$DIR/log"
[ "$(id -u)" = 0 ] || die "run as root (network namespaces, the OpenStack peer)"
in_ns() { ip netns exec "$NS" "$@"; }

# ---------------------------------------------------------------- process bookkeeping (as test/peer)
ours() { ps -eo pgid=,args= | awk -v g="$1" -v d="$DIR/" '$1==g && index($0,d){f=1} END{exit !f}'; }
alive() { ps -eo pgid=,stat= | awk -v g="$1" '$1==g && $2!~/^Z/{f=1} END{exit !f}'; }
running() { [ -f "$PIDS" ] && awk -v n="$1" '$1==n{print $2}' "$PIDS" | { read -r p && ours "$p"; }; }
record() { { [ -f "$PIDS" ] && grep -v "^$1 " "$PIDS"; echo "$1 $2"; } > "$PIDS.new" || true; mv "$PIDS.new" "$PIDS"; }
STARTED=""   # what this run launched
launch() { # name cmd... (inside the namespace; its own process group, log in DIR/log/name.log)
  local name=$1; shift
  if running "$name"; then return 0; fi
  ip netns exec "$NS" setsid "$@" </dev/null >>"$LOG/$name.log" 2>&1 &
  record "$name" $!
  STARTED="$STARTED $name"
}
wait_for() { # name timeout_s command...
  local name=$1 limit=$2 i; shift 2
  for ((i = 0; i < limit * 4; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    running "$name" || { tail -25 "$LOG/$name.log" >&2; die "$name exited during start-up (log: $LOG/$name.log)"; }
    sleep 0.25
  done
  tail -25 "$LOG/$name.log" >&2; die "$name was not ready within $limit s (log: $LOG/$name.log)"
}

end_group() { # pgid: TERM, up to 10 s, then KILL
  kill -TERM -- "-$1" 2>/dev/null || true
  for _ in $(seq 1 40); do alive "$1" || break; sleep 0.25; done
  alive "$1" && kill -KILL -- "-$1" 2>/dev/null || true
}
# The management cluster's kubeconfig and PKI (written by start), kubectl on it, and a Cluster API
# manager as a process of BIN (start, and upgrade with the newer set's BIN).
PKI=$DIR/pki
MGMT_KUBECONFIG=$DIR/mgmt.kubeconfig
k() { in_ns kubectl --kubeconfig "$MGMT_KUBECONFIG" "$@"; }
manager() { # name binary webhook-port health-port diagnostics-port [flags...]
  local name=$1 bin=$2 wh=$3 health=$4 diag=$5; shift 5
  launch "$name" "$BIN/$bin" --kubeconfig "$MGMT_KUBECONFIG" --leader-elect=false \
    --webhook-port "$wh" --webhook-cert-dir "$PKI/webhook" --health-addr "127.0.0.1:$health" \
    --diagnostics-address "127.0.0.1:$diag" --insecure-diagnostics "$@"
}
# Cluster API's three managers (start, and after `upgrade` with the new set's binaries). ClusterTopology on
# in all three, as `clusterctl init` with CLUSTER_TOPOLOGY=true sets it (the provider components default it
# to false): the KCP template webhook refuses a ClusterClass's template otherwise.
capi_managers() {
  manager capi-manager capi-manager 9443 9440 8443 --feature-gates ClusterTopology=true
  manager capi-kubeadm-bootstrap capi-kubeadm-bootstrap 9444 9441 8444 --feature-gates ClusterTopology=true
  manager capi-kubeadm-control-plane capi-kubeadm-control-plane 9445 9442 8445 --feature-gates ClusterTopology=true
}
# Waits until each name:health-port answers /readyz.
managers_ready() { # name:port...
  local pair
  for pair in "$@"; do wait_for "${pair%%:*}" 240 in_ns curl -sf "http://127.0.0.1:${pair##*:}/readyz"; done
}
CAPI_READY="capi-manager:9440 capi-kubeadm-bootstrap:9441 capi-kubeadm-control-plane:9442"
# A provider Deployment says Available only because its process answered /readyz (no deployment
# controller runs here; see the inventory below).
available() { # namespace/deployment...
  local d patch gen
  patch='{"status":{"observedGeneration":GEN,"replicas":1,"updatedReplicas":1,"readyReplicas":1,"availableReplicas":1,"conditions":[{"type":"Available","status":"True","reason":"TestbedProcessReady","message":"the manager runs as a testbed process and answered /readyz","lastUpdateTime":"NOW","lastTransitionTime":"NOW"}]}}'
  patch=${patch//NOW/$(date -u +%Y-%m-%dT%H:%M:%SZ)}
  for d in "$@"; do
    gen=$(k -n "${d%/*}" get deployment "${d#*/}" -o jsonpath='{.metadata.generation}')
    k -n "${d%/*}" patch deployment "${d#*/}" --subresource status --type merge -p "${patch//GEN/$gen}" >>"$LOG/controllers.log"
  done
}

stop_all() {
  # The data path first: its loop, kube-proxies, pod programs, pod namespaces and management NICs.
  [ -d "$DIR/datapath" ] && bash "$HERE/datapath-nodes.sh" stop "$DIR"
  if [ -f "$PIDS" ]; then
    tac "$PIDS" | while read -r name pgid; do
      [ -n "${pgid:-}" ] || continue
      ours "$pgid" || continue
      end_group "$pgid"
      echo "[testbed] stopped $name ($pgid)"
    done
    rm -f "$PIDS"
  fi
  [ -d "$DIR/peer" ] && bash "$PEER_SCRIPTS/stop.sh" "$DIR/peer" >/dev/null 2>&1 || true
  if ip netns list 2>/dev/null | grep -qw "^$NS"; then
    # Whatever still lives in the namespace was started by this testbed (tests' kaas/kubectl runs).
    for p in $(ip netns pids "$NS" 2>/dev/null); do kill -KILL "$p" 2>/dev/null || true; done
    ip netns del "$NS" && echo "[testbed] deleted network namespace $NS"
  fi
  if ip netns list 2>/dev/null | grep -qw "^$CLIENT_NS"; then
    for p in $(ip netns pids "$CLIENT_NS" 2>/dev/null); do kill -KILL "$p" 2>/dev/null || true; done
    ip netns del "$CLIENT_NS" && echo "[testbed] deleted network namespace $CLIENT_NS"
  fi
}

if [ "$CMD" = stop ]; then
  stop_all
  exit 0
fi

# ---------------------------------------------------------------- upgrade DIR (issue 32 §2)
# The management cluster of a running v1.12 testbed upgraded to the current set's Cluster API with the real
# `clusterctl upgrade apply` (the current set's clusterctl), as an operator runs it; CAPO v0.14.7 and ORC,
# already current, stay. What clusterctl cannot find here is stood in for, minimally:
#   - the providers' release pages: a local repository built from the current set's modules (clusterctl-repo.sh);
#   - cert-manager: its own CRDs (from its module) so that the components' Certificates and Issuers are
#     accepted; no cert-manager runs (clusterctl skips an externally managed one);
#   - the Deployment controller: clusterctl scales each provider Deployment to 0 and waits until its status
#     says 0 replicas (upgrader.go scaleDownProvider); the loop below stops that manager's process and says
#     so in the status. After clusterctl, the new set's managers start as processes where the new
#     Deployments would run Pods, and their Deployments are marked Available when they answer /readyz;
#   - the Services of a `clusterctl init` cluster, and cert-manager's CA injection: before clusterctl, the CRDs'
#     conversion webhooks name the providers' Services (as clusterctl left them; clusterctl's merge patch of the
#     new CRDs needs that); after it, the new CRDs' conversion webhooks and the new webhook configurations point
#     at the new processes, with the testbed CA (repoint.mjs).
# testbed.env then says TESTBED_MGMT_UPGRADED=<Cluster API version>. Logs: DIR/log/clusterctl-upgrade.log.
if [ "$CMD" = upgrade ]; then
  [ -f "$DIR/testbed.env" ] && [ -f "$PIDS" ] || die "no testbed runs in $DIR: start one with KAAS_TESTBED_RELEASES=v1.12 testbed.sh start $DIR"
  was=$(sed -n 's/^TESTBED_RELEASES=//p' "$DIR/testbed.env")
  [ "$was" = v1.12 ] || die "$DIR runs the release set ${was:-unknown}: the upgrade starts from v1.12 (KAAS_TESTBED_RELEASES=v1.12 testbed.sh start $DIR)"
  ! grep -q '^TESTBED_MGMT_UPGRADED=' "$DIR/testbed.env" || die "$DIR's management cluster was upgraded already ($(sed -n 's/^TESTBED_MGMT_UPGRADED=//p' "$DIR/testbed.env"))"
  running capi-manager || die "$DIR's Cluster API manager does not run: start the testbed first"
  BIN=$ROOT/.kaas-test/testbed-bin-current   # the current set's binaries (build.sh below finds them up to date)
  KAAS_TESTBED_RELEASES=current bash "$HERE/build.sh" "$BIN"
  TO=$(bash "$HERE/clusterctl-repo.sh" "$DIR/clusterctl-repo")
  say "local clusterctl repository for Cluster API $TO in $DIR/clusterctl-repo"
  k apply --server-side -f "$DIR/clusterctl-repo/cert-manager-crds.yaml" >"$LOG/cert-manager-crds.log"
  k wait --for condition=Established -f "$DIR/clusterctl-repo/cert-manager-crds.yaml" --timeout 120s >>"$LOG/cert-manager-crds.log"
  say "cert-manager's CRDs installed (no cert-manager runs)"
  UPGRADED="capi-system/capi-controller-manager:capi-manager capi-kubeadm-bootstrap-system/capi-kubeadm-bootstrap-controller-manager:capi-kubeadm-bootstrap capi-kubeadm-control-plane-system/capi-kubeadm-control-plane-controller-manager:capi-kubeadm-control-plane"
  (
    while sleep 1; do
      for e in $UPGRADED; do
        d=${e%%:*} proc=${e##*:}
        [ "$(k -n "${d%/*}" get deployment "${d#*/}" -o jsonpath='{.spec.replicas}/{.status.replicas}' 2>/dev/null)" = 0/1 ] || continue
        pgid=$(awk -v n="$proc" '$1==n{print $2}' "$PIDS")
        [ -n "$pgid" ] && ours "$pgid" && end_group "$pgid"
        k -n "${d%/*}" patch deployment "${d#*/}" --subresource status --type merge \
          -p '{"status":{"replicas":0,"updatedReplicas":0,"readyReplicas":0,"availableReplicas":0}}' >/dev/null
        echo "[testbed] $d scaled to 0: stopped $proc ($pgid)"
      done
    done
  ) >>"$LOG/clusterctl-upgrade.log" 2>&1 &
  SCALER=$!
  trap 'kill "$SCALER" 2>/dev/null || true' EXIT
  in_ns env KUBECONFIG="$MGMT_KUBECONFIG" node "$HERE/repoint.mjs" services >>"$LOG/clusterctl-upgrade.log" \
    || die "the CRDs' conversion webhooks could not be given the providers' Services (repoint.mjs services)"
  say "clusterctl upgrade apply --core cluster-api:$TO --bootstrap kubeadm:$TO --control-plane kubeadm:$TO"
  if ! in_ns env HOME="$DIR" CLUSTERCTL_DISABLE_VERSIONCHECK=true "$BIN/clusterctl" upgrade apply --kubeconfig "$MGMT_KUBECONFIG" \
      --config "$DIR/clusterctl-repo/clusterctl.yaml" --core "cluster-api:$TO" --bootstrap "kubeadm:$TO" --control-plane "kubeadm:$TO" -v 2 \
      >>"$LOG/clusterctl-upgrade.log" 2>&1; then
    tail -20 "$LOG/clusterctl-upgrade.log" >&2
    die "clusterctl upgrade apply failed (log: $LOG/clusterctl-upgrade.log)"
  fi
  for e in $UPGRADED; do ! running "${e##*:}" || die "${e##*:} still runs after clusterctl scaled its Deployment to 0"; done
  say "clusterctl upgraded the inventory to $TO; the $was managers are stopped"
  capi_managers
  node "$HERE/manifests.mjs" "$BIN/manifests" "$PKI/ca.crt" "$DIR/manifests-upgraded" >>"$LOG/clusterctl-upgrade.log"
  in_ns env KUBECONFIG="$MGMT_KUBECONFIG" node "$HERE/repoint.mjs" managers "$DIR/manifests-upgraded" cluster-api bootstrap-kubeadm control-plane-kubeadm >>"$LOG/clusterctl-upgrade.log" \
    || die "the new CRDs and webhook configurations could not be pointed at the managers (repoint.mjs managers)"
  # shellcheck disable=SC2086
  managers_ready $CAPI_READY
  for e in $UPGRADED; do available "${e%%:*}"; done
  echo "TESTBED_MGMT_UPGRADED=$TO" >> "$DIR/testbed.env"
  say "Cluster API $TO managers running ($BIN), webhooks on them, Deployments Available"
  exit 0
fi
[ "$CMD" = start ] || usage

# ---------------------------------------------------------------- build, namespace
# A DIR runs one release set: a testbed of the other set still running there is stopped first, not mixed.
if [ -f "$DIR/testbed.env" ] && [ -f "$PIDS" ]; then
  was=$(sed -n 's/^TESTBED_RELEASES=//p' "$DIR/testbed.env"); was=${was:-v1.12}
  [ "$was" = "$RELEASES" ] || die "$DIR runs the release set $was, not $RELEASES: stop it first (testbed.sh stop $DIR)"
fi
KAAS_TESTBED_RELEASES=$RELEASES KAAS_TESTBED_WORKLOAD=$WORKLOAD KAAS_TESTBED_DATAPATH=$DATAPATH bash "$HERE/build.sh" "$BIN"
K8S_VERSION=$(sed -n 's/^K8S_VERSION=//p' "$BIN/releases.env")
[ -n "$K8S_VERSION" ] || die "$BIN/releases.env names no K8S_VERSION (build.sh writes it)"
[ "$DATAPATH" = 1 ] && datapath_packages
mkdir -p "$LOG" "$DIR/pki" "$DIR/settings"
if ! ip netns list | grep -qw "^$NS"; then ip netns add "$NS"; fi
in_ns ip link set lo up
gw=$(python3 -c "import ipaddress,sys; n=ipaddress.ip_network(sys.argv[1]); print(f'{next(n.hosts())}/{n.prefixlen}')" "$EXTERNAL_CIDR")
# With the data path the peer puts the gateway address on br-ex instead (test/peer/datapath.sh): floating IPs
# are then OVN's, reached through br-ex, and only the addresses that must stay local go on lo as /32s.
[ "$DATAPATH" = 1 ] || in_ns ip addr replace "$gw" dev lo
# Nothing but lo: the namespace cannot send to any address outside itself. Left from an earlier start of
# this DIR, the data path's links lead only to namespaces of this run: the peer's bridges (br-int, br-ex,
# ovs-netdev), the servers' host ends (tap*), the management NICs (mg-*), the client's host end (cl-h) and,
# with real amphorae, the controller's port o-hm0 on br-int (lb-mgmt-net only).
[ "$(in_ns ip -o link show | grep -v -E ': (mg-[^:]*|tap[^:]*|br-int|br-ex|ovs-netdev|cl-h|o-hm0)(@[^:]*)?:' | grep -vc ': lo:')" = 0 ] \
  || die "namespace $NS has links other than lo"
say "network namespace $NS (lo: 127.0.0.1/8$([ "$DATAPATH" = 1 ] && echo "; $gw goes on the peer's br-ex" || echo ", $gw"))"
if [ "$DATAPATH" = 1 ] && ! ip netns list | grep -qw "^$CLIENT_NS"; then
  ip netns add "$CLIENT_NS"; ip -n "$CLIENT_NS" link set lo up
  say "client namespace $CLIENT_NS (only lo: the peer attaches it to the external network)"
fi

# ---------------------------------------------------------------- the OpenStack peer, inside
# The ovn provider's agent sockets live under DIR/peer/run (test/peer/start.sh repoints octavia-lib's
# /run/octavia default), so this peer and one outside the namespace do not meet.
in_ns env PEER_EXTERNAL_CIDR="$EXTERNAL_CIDR" OVN_METADATA=1 PEER_DATAPATH="$DATAPATH" PEER_AMPHORA="$AMPHORA" bash "$PEER_SCRIPTS/start.sh" "$DIR/peer" >"$LOG/peer-start.log" 2>&1 \
  || { tail -30 "$LOG/peer-start.log" >&2; die "the OpenStack peer did not start in $NS (log: $LOG/peer-start.log)"; }
say "OpenStack peer up ($(tail -1 "$LOG/peer-start.log" | sed 's/^\[[^]]*\] //'))"
# shellcheck disable=SC1091
. "$DIR/peer/peer.env"
if [ "$AMPHORA" != 0 ]; then
  # The servers' host-side veths (tap*) are in this namespace, whose lo carries the nodes' InternalIPs
  # (node-sync, for KWOK's kubelet API), and the userspace datapath lets the kernel see the servers'
  # frames: it answered an amphora's ARP for a node's address through the amphora's own veth, so haproxy's
  # health checks and requests went to this namespace, not to the node (seen: every member ERROR, the
  # amphora's neighbour entry for both nodes the veth's MAC). The kernel here never speaks for a server's
  # network: no ARP reply of it leaves through a tap* (OVN's own responder and the VMs answer instead).
  # Only with real amphorae (1 or region: npm test's smoke too; its ovn rows pass under it, as they do with 1).
  in_ns arptables -C OUTPUT -o 'tap+' --opcode 2 -j DROP 2>/dev/null || in_ns arptables -A OUTPUT -o 'tap+' --opcode 2 -j DROP \
    || die "arptables could not keep this namespace's ARP replies off the servers' veths"
fi
if [ "$DATAPATH" = 1 ]; then
  # The internet client: CLIENT_NS hangs on br-ex only, with an address of the external subnet that
  # neutron never allocates (the pool ends 10 hosts before the subnet does), so it reaches floating IPs
  # only through OVN, as test/peer/prove-datapath.sh's client does.
  read -r CL_IP CL_PREFIX POOL_START POOL_END <<<"$(python3 -c "import ipaddress,sys; n=ipaddress.ip_network(sys.argv[1]); h=list(n.hosts()); print(h[-5], n.prefixlen, h[1], h[-10])" "$EXTERNAL_CIDR")"
  in_ns env OS_CLIENT_CONFIG_FILE="$OS_CLIENT_CONFIG_FILE" openstack --os-cloud peer-admin subnet show public-subnet -f value -c allocation_pools \
    | grep -q "'end': '$POOL_END'" || in_ns env OS_CLIENT_CONFIG_FILE="$OS_CLIENT_CONFIG_FILE" openstack --os-cloud peer-admin \
      subnet set --no-allocation-pool --allocation-pool "start=$POOL_START,end=$POOL_END" public-subnet
  if ! ip -n "$CLIENT_NS" link show eth0 >/dev/null 2>&1; then
    in_ns ip link add cl-h type veth peer name eth0 netns "$CLIENT_NS"
    ip -n "$CLIENT_NS" addr add "$CL_IP/$CL_PREFIX" dev eth0
    ip -n "$CLIENT_NS" link set eth0 up
    # The userspace datapath gets unchecksummed packets from a veth with tx offload on.
    ip netns exec "$CLIENT_NS" ethtool -K eth0 tx off >/dev/null; in_ns ethtool -K cl-h tx off >/dev/null
    in_ns ip link set cl-h up
    in_ns ovs-vsctl --db="unix:$DIR/peer/ovs/db.sock" --timeout=10 --may-exist add-port br-ex cl-h
  fi
  say "client namespace $CLIENT_NS: $CL_IP/$CL_PREFIX on br-ex (neutron's pool: $POOL_START-$POOL_END)"
fi

# ---------------------------------------------------------------- certificates
if [ ! -f "$PKI/ca.crt" ]; then
  (
    cd "$PKI"
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.crt -days 30 -subj "/CN=kaas-testbed-ca" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > serving.ext
    openssl req -newkey rsa:2048 -nodes -keyout serving.key -out serving.csr -subj "/CN=127.0.0.1" 2>/dev/null
    openssl x509 -req -in serving.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out serving.crt -days 30 -extfile serving.ext 2>/dev/null
    printf 'extendedKeyUsage=clientAuth\n' > client.ext
    openssl req -newkey rsa:2048 -nodes -keyout admin.key -out admin.csr -subj "/O=system:masters/CN=kaas-testbed-admin" 2>/dev/null
    openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out admin.crt -days 30 -extfile client.ext 2>/dev/null
    openssl genrsa -out sa.key 2048 2>/dev/null
    openssl rsa -in sa.key -pubout -out sa.pub 2>/dev/null
    mkdir -p webhook && cp serving.crt webhook/tls.crt && cp serving.key webhook/tls.key
    chmod 600 ./*.key webhook/tls.key
  )
  say "CA and certificates in $PKI"
fi
umask 077
cat > "$MGMT_KUBECONFIG" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: testbed-mgmt
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority-data: $(base64 -w0 "$PKI/ca.crt")
users:
- name: testbed-admin
  user:
    client-certificate-data: $(base64 -w0 "$PKI/admin.crt")
    client-key-data: $(base64 -w0 "$PKI/admin.key")
contexts:
- name: testbed-mgmt
  context: {cluster: testbed-mgmt, user: testbed-admin}
current-context: testbed-mgmt
EOF
umask 022

# ---------------------------------------------------------------- etcd, kube-apiserver, kube-controller-manager
launch etcd "$BIN/etcd" --name testbed --data-dir "$DIR/etcd" --log-level warn --unsafe-no-fsync \
  --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
  --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 \
  --initial-cluster testbed=http://127.0.0.1:2380 --quota-backend-bytes 4294967296
wait_for etcd 60 in_ns curl -sf http://127.0.0.1:2379/health
launch kube-apiserver "$BIN/kube-apiserver" --etcd-servers http://127.0.0.1:2379 --etcd-prefix /mgmt \
  --secure-port 6443 --bind-address 127.0.0.1 --advertise-address 127.0.0.1 \
  --tls-cert-file "$PKI/serving.crt" --tls-private-key-file "$PKI/serving.key" --client-ca-file "$PKI/ca.crt" \
  --authorization-mode RBAC --service-account-issuer https://127.0.0.1:6443 \
  --service-account-key-file "$PKI/sa.pub" --service-account-signing-key-file "$PKI/sa.key" \
  --service-cluster-ip-range 10.0.0.0/24 --allow-privileged=true --disable-admission-plugins ServiceAccount \
  --profiling=false --v=1
wait_for kube-apiserver 180 k get --raw /readyz
launch kube-controller-manager "$BIN/kube-controller-manager" --kubeconfig "$MGMT_KUBECONFIG" \
  --authentication-kubeconfig "$MGMT_KUBECONFIG" --authorization-kubeconfig "$MGMT_KUBECONFIG" \
  --controllers garbage-collector-controller,namespace-controller --leader-elect=false \
  --use-service-account-credentials=false --bind-address 127.0.0.1 --secure-port 10257 --profiling=false --v=1
wait_for kube-controller-manager 120 in_ns curl -sfk https://127.0.0.1:10257/healthz
say "etcd, kube-apiserver $K8S_VERSION, kube-controller-manager ready"

# ---------------------------------------------------------------- CRDs, managers, webhooks
node "$HERE/manifests.mjs" "$BIN/manifests" "$PKI/ca.crt" "$DIR/manifests" >"$LOG/manifests.log"
k apply --server-side --force-conflicts -f "$DIR/manifests/crds.yaml" >"$LOG/crds.log"
k wait --for condition=Established crd --all --timeout 180s >>"$LOG/crds.log"
say "$(cat "$LOG/manifests.log" | sed 's/^\[testbed\] //') installed"

capi_managers
manager capo-manager capo-manager 9446 9447 8446
launch orc-manager "$BIN/orc-manager" --kubeconfig "$MGMT_KUBECONFIG" --leader-elect=false \
  --health-probe-bind-address 127.0.0.1:9448 --metrics-bind-address 0
# shellcheck disable=SC2086
managers_ready $CAPI_READY capo-manager:9447 orc-manager:9448
k apply --server-side --force-conflicts -f "$DIR/manifests/webhooks.yaml" >"$LOG/webhooks.log"
say "CAPI core, kubeadm bootstrap, kubeadm control plane, CAPO and ORC managers ready, webhooks installed"

# The managers run as processes, not in Pods; what `clusterctl init` leaves behind is mirrored so that
# kaas's preflight and clusterctl read the same facts: the provider inventory (clusterctl's own CRD,
# from the module) and, per manager, a Deployment in its provider namespace whose status says Available
# only because the process answered /readyz above (no deployment controller runs to change it; an
# annotation names the process).
# The Deployments of clusterctl's providers are labelled as clusterctl labels every object it installs:
# `clusterctl upgrade` finds the Deployments to scale down and the objects to delete by both labels.
inventory() { # deployment namespace image version provider-name provider-type process (provider-type "" = no Provider)
  local dep=$1 ns=$2 image=$3 version=$4 pname=$5 ptype=$6 proc=$7 pid
  pid=$(awk -v n="$proc" '$1==n{print $2}' "$PIDS")
  printf '%s\n' "apiVersion: v1" "kind: Namespace" "metadata: {name: $ns}" "---" \
    "apiVersion: apps/v1" "kind: Deployment" "metadata:" "  name: $dep" "  namespace: $ns" \
    "  labels: {cluster.x-k8s.io/provider: $pname$([ -n "$ptype" ] && echo ', clusterctl.cluster.x-k8s.io: ""')}" "  annotations: {kaas.testbed/process: \"$proc (pid $pid, outside any Pod)\"}" \
    "spec:" "  replicas: 1" "  selector: {matchLabels: {app: $dep}}" "  template:" "    metadata: {labels: {app: $dep}}" \
    "    spec:" "      containers: [{name: manager, image: \"$image:$version\"}]" "---"
  [ -n "$ptype" ] || return 0
  # The name clusterctl gives the core provider is cluster-api itself; the others' are type-prefixed
  # (bootstrap-kubeadm: kubeadm), as Provider.ManifestLabel() in clusterctl's API reads them back.
  printf '%s\n' "apiVersion: clusterctl.cluster.x-k8s.io/v1alpha3" "kind: Provider" "metadata:" "  name: $pname" "  namespace: $ns" \
    "  labels: {clusterctl.cluster.x-k8s.io: \"\", cluster.x-k8s.io/provider: $pname}" \
    "providerName: $([ "$pname" = cluster-api ] && echo cluster-api || echo "${pname##*-}")" "type: $ptype" "version: $version" "---"
}
CAPI_V=$(awk '{print $2}' "$BIN/manifests/cluster-api/VERSION")
CAPO_V=$(awk '{print $2}' "$BIN/manifests/cluster-api-provider-openstack/VERSION")
ORC_V=$(awk '{print $2}' "$BIN/manifests/openstack-resource-controller/VERSION")
{
  inventory capi-controller-manager capi-system registry.k8s.io/cluster-api/cluster-api-controller "$CAPI_V" cluster-api CoreProvider capi-manager
  inventory capi-kubeadm-bootstrap-controller-manager capi-kubeadm-bootstrap-system registry.k8s.io/cluster-api/kubeadm-bootstrap-controller "$CAPI_V" bootstrap-kubeadm BootstrapProvider capi-kubeadm-bootstrap
  inventory capi-kubeadm-control-plane-controller-manager capi-kubeadm-control-plane-system registry.k8s.io/cluster-api/kubeadm-control-plane-controller "$CAPI_V" control-plane-kubeadm ControlPlaneProvider capi-kubeadm-control-plane
  inventory capo-controller-manager capo-system registry.k8s.io/capi-openstack/capi-openstack-controller "$CAPO_V" infrastructure-openstack InfrastructureProvider capo-manager
  # ORC is installed with kubectl from its install.yaml (CAPO's docs; kaas's preflight says so), not by
  # clusterctl: its Deployment, no Provider (clusterctl has no repository for it, and `clusterctl upgrade`
  # checks the contract of every Provider in the inventory).
  inventory orc-controller-manager orc-system quay.io/orc/openstack-resource-controller "$ORC_V" orc "" orc-manager
} > "$DIR/manifests/controllers.yaml"
k apply --server-side --force-conflicts -f "$DIR/manifests/controllers.yaml" >"$LOG/controllers.log"
available capi-system/capi-controller-manager capi-kubeadm-bootstrap-system/capi-kubeadm-bootstrap-controller-manager \
  capi-kubeadm-control-plane-system/capi-kubeadm-control-plane-controller-manager capo-system/capo-controller-manager \
  orc-system/orc-controller-manager
say "clusterctl inventory: cluster-api $CAPI_V, kubeadm $CAPI_V, openstack $CAPO_V, orc $ORC_V"

# ---------------------------------------------------------------- what kaas needs of the cloud, settings
# An image and a flavor with the names kaas looks for; both in the peer's Glance and Nova.
IMAGE=ubuntu-capi-image-$K8S_VERSION
FLAVOR=tb.small
osa() { in_ns env OS_CLIENT_CONFIG_FILE="$OS_CLIENT_CONFIG_FILE" openstack --os-cloud peer-admin "$@"; }
if [ -n "${OS_PEER_NOVA_URL:-}" ]; then
  osa flavor show "$FLAVOR" >/dev/null 2>&1 || osa flavor create --public --vcpus 2 --ram 4096 --disk 20 "$FLAVOR" >/dev/null
  if ! osa image show "$IMAGE" >/dev/null 2>&1; then
    head -c 4096 /dev/zero > "$DIR/image.raw"
    osa image create --public --disk-format raw --container-format bare --file "$DIR/image.raw" "$IMAGE" >/dev/null
  fi
fi
cat > "$DIR/settings/testbed.yaml" <<EOF
# kaas environment for the testbed in $DIR (written by test/testbed/testbed.sh start).
cloud: peer-demo-appcred
kubernetes_version: $K8S_VERSION
image: $IMAGE
controller_flavor: $FLAVOR
worker_flavor: $FLAVOR
worker_count: 1
external_network: public
node_cidr: 10.8.0.0/20
# The namespace's own address in the external range: a subnet's DNS servers are data to Neutron here
# (the fake-virt servers resolve nothing), and kaas refuses a loopback address (each node's own).
dns_nameservers: [${gw%/*}]
mgmt_kubeconfig: $MGMT_KUBECONFIG
mgmt_host_cidrs: [${gw%/*}]
workload_kubeconfig: $DIR/workload.kubeconfig
anti_affinity: false
instance_create_timeout: 1
use_ovn_lb_provider: false
use_cilium: false               # calico is bundled; the cilium CLI/helm are not on the testbed
# The edge, explicitly (new clusters default to the Gateway without ingress-nginx): the edge rows drive
# ingress-nginx, and the gateway rows set deploy_gateway themselves (Envoy Gateway's controller runs only
# with the workload side's own build).
deploy_nginx_ingress: true
deploy_gateway: false
EOF
cat > "$DIR/testbed.env" <<EOF
TESTBED_NETNS=$NS
TESTBED_DIR=$DIR
TESTBED_BIN=$BIN
MGMT_KUBECONFIG=$MGMT_KUBECONFIG
OS_CLIENT_CONFIG_FILE=$OS_CLIENT_CONFIG_FILE
TESTBED_CLOUD=peer-demo-appcred
TESTBED_IMAGE=$IMAGE
TESTBED_FLAVOR=$FLAVOR
TESTBED_EXTERNAL_NETWORK=public
TESTBED_EXTERNAL_CIDR=$EXTERNAL_CIDR
TESTBED_K8S_VERSION=$K8S_VERSION
TESTBED_RELEASES=$RELEASES
PATH=$BIN:$PATH
CLUSTERCTL_DISABLE_VERSIONCHECK=true
EOF
[ "$DATAPATH" = 1 ] && printf 'DATAPATH=1\nCLIENT_NETNS=%s\n' "$CLIENT_NS" >> "$DIR/testbed.env"
[ "$AMPHORA" != 0 ] && echo "AMPHORA=$AMPHORA" >> "$DIR/testbed.env"
# region: the clouds.yaml entry whose load balancers are real amphorae (the same application credential).
[ "$AMPHORA" = region ] && echo "AMPHORA_CLOUD=peer-demo-appcred-amphora" >> "$DIR/testbed.env"
say "ready: $DIR/testbed.env, $DIR/settings/testbed.yaml (started:${STARTED:- nothing, all running})"
if [ "$WORKLOAD" = 1 ]; then
  KAAS_TESTBED_DATAPATH=$DATAPATH bash "$HERE/workload.sh" start "$DIR" || die "the workload side did not start (test/testbed/workload.sh; logs: $LOG)"
fi
