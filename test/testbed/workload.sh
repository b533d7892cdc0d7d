#!/usr/bin/env bash
# The testbed's workload side: a workload cluster without kubelets, for a Cluster API cluster that kaas
# created on the testbed's management side (the "harness trick" of feasibility.md 2.3).
#
#   workload.sh start DIR     after `testbed.sh start DIR` (testbed.sh calls it with --workload or
#                             KAAS_TESTBED_WORKLOAD=1); `testbed.sh stop DIR` stops what it started
#
# What it does, in the testbed's namespace:
#   1. `kaas create-cluster $CLUSTER --no-wait` (CLUSTER = KAAS_TESTBED_WORKLOAD_CLUSTER, default "tb")
#      unless the Cluster exists; waits until CAPO has built the network and the API load balancer
#      (Cluster.spec.controlPlaneEndpoint = the LB's floating IP) and KCP has made the cluster CA
#      (Secret <cluster>-ca) and service-account keys (<cluster>-sa).
#   2. the cluster's etcd (one member, TLS from the cluster's etcd CA <cluster>-etcd, named after the
#      control-plane node as kubeadm names it) and a second kube-apiserver on it, bound on that floating IP :6443 (an
#      address of the namespace's lo), serving a certificate of the cluster CA and trusting client
#      certificates of that CA: CAPI's ClusterCache, KCP and `clusterctl get kubeconfig` reach it as
#      they would reach kubeadm's apiserver;
#      kube-controller-manager (:10267; node lifecycle (lifts the not-ready taints; a grace period of 1 h,
#      since KWOK's heartbeats run late on a loaded machine and a NotReady node turns its pods NotReady for good), endpoint(slice), deployment, replicaset, daemonset, statefulset,
#      job, serviceaccount(-token), namespace, garbage collector, root CA publisher, pod GC,
#      ttl-after-finished) and kube-scheduler (:10269);
#      KWOK (sigs.k8s.io/kwok) for every Node carrying the annotation kwok.x-k8s.io/node=fake:
#      nodes Ready with leases, pods scheduled there Running/Ready with an IP (hostNetwork: the node's),
#      so Deployments and DaemonSets roll out and EndpointSlices follow. No kubelet, no container runs.
#      KWOK also answers the kubelet API (:10250 on each node's InternalIP, made local on the namespace's
#      lo): a port-forward to a kube-system pod's 2379 reaches the etcd member, to 6443 this apiserver;
#      KCP reads etcd membership and alarms and the apiserver certificate through it, as through a kubelet;
#   3. kube-system/kubeadm-config (what kubeadm init writes; KCP reads it to call the control plane
#      initialized) and the RBAC kubeadm creates for kubeadm:cluster-admins;
#   4. node-sync (a loop): for each OpenStackMachine with a providerID a Node of the same name with that
#      providerID and its Nova server's fixed IP as InternalIP; control-plane ones labelled and tainted
#      as kubeadm does (node-role.kubernetes.io/control-plane, exclude-from-external-load-balancers), with
#      the mirror pods of kubeadm's four static pods (etcd, kube-apiserver, kube-controller-manager,
#      kube-scheduler: a v1beta2 KCP counts a control-plane machine ready only with them Ready and its
#      etcd member healthy). One control-plane node: the harness's etcd has one member;
#   5. occm (a loop standing in for kaas's OCCM DaemonSet, whose pods KWOK only pretends to run): the
#      openstack-cloud-controller-manager binary, --controllers=service, with the --cluster-name of the
#      DaemonSet kaas applied and the cloud.conf read back from the kube-system/cloud-config Secret kaas
#      applied. Like the DaemonSet, it (re)starts only when the DaemonSet's pod template changes (kaas's
#      kaas.dev/cloud-config-hash roll): a Secret edited without a roll does not reach it.
#   6. envoy-gateway (test/testbed/envoy-gateway.sh): Envoy Gateway's controller as a process once kaas's
#      envoy-gateway Deployment exists (certgen against the API, kaas's ConfigMap + testbed overrides): turns
#      the GatewayClass/EnvoyProxy/Gateway into the envoy Deployment and LoadBalancer Service for OCCM.
#   7. (KAAS_TESTBED_DATAPATH=1) the nodes' real data path (test/testbed/datapath-nodes.sh): for each Node whose
#      Nova server has a VM namespace (kaas-vm-<uuid8>, made by the peer's Nova driver), kube-proxy in it, reaching
#      this apiserver through a management NIC into this namespace; each Ready pod there gets a namespace with
#      its pod IP and its program (agnhost, or nginx for the ingress-nginx controller).
#
# A minor Kubernetes upgrade (issue 32 §4, k8s-upgrade.test.ts): KAAS_TESTBED_WORKLOAD_K8S_VERSION creates the
# cluster on another version than the set's (its clusters.<name> section names it and its image, which is
# added to Glance), node-sync reports each Node's kubelet version from its Machine's spec.version (a new
# Machine's Node carries the new version, as its kubelet would), and KAAS_TESTBED_ETCD_MEMBERS=N (default 1)
# lets etcd grow as kubeadm join grows it: a later control-plane node gets a member of its own (member add,
# then its own etcd process on its own ports; KWOK forwards that node's etcd pod to it), the apiserver knows
# every member's endpoint, and a member KCP removed before deleting its Machine is not started again. The
# workload apiserver's binary stays the set's; the versions are what the Machines and Nodes say.
#
# DIR/testbed.env gains WORKLOAD_KUBECONFIG (= DIR/workload.kubeconfig, the file
# settings/testbed.yaml names as workload_kubeconfig), WORKLOAD_CLUSTER and WORKLOAD_API. Logs in DIR/log/.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CMD=${1:-}; DIR=${2:-}
[ "$CMD" = start ] && [ -n "$DIR" ] || { echo "usage: workload.sh start DIR" >&2; exit 2; }
DIR=$(cd "$DIR" && pwd)
# shellcheck disable=SC1091
. "$DIR/testbed.env"
BIN=$TESTBED_BIN
NS=$TESTBED_NETNS
CLUSTER=${KAAS_TESTBED_WORKLOAD_CLUSTER:-tb}
PIDS="$DIR/pids"
LOG="$DIR/log"
W=$DIR/workload
mkdir -p "$W/home" "$LOG"
KAAS=(node "$ROOT/dist/bundle/kaas.js")
POD_CIDR=10.244.0.0/16   # KWOK's pod addresses (its --cidr); the data path's kube-proxy clusterCIDR
WK8S=${KAAS_TESTBED_WORKLOAD_K8S_VERSION:-$TESTBED_K8S_VERSION}   # the version kaas creates the cluster with
ETCD_MEMBERS=${KAAS_TESTBED_ETCD_MEMBERS:-1}   # etcd members the harness lets join (one per control-plane node)
[[ "$ETCD_MEMBERS" =~ ^[1-5]$ ]] || { echo "workload.sh: KAAS_TESTBED_ETCD_MEMBERS=$ETCD_MEMBERS: use 1 to 5" >&2; exit 2; }

die() { echo "workload.sh: $*" >&2; exit 1; }
T0=$(date +%s%N)
say() { local ms=$((($(date +%s%N) - T0) / 1000000)); printf '[workload %3d.%01ds] %s\n' $((ms / 1000)) $((ms % 1000 / 100)) "$*"; }
in_ns() { ip netns exec "$NS" "$@"; }
# Process bookkeeping shared with testbed.sh (same pids file: testbed.sh stop stops these first).
ours() { ps -eo pgid=,args= | awk -v g="$1" -v d="$DIR/" '$1==g && index($0,d){f=1} END{exit !f}'; }
running() { [ -f "$PIDS" ] && awk -v n="$1" '$1==n{print $2}' "$PIDS" | { read -r p && ours "$p"; }; }
record() { { [ -f "$PIDS" ] && grep -v "^$1 " "$PIDS"; echo "$1 $2"; } > "$PIDS.new" || true; mv "$PIDS.new" "$PIDS"; }
launch() { # name cmd...
  local name=$1; shift
  if running "$name"; then return 0; fi
  ip netns exec "$NS" setsid "$@" </dev/null >>"$LOG/$name.log" 2>&1 &
  record "$name" $!
}
wait_for() { # name timeout_s command...
  local name=$1 limit=$2 i; shift 2
  for ((i = 0; i < limit * 2; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    [ "$name" = - ] || running "$name" || { tail -25 "$LOG/$name.log" >&2; die "$name exited during start-up (log: $LOG/$name.log)"; }
    sleep 0.5
  done
  [ "$name" = - ] || tail -25 "$LOG/$name.log" >&2
  die "$name: not ready within $limit s"
}
mk() { in_ns kubectl --kubeconfig "$MGMT_KUBECONFIG" "$@"; }

# ---------------------------------------------------------------- 1. the CAPI cluster, its endpoint and CA
CNS=${KAAS_TESTBED_WORKLOAD_NAMESPACE:-$CLUSTER}   # kaas's `namespace` default: the cluster name (testbed.yaml sets none)
# The cluster's own section in the testbed environment: two workers, so that a Service with
# externalTrafficPolicy: Local has a node with and one without its pod (every later kaas run reads it).
if ! grep -q '^clusters:' "$DIR/settings/testbed.yaml"; then
  printf 'clusters:\n  %s:\n    worker_count: %s\n' "$CLUSTER" "${KAAS_TESTBED_WORKERS:-2}" >> "$DIR/settings/testbed.yaml"
  # Another version than the set's (the minor upgrade starts one minor below): its own image, as in Glance.
  if [ "$WK8S" != "$TESTBED_K8S_VERSION" ]; then
    printf '    kubernetes_version: %s\n    image: ubuntu-capi-image-%s\n' "$WK8S" "$WK8S" >> "$DIR/settings/testbed.yaml"
    if ! in_ns env OS_CLIENT_CONFIG_FILE="$OS_CLIENT_CONFIG_FILE" openstack --os-cloud peer-admin image show "ubuntu-capi-image-$WK8S" >/dev/null 2>&1; then
      head -c 4096 /dev/zero > "$W/image.raw"
      in_ns env OS_CLIENT_CONFIG_FILE="$OS_CLIENT_CONFIG_FILE" openstack --os-cloud peer-admin image create --public --disk-format raw \
        --container-format bare --file "$W/image.raw" "ubuntu-capi-image-$WK8S" >/dev/null || die "could not add the image ubuntu-capi-image-$WK8S to Glance"
    fi
  fi
fi
if ! mk -n "$CNS" get cluster "$CLUSTER" >/dev/null 2>&1; then
  say "kaas create-cluster $CLUSTER --no-wait"
  in_ns env PATH="$PATH" OS_CLIENT_CONFIG_FILE="$OS_CLIENT_CONFIG_FILE" HOME="$W/home" \
    "${KAAS[@]}" create-cluster "$CLUSTER" --settings-dir "$DIR/settings" --env testbed --no-wait >"$LOG/create-cluster.log" 2>&1 \
    || { tail -30 "$LOG/create-cluster.log" >&2; die "kaas create-cluster $CLUSTER failed (log: $LOG/create-cluster.log)"; }
fi
endpoint() { mk -n "$CNS" get cluster "$CLUSTER" -o jsonpath='{.spec.controlPlaneEndpoint.host}'; }
wait_for - 900 bash -c "[ -n \"\$(ip netns exec $NS kubectl --kubeconfig $MGMT_KUBECONFIG -n $CNS get cluster $CLUSTER -o jsonpath='{.spec.controlPlaneEndpoint.host}')\" ]"
FIP=$(endpoint)
wait_for - 300 mk -n "$CNS" get secret "$CLUSTER-ca" "$CLUSTER-sa" "$CLUSTER-etcd"
say "cluster $CNS/$CLUSTER: API endpoint $FIP:6443 (CAPO's load balancer floating IP), CA $CLUSTER-ca"
# Where the apiserver listens. Without real amphorae: on the floating IP itself, made an address of this
# namespace, so everything reaches it directly (the kube-API LB carries no traffic). With them (testbed.env
# AMPHORA=1, issue 30 §3): on API_ADDR, a link-local address of this namespace, and the floating IP stays the
# cloud's: CAPI's cluster cache, KCP and kaas (the Cluster's kubeconfig Secret, workload.kubeconfig) reach the
# apiserver through the real amphora (this namespace's address on br-ex -> OVN's router -> the amphora ->
# the control-plane node's :6443 -> datapath-nodes.sh's DNAT there -> API_ADDR through its management NIC),
# from the management host's address (settings mgmt_host_cidrs), which restrict_kubeapi always allows. The
# harness itself (etcd wrapper, controller-manager, scheduler, KWOK, node-sync, OCCM, the data-path loop,
# the tests' admin kubeconfig) uses API_ADDR: it stands for what runs on the nodes and must not depend on
# the load balancer it helps bring up.
if [ "${AMPHORA:-0}" = 1 ]; then API_ADDR=169.254.99.1; else API_ADDR=$FIP; fi

# ---------------------------------------------------------------- 2. certificates of the cluster CA
PKI=$W/pki
mkdir -p "$PKI"
mk -n "$CNS" get secret "$CLUSTER-ca" -o jsonpath='{.data.tls\.crt}' | base64 -d > "$PKI/ca.crt"
mk -n "$CNS" get secret "$CLUSTER-ca" -o jsonpath='{.data.tls\.key}' | base64 -d > "$PKI/ca.key"
mk -n "$CNS" get secret "$CLUSTER-sa" -o jsonpath='{.data.tls\.key}' | base64 -d > "$PKI/sa.key"
mk -n "$CNS" get secret "$CLUSTER-sa" -o jsonpath='{.data.tls\.crt}' | base64 -d > "$PKI/sa.pub"
mk -n "$CNS" get secret "$CLUSTER-etcd" -o jsonpath='{.data.tls\.crt}' | base64 -d > "$PKI/etcd-ca.crt"
mk -n "$CNS" get secret "$CLUSTER-etcd" -o jsonpath='{.data.tls\.key}' | base64 -d > "$PKI/etcd-ca.key"
[ -f "$PKI/admin.crt" ] && [ -f "$PKI/kubelet.crt" ] && cmp -s "$PKI/ca.crt" "$PKI/ca.crt.used" && grep -q "IP:$API_ADDR," "$PKI/serving.ext" || (
  cd "$PKI"
  cp ca.crt ca.crt.used
  printf 'subjectAltName=IP:%s,IP:%s,IP:127.0.0.1,IP:10.96.0.1,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:localhost\nextendedKeyUsage=serverAuth\n' "$FIP" "$API_ADDR" > serving.ext
  openssl req -newkey rsa:2048 -nodes -keyout serving.key -out serving.csr -subj "/CN=kube-apiserver" 2>/dev/null
  openssl x509 -req -in serving.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out serving.crt -days 30 -extfile serving.ext 2>/dev/null
  printf 'extendedKeyUsage=clientAuth\n' > client.ext
  openssl req -newkey rsa:2048 -nodes -keyout admin.key -out admin.csr -subj "/O=system:masters/CN=kaas-testbed-workload-admin" 2>/dev/null
  openssl x509 -req -in admin.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out admin.crt -days 30 -extfile client.ext 2>/dev/null
  # etcd as kubeadm sets it up, from the cluster's etcd CA (<cluster>-etcd): a serving certificate and
  # the apiserver's client certificate (KCP makes its own client certificate from the same CA).
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\n' > etcd-server.ext
  openssl req -newkey rsa:2048 -nodes -keyout etcd-server.key -out etcd-server.csr -subj "/CN=etcd-server" 2>/dev/null
  openssl x509 -req -in etcd-server.csr -CA etcd-ca.crt -CAkey etcd-ca.key -CAcreateserial -out etcd-server.crt -days 30 -extfile etcd-server.ext 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -keyout apiserver-etcd-client.key -out apiserver-etcd-client.csr -subj "/CN=kube-apiserver-etcd-client" 2>/dev/null
  openssl x509 -req -in apiserver-etcd-client.csr -CA etcd-ca.crt -CAkey etcd-ca.key -CAcreateserial -out apiserver-etcd-client.crt -days 30 -extfile client.ext 2>/dev/null
  # KWOK serves the kubelet API (port-forward) on every node address; the apiserver does not verify a
  # kubelet's serving certificate unless told a CA (kubeadm's default), so one certificate serves all nodes.
  printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' > kubelet.ext
  openssl req -newkey rsa:2048 -nodes -keyout kubelet.key -out kubelet.csr -subj "/CN=kwok-kubelet" 2>/dev/null
  openssl x509 -req -in kubelet.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out kubelet.crt -days 30 -extfile kubelet.ext 2>/dev/null
  chmod 600 ./*.key
)
WKC=$DIR/workload.kubeconfig
umask 077
cat > "$WKC" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: $CLUSTER
  cluster:
    server: https://$FIP:6443
    certificate-authority-data: $(base64 -w0 "$PKI/ca.crt")
users:
- name: $CLUSTER-admin
  user:
    client-certificate-data: $(base64 -w0 "$PKI/admin.crt")
    client-key-data: $(base64 -w0 "$PKI/admin.key")
contexts:
- name: $CLUSTER-admin@$CLUSTER
  context: {cluster: $CLUSTER, user: $CLUSTER-admin}
current-context: $CLUSTER-admin@$CLUSTER
EOF
# kaas create-cluster rewrites workload.kubeconfig; the processes keep this one (on API_ADDR: see above).
sed "s#server: https://$FIP:6443#server: https://$API_ADDR:6443#" "$WKC" > "$W/admin.kubeconfig"
umask 022
WK=$W/admin.kubeconfig
wk() { in_ns kubectl --kubeconfig "$WK" "$@"; }

# ---------------------------------------------------------------- 3. etcd, apiserver, controller-manager, scheduler, KWOK
# The cluster's etcd, TLS from the cluster's etcd CA, client certificates required (as kubeadm's static
# pod). kubeadm names a member after its node, and KCP counts a control-plane machine healthy only when
# etcd lists a member of its node's name: the first member starts as "pending" (no node yet) and node-sync
# writes the first control-plane node's name to $W/etcd-member-name; this wrapper then restarts etcd under
# that name (etcd publishes a member's new name on start; the data stays). Slot 0 is that member (client
# :12379, peer :12380); with KAAS_TESTBED_ETCD_MEMBERS > 1, node-sync adds a member for each later
# control-plane node as kubeadm join does (member add, then $W/etcd-join/<slot>: its name and
# --initial-cluster) and this wrapper runs it on slot <slot>'s ports (+100 per slot). A member that is no
# longer in the cluster (KCP removes a machine's member before it deletes the machine) is stopped and not
# started again ($W/etcd-removed/<slot>).
cat > "$W/etcd.sh" <<'EOS'
#!/usr/bin/env bash
set -u
declare -A child=() cur=() since=()
trap 'for p in "${child[@]}"; do kill "$p" 2>/dev/null; done; exit 0' TERM INT
mkdir -p "$W/etcd-join" "$W/etcd-removed"
cport() { echo $((12379 + 100 * $1)); }
pport() { echo $((12380 + 100 * $1)); }
ecurl() { curl -sf --max-time 3 --cacert "$PKI/etcd-ca.crt" --cert "$PKI/apiserver-etcd-client.crt" --key "$PKI/apiserver-etcd-client.key" "$@"; }
alive() { [ -n "${child[$1]:-}" ] && kill -0 "${child[$1]}" 2>/dev/null; }
# Whether the member of slot $1 named $2 is still in the cluster, asked of another live member (none: yes).
member() {
  local s out
  for s in "${!child[@]}"; do
    [ "$s" = "$1" ] && continue
    alive "$s" || continue
    out=$(ecurl -X POST "https://127.0.0.1:$(cport "$s")/v3/cluster/member/list" -d '{}') || continue
    printf '%s' "$out" | jq -e --arg n "$2" '.members | map(.name) | index($n) != null' >/dev/null
    return
  done
  return 0
}
run() { # slot name initial-cluster state data-dir
  local s=$1
  echo "$(date -u +%T) etcd member $2 (slot $s, client :$(cport "$s"))"
  "$BIN/etcd" --name "$2" --data-dir "$5" --log-level warn --unsafe-no-fsync \
    --listen-client-urls "https://127.0.0.1:$(cport "$s")" --advertise-client-urls "https://127.0.0.1:$(cport "$s")" \
    --listen-peer-urls "http://127.0.0.1:$(pport "$s")" --initial-advertise-peer-urls "http://127.0.0.1:$(pport "$s")" \
    --initial-cluster "$3" --initial-cluster-state "$4" \
    --cert-file "$PKI/etcd-server.crt" --key-file "$PKI/etcd-server.key" --client-cert-auth --trusted-ca-file "$PKI/etcd-ca.crt" &
  child[$s]=$!; cur[$s]=$2; since[$s]=$tick
}
stop() { [ -n "${child[$1]:-}" ] && { kill "${child[$1]}" 2>/dev/null; wait "${child[$1]}" 2>/dev/null; }; unset "child[$1]"; }
tick=0
while :; do
  tick=$((tick + 1))
  slots=(0); for f in "$W"/etcd-join/*; do [ -f "$f" ] && slots+=("${f##*/}"); done
  for s in "${slots[@]}"; do
    [ -e "$W/etcd-removed/$s" ] && continue
    if [ "$s" = 0 ]; then
      name=$(cat "$W/etcd-member-name" 2>/dev/null || echo pending)
      ic="$name=http://127.0.0.1:12380"; state=new; data=$W/etcd
    else
      name=$(sed -n 1p "$W/etcd-join/$s"); ic=$(sed -n 2p "$W/etcd-join/$s"); state=existing; data=$W/etcd-$s
    fi
    # Gone from the cluster (removed by KCP): stopped for good. Asked when it died, and every 5 s, of a member
    # that has run for 10 s (a new member publishes its name only once it has started).
    if [ -n "${cur[$s]:-}" ] && [ $((tick - ${since[$s]:-0})) -gt 10 ] && { ! alive "$s" || [ $((tick % 5)) = 0 ]; } && ! member "$s" "${cur[$s]}"; then
      stop "$s"; touch "$W/etcd-removed/$s"; echo "$(date -u +%T) etcd member ${cur[$s]} (slot $s) is no longer in the cluster: stopped"
      continue
    fi
    if [ "$name" != "${cur[$s]:-}" ] || ! alive "$s"; then stop "$s"; run "$s" "$name" "$ic" "$state" "$data"; fi
  done
  sleep 1
done
EOS
launch workload-etcd env W="$W" BIN="$BIN" PKI="$PKI" PATH="$PATH" bash "$W/etcd.sh"
# Healthy on any member's slot that is still in the cluster (a re-start after a rollout finds slot 0 removed).
etcd_ok() {
  local s
  for s in 0 $(ls "$W/etcd-join" 2>/dev/null); do
    [ -e "$W/etcd-removed/$s" ] && continue
    in_ns curl -sf --cacert "$PKI/etcd-ca.crt" --cert "$PKI/apiserver-etcd-client.crt" --key "$PKI/apiserver-etcd-client.key" "https://127.0.0.1:$((12379 + 100 * s))/health" && return 0
  done
  return 1
}
wait_for workload-etcd 60 etcd_ok
# With the data path the external range is br-ex's (OVN DNATs floating IPs), not lo's: the API floating IP
# is made an address of the namespace itself (a /32 on lo wins over br-ex's /24), as it is without it.
# With real amphorae API_ADDR is that address instead, and the floating IP is not one of this namespace.
if [ "${KAAS_TESTBED_DATAPATH:-0}" = 1 ] && ! in_ns ip -o addr show dev lo | grep -q " $API_ADDR/"; then
  in_ns ip addr replace "$API_ADDR/32" dev lo   # replace: grep -q may end the pipe early (SIGPIPE, pipefail), so the test above can miss it
fi
[ "$API_ADDR" = "$FIP" ] || in_ns ip addr del "$FIP/32" dev lo 2>/dev/null || true
# Every member's endpoint (one per slot: see etcd.sh), as a control-plane node's apiserver would fail over.
slots=$ETCD_MEMBERS; for f in "$W"/etcd-join/*; do [ -f "$f" ] && [ "${f##*/}" -ge "$slots" ] && slots=$((${f##*/} + 1)); done
ETCD_SERVERS=$(for ((i = 0; i < slots; i++)); do printf '%shttps://127.0.0.1:%s' "$([ $i = 0 ] || echo ,)" $((12379 + 100 * i)); done)
launch workload-apiserver "$BIN/kube-apiserver" --etcd-servers "$ETCD_SERVERS" \
  --etcd-cafile "$PKI/etcd-ca.crt" --etcd-certfile "$PKI/apiserver-etcd-client.crt" --etcd-keyfile "$PKI/apiserver-etcd-client.key" \
  --kubelet-preferred-address-types InternalIP \
  --secure-port 6443 --bind-address "$API_ADDR" --advertise-address "$API_ADDR" \
  --tls-cert-file "$PKI/serving.crt" --tls-private-key-file "$PKI/serving.key" --client-ca-file "$PKI/ca.crt" \
  --authorization-mode Node,RBAC --service-account-issuer https://kubernetes.default.svc.cluster.local \
  --service-account-key-file "$PKI/sa.pub" --service-account-signing-key-file "$PKI/sa.key" \
  --service-cluster-ip-range 10.96.0.0/12 --allow-privileged=true --profiling=false --v=1
wait_for workload-apiserver 180 wk get --raw /readyz
launch workload-controller-manager "$BIN/kube-controller-manager" --kubeconfig "$WK" \
  --authentication-kubeconfig "$WK" --authorization-kubeconfig "$WK" --leader-elect=false \
  --controllers endpoints-controller,clusterrole-aggregation-controller,node-lifecycle-controller,endpointslice-controller,endpointslice-mirroring-controller,deployment-controller,replicaset-controller,daemonset-controller,statefulset-controller,job-controller,cronjob-controller,serviceaccount-controller,serviceaccount-token-controller,namespace-controller,garbage-collector-controller,root-ca-certificate-publisher-controller,pod-garbage-collector-controller,ttl-after-finished-controller,disruption-controller \
  --service-account-private-key-file "$PKI/sa.key" --root-ca-file "$PKI/ca.crt" --use-service-account-credentials=false \
  --node-monitor-grace-period 1h \
  --bind-address 127.0.0.1 --secure-port 10267 --profiling=false --v=1
launch workload-scheduler "$BIN/kube-scheduler" --kubeconfig "$WK" --authentication-kubeconfig "$WK" \
  --authorization-kubeconfig "$WK" --leader-elect=false --bind-address 127.0.0.1 --secure-port 10269 --v=1
# KWOK answers the kubelet API on :10250 of every node address (node-sync puts each node's InternalIP on
# the namespace's lo): the apiserver's port-forward to a control-plane pod reaches the etcd member (2379:
# KCP's EtcdMemberHealthy) and this apiserver (6443: KCP reads the certificate expiry), as a kubelet
# would forward to the static pods.
cat > "$W/kwok.yaml" <<EOF
apiVersion: kwok.x-k8s.io/v1alpha1
kind: ClusterPortForward
metadata: {name: control-plane-static-pods}
spec:
  selector: {matchNamespaces: [kube-system]}
  forwards:
  - {ports: [2379], target: {address: 127.0.0.1, port: 12379}}
  - {ports: [6443], target: {address: "$API_ADDR", port: 6443}}
EOF
# KWOK's node and pod stages, copied by build.sh from the module (KWOK v0.8.0 has no built-in ones any more).
stages=()
for f in "$BIN"/manifests/kwok/stage/*.yaml; do [ -f "$f" ] && stages+=(--config "$f"); done
[ ${#stages[@]} -eq 10 ] || die "$BIN/manifests/kwok/stage has $((${#stages[@]} / 2)) of KWOK's 5 stage files, not 5: run test/testbed/testbed.sh build"
KWOK=("$BIN/kwok" --kubeconfig "$WK" --config "$W/kwok.yaml" "${stages[@]}" --manage-all-nodes=false
  --manage-nodes-with-annotation-selector kwok.x-k8s.io/node=fake --cidr "$POD_CIDR"
  --node-port 10250 --server-address 0.0.0.0:10250 --tls-cert-file "$PKI/kubelet.crt" --tls-private-key-file "$PKI/kubelet.key" -v INFO)
if [ "$ETCD_MEMBERS" = 1 ]; then
  launch kwok "${KWOK[@]}"
else
  # A later member's node forwards its etcd pod to that member's port: node-sync writes a PortForward per
  # such pod to $W/kwok-forwards.yaml (KWOK reads its configuration once), and this loop restarts KWOK when
  # the file changes (Nodes and Pods stay; their leases and status go on after the restart).
  : > "$W/kwok-forwards.yaml"
  cat > "$W/kwok.sh" <<'EOS'
#!/usr/bin/env bash
set -u
child=""; cur=""
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; exit 0' TERM INT
while :; do
  now=$(sha256sum "$W/kwok-forwards.yaml" | cut -c1-16)
  if [ "$now" != "$cur" ] || ! kill -0 "$child" 2>/dev/null; then
    [ -n "$child" ] && { kill "$child" 2>/dev/null; wait "$child" 2>/dev/null; echo "$(date -u +%T) port forwards changed: KWOK restarted"; }
    if [ -s "$W/kwok-forwards.yaml" ]; then "$@" --config "$W/kwok-forwards.yaml" & else "$@" & fi
    child=$!; cur=$now
  fi
  sleep 1
done
EOS
  launch kwok env W="$W" bash "$W/kwok.sh" "${KWOK[@]}"
fi
wait_for workload-controller-manager 120 in_ns curl -sfk https://127.0.0.1:10267/healthz
wait_for workload-scheduler 120 in_ns curl -sfk https://127.0.0.1:10269/healthz
wait_for kwok 120 in_ns curl -sfk https://127.0.0.1:10250/healthz
say "workload etcd (the cluster's etcd CA), kube-apiserver on $API_ADDR:6443$([ "$API_ADDR" = "$FIP" ] || echo " (reached on $FIP:6443 through the kube-API amphora)"), controller-manager, scheduler, KWOK (kubelet API :10250) ready"

# ---------------------------------------------------------------- 4. what kubeadm init leaves behind
wk apply --server-side --force-conflicts -f - >"$LOG/workload-init.log" <<EOF
apiVersion: v1
kind: ConfigMap
metadata: {name: kubeadm-config, namespace: kube-system}
data:
  ClusterConfiguration: |
    apiVersion: kubeadm.k8s.io/v1beta4
    kind: ClusterConfiguration
    kubernetesVersion: $WK8S
    clusterName: $CLUSTER
    controlPlaneEndpoint: $FIP:6443
    certificatesDir: /etc/kubernetes/pki
    imageRepository: registry.k8s.io
    networking: {dnsDomain: cluster.local, serviceSubnet: 10.96.0.0/12, podSubnet: 192.168.0.0/16}
    etcd: {local: {dataDir: /var/lib/etcd}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: kubeadm:cluster-admins}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: Group, name: kubeadm:cluster-admins}]
EOF

# ---------------------------------------------------------------- 5. node-sync and occm loops
cat > "$W/node-sync.sh" <<'EOS'
#!/usr/bin/env bash
# One Node per OpenStackMachine with a providerID (the kubelet that would register it does not run).
set -u
mk() { kubectl --kubeconfig "$MGMT_KUBECONFIG" "$@"; }
wk() { kubectl --kubeconfig "$WK" "$@"; }
ecurl() { curl -sf --max-time 3 --cacert "$PKI/etcd-ca.crt" --cert "$PKI/apiserver-etcd-client.crt" --key "$PKI/apiserver-etcd-client.key" "$@"; }
# The etcd member list, from the first member that answers (see etcd.sh for the slots and their ports).
members() { local i; for ((i = 0; i < ETCD_MEMBERS; i++)); do ecurl -X POST "https://127.0.0.1:$((12379 + 100 * i))/v3/cluster/member/list" -d '{}' && return; done; return 1; }
# kubeadm join of a later control-plane node: a member of the node's name on the next free slot, started by
# etcd.sh, and KWOK told to forward that node's etcd pod (etcd-<node>) to it.
join() { # node
  local slot=1 out ic peer
  while [ -e "$W/etcd-join/$slot" ]; do slot=$((slot + 1)); done
  [ "$slot" -lt "$ETCD_MEMBERS" ] || { echo "$(date -u +%T) control-plane node $1: no etcd slot left (KAAS_TESTBED_ETCD_MEMBERS=$ETCD_MEMBERS); KCP will report this machine's member missing"; return 1; }
  peer=http://127.0.0.1:$((12380 + 100 * slot))
  out=$(for ((i = 0; i < ETCD_MEMBERS; i++)); do ecurl -X POST "https://127.0.0.1:$((12379 + 100 * i))/v3/cluster/member/add" -d "{\"peerURLs\": [\"$peer\"]}" && break; done) || return 1
  ic=$(printf '%s' "$out" | jq -r --arg n "$1" --arg p "$peer" '[.members[] | if (.peerURLs[0] == $p) then "\($n)=\($p)" else "\(.name)=\(.peerURLs[0])" end] | join(",")')
  mkdir -p "$W/etcd-join"
  printf '%s\n%s\n' "$1" "$ic" > "$W/etcd-join/.$slot"; mv "$W/etcd-join/.$slot" "$W/etcd-join/$slot"
  printf -- '---\napiVersion: kwok.x-k8s.io/v1alpha1\nkind: PortForward\nmetadata: {name: etcd-%s, namespace: kube-system}\nspec:\n  forwards:\n  - {ports: [2379], target: {address: 127.0.0.1, port: %s}}\n' "$1" $((12379 + 100 * slot)) >> "$W/kwok-forwards.yaml"
  echo "$(date -u +%T) etcd member add $1 (slot $slot, peer $peer; --initial-cluster $ic), KWOK forwards etcd-$1:2379 to :$((12379 + 100 * slot))"
}
while :; do
  # Each Machine's Kubernetes version (its Node's kubelet reports it) and whether it is being deleted: a
  # deleting Machine's Node is not made again once Cluster API has deleted it.
  mv=$(mk -n "$CNS" get machines -l "cluster.x-k8s.io/cluster-name=$CLUSTER" -o json 2>/dev/null |
    jq -c '[.items[] | {key: .metadata.name, value: {version: (.spec.version // ""), deleting: (.metadata.deletionTimestamp != null)}}] | from_entries' 2>/dev/null || echo '{}')
  mk -n "$CNS" get openstackmachines -l "cluster.x-k8s.io/cluster-name=$CLUSTER" -o json 2>/dev/null |
    # Only machines with an address: a tab is whitespace to `read`, so an empty field would shift the next
    # one into ip (a control-plane Node with InternalIP "cp", labelled as a worker, kept for good: KCP then
    # cannot reach its etcd member and create-cluster waits for ControlPlaneAvailable until its deadline).
    jq -r --argjson mv "$mv" '.items[] | select(.spec.providerID != null and .metadata.deletionTimestamp == null)
      | ((.metadata.ownerReferences // []) | map(select(.kind == "Machine")) | .[0].name // "") as $m
      | select(($mv[$m].deleting // false) | not) | [.metadata.name, .spec.providerID,
      ((.status.addresses // []) | map(select(.type == "InternalIP")) | .[0].address // ""),
      (if .metadata.labels["cluster.x-k8s.io/control-plane"] != null then "cp" else "worker" end),
      (($mv[$m].version // "") | if . == "" then "-" else . end)] | select(.[2] != "") | @tsv' |
    while IFS=$'\t' read -r name pid ip role version; do
      [ -n "$ip" ] || continue
      [ "$version" != - ] || version=$K8S_VERSION
      # The kubelet API of every node (KWOK on :10250) is reached at the node's InternalIP, as the
      # apiserver reaches a kubelet: the address is made local in this namespace (never on a real network).
      ip -o addr show dev lo | grep -q " $ip/" || ip addr add "$ip/32" dev lo
      cur=$(wk get node "$name" -o jsonpath='{.spec.providerID} {.metadata.annotations.kwok\.x-k8s\.io/node}' 2>/dev/null || true)
      if [ "$cur" != "$pid fake" ]; then
        if [ "$role" = cp ]; then
          labels='"node-role.kubernetes.io/control-plane": "", "node.kubernetes.io/exclude-from-external-load-balancers": ""'
          taints='[{"key": "node-role.kubernetes.io/control-plane", "effect": "NoSchedule"}]'
        else labels='"node-role.kubernetes.io/worker": ""'; taints='[]'; fi
        printf '%s\n' "{\"apiVersion\": \"v1\", \"kind\": \"Node\", \"metadata\": {\"name\": \"$name\", \"labels\": {\"kubernetes.io/hostname\": \"$name\", \"kubernetes.io/os\": \"linux\", \"kubernetes.io/arch\": \"amd64\", \"type\": \"kwok\", $labels}}, \"spec\": {\"providerID\": \"$pid\", \"taints\": $taints}}" |
          wk apply --server-side --field-manager kaas-testbed-node-sync -f - >/dev/null || continue
        wk patch node "$name" --subresource status --type merge -p "{\"status\": {\"addresses\": [{\"type\": \"InternalIP\", \"address\": \"$ip\"}, {\"type\": \"Hostname\", \"address\": \"$name\"}], \"nodeInfo\": {\"kubeletVersion\": \"$version\", \"kubeProxyVersion\": \"$version\", \"architecture\": \"amd64\", \"operatingSystem\": \"linux\"}}}" >/dev/null || continue
        wk annotate node "$name" --overwrite kwok.x-k8s.io/node=fake >/dev/null &&
          echo "$(date -u +%T) node $name ($role, kubelet $version) providerID $pid InternalIP $ip"
      fi
      if [ "$role" = cp ]; then
        # kubeadm's etcd member carries the node's name (one member here: the first control-plane node).
        if [ ! -s "$W/etcd-member-name" ]; then printf '%s' "$name" > "$W/etcd-member-name"; echo "$(date -u +%T) etcd member renamed $name"
        elif [ "$(cat "$W/etcd-member-name")" != "$name" ] && [ "$ETCD_MEMBERS" = 1 ]; then
          [ -e "$W/etcd-missing-$name" ] || { touch "$W/etcd-missing-$name"; echo "$(date -u +%T) control-plane node $name: the harness has one etcd member ($(cat "$W/etcd-member-name")); KCP will report this machine's member missing"; }
        elif [ "$(cat "$W/etcd-member-name")" != "$name" ] && ! grep -qx "$name" "$W"/etcd-join/[0-9]* 2>/dev/null; then
          # The first member carries its node's name before a second one joins (etcd publishes it on start).
          list=$(members) && printf '%s' "$list" | jq -e --arg n "$(cat "$W/etcd-member-name")" '.members | map(.name) | index($n) != null' >/dev/null && join "$name"
        fi
        # The kubelet's mirror pods of kubeadm's four static pods (KWOK runs them: Running and Ready).
        have=$(wk -n kube-system get pods -o name 2>/dev/null || true)
        for c in etcd kube-apiserver kube-controller-manager kube-scheduler; do
          printf '%s\n' "$have" | grep -qx "pod/$c-$name" && continue
          printf '%s\n' "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"$c-$name\", \"namespace\": \"kube-system\", \"labels\": {\"component\": \"$c\", \"tier\": \"control-plane\"}, \"annotations\": {\"kubernetes.io/config.source\": \"file\", \"kubernetes.io/config.mirror\": \"kaas-testbed\"}}, \"spec\": {\"nodeName\": \"$name\", \"hostNetwork\": true, \"priorityClassName\": \"system-node-critical\", \"tolerations\": [{\"operator\": \"Exists\", \"effect\": \"NoExecute\"}], \"containers\": [{\"name\": \"$c\", \"image\": \"registry.k8s.io/$c:$([ $c = etcd ] && echo 3.6.5-0 || echo $version)\"}]}}" |
            wk apply --server-side --field-manager kaas-testbed-node-sync -f - >/dev/null && echo "$(date -u +%T) mirror pod kube-system/$c-$name"
        done
      fi
    done
  sleep 5
done
EOS
cat > "$W/occm.sh" <<'EOS'
#!/usr/bin/env bash
# Stands in for kaas's OCCM DaemonSet: runs the OCCM binary with the DaemonSet's --cluster-name and the
# cloud.conf of kube-system/cloud-config as read when the pod template last changed.
set -u
wk() { kubectl --kubeconfig "$WK" "$@"; }
child=""; running_tpl=""
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; exit 0' TERM INT
while :; do
  ds=$(wk -n kube-system get daemonset openstack-cloud-controller-manager -o json 2>/dev/null || true)
  if [ -n "$ds" ]; then
    tpl=$(printf '%s' "$ds" | jq -c '.spec.template' | sha256sum | cut -c1-16)
    if [ "$tpl" != "$running_tpl" ] || { [ -n "$child" ] && ! kill -0 "$child" 2>/dev/null; }; then
      conf=$(wk -n kube-system get secret cloud-config -o jsonpath='{.data.cloud\.conf}' 2>/dev/null | base64 -d)
      if [ -n "$conf" ]; then
        [ -n "$child" ] && { kill "$child" 2>/dev/null; wait "$child" 2>/dev/null; echo "$(date -u +%T) pod template changed: OCCM restarted"; }
        umask 077; printf '%s\n' "$conf" > "$W/cloud.conf"
        # CA named in cloud.conf as ca-file lives in the Secret too (ca.crt), mounted at /etc/config.
        ca=$(wk -n kube-system get secret cloud-config -o jsonpath='{.data.ca\.crt}' 2>/dev/null | base64 -d)
        [ -n "$ca" ] && { printf '%s\n' "$ca" > "$W/ca.crt"; sed -i "s#/etc/config/ca.crt#$W/ca.crt#" "$W/cloud.conf"; }
        umask 022
        cn=$(printf '%s' "$ds" | jq -r '.spec.template.spec.containers[0] | (.env // [] | map(select(.name == "CLUSTER_NAME")) | .[0].value) as $v | .args[] | select(startswith("--cluster-name=")) | sub("--cluster-name="; "") | sub("\\$\\(CLUSTER_NAME\\)"; $v // "")')
        echo "$(date -u +%T) starting OCCM --cluster-name=$cn, cloud.conf from kube-system/cloud-config (pod template $tpl)"
        "$BIN/openstack-cloud-controller-manager" --v=2 --cloud-provider=openstack --cloud-config="$W/cloud.conf" \
          --cluster-name="$cn" --kubeconfig="$WK" --authentication-kubeconfig="$WK" --authorization-kubeconfig="$WK" \
          --controllers=service --leader-elect=false --use-service-account-credentials=false \
          --bind-address=127.0.0.1 --secure-port=10268 --concurrent-service-syncs=2 &
        child=$!; running_tpl=$tpl
      fi
    fi
  elif [ -n "$child" ]; then kill "$child" 2>/dev/null; wait "$child" 2>/dev/null; child=""; running_tpl=""; echo "$(date -u +%T) DaemonSet gone: OCCM stopped"
  fi
  sleep 3
done
EOS
export MGMT_KUBECONFIG WK CNS CLUSTER W BIN K8S_VERSION=$WK8S
launch node-sync env MGMT_KUBECONFIG="$MGMT_KUBECONFIG" WK="$WK" W="$W" CNS="$CNS" CLUSTER="$CLUSTER" K8S_VERSION="$WK8S" PKI="$PKI" ETCD_MEMBERS="$ETCD_MEMBERS" PATH="$PATH" bash "$W/node-sync.sh"
launch occm env WK="$WK" W="$W" BIN="$BIN" PATH="$PATH" bash "$W/occm.sh"
say "node-sync (Nodes from OpenStackMachines) and occm (OCCM from kaas's DaemonSet + cloud-config Secret) running"
# Envoy Gateway's controller for the envoy-gateway Deployment kaas applies (KWOK only pretends to run its pod).
# KAAS_TESTBED_ENVOY_GATEWAY=0 (npm test's workload smoke, which runs no gateway row): not built, not started.
if [ "${KAAS_TESTBED_ENVOY_GATEWAY:-1}" != 0 ]; then
  bash "$HERE/envoy-gateway.sh" start "$DIR" "$WK" "$BIN" "$NS"
  say "envoy-gateway (Envoy Gateway v1.9.0's controller, for kaas apply-gateway) waiting for its Deployment"
else
  say "envoy-gateway not started (KAAS_TESTBED_ENVOY_GATEWAY=0): apply-gateway would stop at 'not Programmed'"
fi

if [ "${KAAS_TESTBED_DATAPATH:-0}" = 1 ]; then
  DP_MGMT_KUBECONFIG=$MGMT_KUBECONFIG DP_CAPI_NAMESPACE=$CNS DP_CLUSTER=$CLUSTER DP_CLUSTER_CIDR=$POD_CIDR \
    bash "$HERE/datapath-nodes.sh" start "$DIR" "$NS" "$WK" "$PKI" "$BIN" || die "the data path did not start (log: $LOG/datapath-nodes.log)"
  say "data path: kube-proxy in each node's VM namespace (kaas-vm-<server uuid8>) once it exists, pods plumbed (log: $LOG/datapath-nodes.log)"
fi

# Every Machine of the cluster has its server before "ready": CAPO creates the workers' servers in the
# background, and the management scenarios that run next compare the project's resource counts before
# and after (clusterclass.test.ts saw 2 servers and 2 ports more at its end than at its start when the
# workers came up meanwhile; CI clone run of 2026-11-27).
machines_ready() {
  local want have
  want=$(( $(mk -n "$CNS" get kubeadmcontrolplane -l "cluster.x-k8s.io/cluster-name=$CLUSTER" -o jsonpath='{range .items[*]}{.spec.replicas}{"+"}{end}'0) \
    + $(mk -n "$CNS" get machinedeployment -l "cluster.x-k8s.io/cluster-name=$CLUSTER" -o jsonpath='{range .items[*]}{.spec.replicas}{"+"}{end}'0) ))
  have=$(mk -n "$CNS" get machine -l "cluster.x-k8s.io/cluster-name=$CLUSTER" -o jsonpath='{range .items[*]}{.spec.providerID}{"\n"}{end}' | grep -c . || true)
  [ "$want" -gt 0 ] && [ "$have" -ge "$want" ]
}
for ((i = 0; i < 900; i++)); do machines_ready 2>/dev/null && break; sleep 1; done
machines_ready 2>/dev/null || die "the Machines of cluster $CLUSTER did not all get a server within 900 s (ip netns exec $NS kubectl --kubeconfig $MGMT_KUBECONFIG get machines -n $CNS)"
say "every Machine of $CLUSTER has its server ($(mk -n "$CNS" get machine -l "cluster.x-k8s.io/cluster-name=$CLUSTER" --no-headers | wc -l))"

# ---------------------------------------------------------------- env
grep -v '^WORKLOAD_' "$DIR/testbed.env" > "$DIR/testbed.env.new" || true
printf 'WORKLOAD_KUBECONFIG=%s\nWORKLOAD_ADMIN_KUBECONFIG=%s\nWORKLOAD_CLUSTER=%s\nWORKLOAD_NAMESPACE=%s\nWORKLOAD_API=https://%s:6443\n' \
  "$WKC" "$WK" "$CLUSTER" "$CNS" "$FIP" >> "$DIR/testbed.env.new"
mv "$DIR/testbed.env.new" "$DIR/testbed.env"
say "ready: WORKLOAD_KUBECONFIG=$WKC (cluster $CLUSTER, API https://$FIP:6443)"
