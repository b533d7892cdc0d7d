#!/usr/bin/env bash
# Proof of the workload nodes' data path (datapath-nodes.sh + datapath-pods.sh) on a minimal stack, without
# OpenStack: etcd, kube-apiserver, kube-controller-manager (deployment, replicaset, endpointslice) and KWOK
# from the testbed's binaries, in a scratch namespace "lab" holding a Linux bridge (OVN's switch stands
# there in the testbed) and the apiserver's address 10.99.0.1 on its lo (the API floating IP's stand-in).
# Two "VM" namespaces kaas-vm-<8 hex> (eth0 on the bridge, 10.8.0.11 and .12/24, default route) carry Nodes
# node-a and node-b; a client namespace on the bridge (10.8.0.100) sends the requests.
#
#   prove-nodes.sh            needs root and KAAS_TESTBED_BIN (default .kaas-test/testbed-bin) built with
#                             KAAS_TESTBED_DATAPATH=1; KEEP=1 keeps DIR (logs) after the run
#
# Checks: an agnhost `netexec` Deployment (1 replica, on node-a) behind a Service with
# externalTrafficPolicy Local (type LoadBalancer: only that type has a healthCheckNodePort; no load balancer
# controller runs, so it stays pending and is reached on its NodePort, as a cloud load balancer reaches it):
# node-a answers and agnhost's /clientip is the client's address, node-b drops
# (timeout), healthCheckNodePort 200 on node-a and 503 on node-b; with externalTrafficPolicy Cluster node-b
# forwards to the pod on node-a. An ingress-nginx controller pod (nginx from its ConfigMap, PROXY protocol
# on) on node-b: a PROXY header's source becomes `client`, the TCP peer stays `peer`; a request without the
# header is refused. Scaled to 0: the pod's namespace and program are gone, healthCheckNodePort says 503.
# Everything runs in namespaces it creates and deletes; processes are stopped by their recorded group.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BIN=$(cd "${KAAS_TESTBED_BIN:-$ROOT/.kaas-test/testbed-bin}" && pwd)
for b in etcd kube-apiserver kube-controller-manager kwok kube-proxy agnhost; do
  [ -x "$BIN/$b" ] || { echo "prove-nodes.sh: $BIN/$b missing (KAAS_TESTBED_DATAPATH=1 test/testbed/build.sh $BIN)" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "prove-nodes.sh: run as root (network namespaces)" >&2; exit 2; }
hex8() { od -An -N4 -tx1 /dev/urandom | tr -d ' \n'; }
ID=$(hex8)
DIR=$(mktemp -d "/tmp/kaas-prove-nodes.$ID.XXXX")
LAB=kaas-pn-$ID-lab CLIENT=kaas-pn-$ID-client VMA=kaas-vm-$(hex8) VMB=kaas-vm-$(hex8)
PIDS=$DIR/pids LOG=$DIR/log API=10.99.0.1
mkdir -p "$LOG" "$DIR/pki"
T0=$(date +%s)
say() { printf '[prove-nodes %3ds] %s\n' $(($(date +%s) - T0)) "$*"; }
FAILED=0
check() { # label expected actual
  if [ "$2" = "$3" ]; then say "PASS $1: $3"; else say "FAIL $1: expected '$2', got '$3'"; FAILED=1; fi
}

cleanup() {
  set +e
  bash "$HERE/datapath-nodes.sh" stop "$DIR" >/dev/null
  [ -f "$PIDS" ] && tac "$PIDS" | while read -r _ pgid; do
    ps -eo pgid=,args= | awk -v g="$pgid" -v d="$DIR/" '$1==g && index($0,d){f=1} END{exit !f}' && kill -KILL -- "-$pgid" 2>/dev/null
  done
  for n in "$CLIENT" "$VMA" "$VMB" "$LAB"; do ip netns del "$n" 2>/dev/null; done
  left=$(ip netns list | grep -cE "kaas-pn-$ID|$VMA|$VMB" || true)
  say "cleaned up: namespaces left $left; $([ "${KEEP:-0}" = 1 ] && echo "kept $DIR" || { rm -rf "$DIR"; echo "removed $DIR"; })"
}
trap cleanup EXIT

# ---------------------------------------------------------------- namespaces: lab (bridge), two VMs, a client
ip netns add "$LAB"
ip -n "$LAB" link set lo up
ip -n "$LAB" addr add "$API/32" dev lo
ip -n "$LAB" link add br-sw type bridge && ip -n "$LAB" link set br-sw up
attach() { # netns port address/len
  ip netns add "$1"; ip -n "$1" link set lo up
  ip -n "$LAB" link add "$2" type veth peer name eth0 netns "$1"
  ip -n "$LAB" link set "$2" master br-sw up
  ip -n "$1" addr add "$3" dev eth0 && ip -n "$1" link set eth0 up && ip -n "$1" route add default via 10.8.0.1 dev eth0 onlink
}
attach "$VMA" sw-a 10.8.0.11/24
attach "$VMB" sw-b 10.8.0.12/24
attach "$CLIENT" sw-c 10.8.0.100/24
say "namespaces: $LAB (bridge br-sw, apiserver $API), $VMA (node-a 10.8.0.11), $VMB (node-b 10.8.0.12), $CLIENT (10.8.0.100)"

# ---------------------------------------------------------------- certificates, etcd, apiserver, KCM, KWOK
issue() { # name subject extensions: a key and a certificate of the run's CA, in DIR/pki
  printf '%b\n' "$3" > "$DIR/pki/$1.ext"
  openssl req -newkey rsa:2048 -nodes -keyout "$DIR/pki/$1.key" -out "$DIR/pki/$1.csr" -subj "$2" 2>/dev/null
  openssl x509 -req -in "$DIR/pki/$1.csr" -CA "$DIR/pki/ca.crt" -CAkey "$DIR/pki/ca.key" -CAcreateserial \
    -out "$DIR/pki/$1.crt" -days 2 -extfile "$DIR/pki/$1.ext" 2>/dev/null
}
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$DIR/pki/ca.key" -out "$DIR/pki/ca.crt" -days 2 -subj "/CN=prove-nodes-ca" 2>/dev/null
issue serving /CN=kube-apiserver "subjectAltName=IP:$API,IP:127.0.0.1\nextendedKeyUsage=serverAuth"
issue admin /O=system:masters/CN=prove-admin "extendedKeyUsage=clientAuth"
openssl genrsa -out "$DIR/pki/sa.key" 2048 2>/dev/null && openssl rsa -in "$DIR/pki/sa.key" -pubout -out "$DIR/pki/sa.pub" 2>/dev/null
chmod 600 "$DIR"/pki/*.key
KC=$DIR/admin.kubeconfig
(umask 077; printf '%s\n' "apiVersion: v1" "kind: Config" "clusters:" "- name: prove" "  cluster:" "    server: https://$API:6443" \
  "    certificate-authority-data: $(base64 -w0 "$DIR/pki/ca.crt")" "users:" "- name: admin" "  user:" \
  "    client-certificate-data: $(base64 -w0 "$DIR/pki/admin.crt")" "    client-key-data: $(base64 -w0 "$DIR/pki/admin.key")" \
  "contexts:" "- name: admin" "  context: {cluster: prove, user: admin}" "current-context: admin" > "$KC")
launch() { # name cmd... (in the lab, own process group)
  local name=$1; shift
  ip netns exec "$LAB" setsid "$@" </dev/null >>"$LOG/$name.log" 2>&1 &
  echo "$name $!" >> "$PIDS"
  disown $!   # stopped by its group at the end: no "Killed" notices
}
k() { ip netns exec "$LAB" kubectl --kubeconfig "$KC" "$@"; }
until_ok() { # timeout_s what command...
  local limit=$1 what=$2 end=$(($(date +%s) + $1)); shift 2
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$end" ] || { say "FAIL: $what not within $limit s"; exit 1; }
    sleep 1
  done
}
launch etcd "$BIN/etcd" --name prove --data-dir "$DIR/etcd" --log-level warn --unsafe-no-fsync \
  --listen-client-urls http://127.0.0.1:2379 --advertise-client-urls http://127.0.0.1:2379 \
  --listen-peer-urls http://127.0.0.1:2380 --initial-advertise-peer-urls http://127.0.0.1:2380 --initial-cluster prove=http://127.0.0.1:2380
until_ok 60 etcd ip netns exec "$LAB" curl -sf http://127.0.0.1:2379/health
launch kube-apiserver "$BIN/kube-apiserver" --etcd-servers http://127.0.0.1:2379 --secure-port 6443 --bind-address "$API" \
  --advertise-address "$API" --tls-cert-file "$DIR/pki/serving.crt" --tls-private-key-file "$DIR/pki/serving.key" \
  --client-ca-file "$DIR/pki/ca.crt" --authorization-mode Node,RBAC --service-account-issuer https://kubernetes.default.svc \
  --service-account-key-file "$DIR/pki/sa.pub" --service-account-signing-key-file "$DIR/pki/sa.key" \
  --service-cluster-ip-range 10.96.0.0/12 --disable-admission-plugins ServiceAccount --profiling=false --v=1
until_ok 180 kube-apiserver k get --raw /readyz
launch kube-controller-manager "$BIN/kube-controller-manager" --kubeconfig "$KC" --authentication-kubeconfig "$KC" \
  --authorization-kubeconfig "$KC" --leader-elect=false --use-service-account-credentials=false \
  --controllers deployment-controller,replicaset-controller,endpointslice-controller --bind-address 127.0.0.1 --secure-port 10257 --v=1
launch kwok "$BIN/kwok" --kubeconfig "$KC" --manage-all-nodes=false --manage-nodes-with-annotation-selector kwok.x-k8s.io/node=fake \
  --cidr 10.244.0.0/16 -v INFO
for n in node-a:10.8.0.11 node-b:10.8.0.12; do
  printf '%s\n' "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"${n%%:*}\", \"labels\": {\"kubernetes.io/hostname\": \"${n%%:*}\", \"kubernetes.io/os\": \"linux\", \"type\": \"kwok\"}}}" | k apply -f - >/dev/null
  k patch node "${n%%:*}" --subresource status --type merge -p "{\"status\": {\"addresses\": [{\"type\": \"InternalIP\", \"address\": \"${n#*:}\"}, {\"type\": \"Hostname\", \"address\": \"${n%%:*}\"}]}}" >/dev/null
  k annotate node "${n%%:*}" kwok.x-k8s.io/node=fake >/dev/null
done
until_ok 120 "nodes Ready (KWOK)" k wait --for condition=Ready node/node-a node/node-b --timeout 2s
say "etcd, kube-apiserver on $API:6443, kube-controller-manager, KWOK; node-a and node-b Ready"

# ---------------------------------------------------------------- the data path under test
printf 'node-a %s\nnode-b %s\n' "$VMA" "$VMB" > "$DIR/nodes.map"
DP_NODE_NETNS_MAP=$DIR/nodes.map bash "$HERE/datapath-nodes.sh" start "$DIR" "$LAB" "$KC" "$DIR/pki" "$BIN"
for v in "$VMA" "$VMB"; do until_ok 120 "kube-proxy healthz in $v" ip netns exec "$v" curl -sf http://127.0.0.1:10256/healthz; done
say "kube-proxy up in both VM namespaces (via the management NIC to $API)"
. "$HERE/prove-nodes-workloads.sh"
