#!/usr/bin/env bash
# The workload nodes' real data path (KAAS_TESTBED_DATAPATH=1): for every workload Node whose "VM" exists
# as a network namespace, a real kube-proxy (k8s.io/kubernetes v1.34.10, built by build.sh) in it, and for
# every Ready pod KWOK placed there a pod network namespace whose address is the pod's IP, running the
# pod's program (datapath-pods.sh). KWOK still schedules and reports the pods; no kubelet runs.
#
#   datapath-nodes.sh start DIR NETNS KUBECONFIG PKI BIN
#       DIR         the testbed's directory: the loop is recorded in DIR/pids ("datapath-nodes"), what it
#                   starts in DIR/datapath/pids, its state in DIR/datapath/, logs in DIR/log/
#       NETNS       the namespace where KUBECONFIG's server address is local (the testbed namespace): the
#                   loop runs there, and each VM namespace gets a management NIC into it
#       KUBECONFIG  an admin kubeconfig of the workload cluster (the loop reads Nodes, Pods, ConfigMaps)
#       PKI         a directory with the cluster CA (ca.crt, ca.key): kube-proxy's client certificate
#                   (CN=system:kube-proxy, which the apiserver's bootstrap RBAC binds to system:node-proxier)
#       BIN         build.sh's BIN_DIR (kube-proxy, agnhost)
#     Node -> VM namespace: DP_NODE_NETNS_MAP=FILE ("node netns" lines; prove-nodes.sh), else the Nova
#     driver's contract: netns kaas-vm-<first 8 hex of the server uuid>, the uuid from the Node's Machine ->
#     OpenStackMachine status.instanceID, read with DP_MGMT_KUBECONFIG in namespace DP_CAPI_NAMESPACE for
#     Cluster DP_CLUSTER. The VM namespace has eth0 with the Node's InternalIP and a default route.
#     DP_CLUSTER_CIDR: the pod address pool (KWOK's --cidr; default 10.244.0.0/16), kube-proxy's clusterCIDR.
#   datapath-nodes.sh stop DIR    stop the loop and everything it started, delete the pod namespaces and
#                                 management NICs (testbed.sh stop calls it first)
#
# Per node (VM namespace V, node IP N): a veth "mg-<id8>" (testbed side, no address) <-> "mgmt0" (in V,
# 169.254.100.<k>/32) and in V a /32 route to the apiserver address through mgmt0: kube-proxy reaches the
# workload apiserver out of band, never through the cloud's network (where that address is a load balancer's
# floating IP). ip_forward=1 in V. A control-plane node's V (label node-role.kubernetes.io/control-plane) also
# serves the kube-API on N:6443, as kubeadm's static kube-apiserver pod would: a DNAT in V to the workload
# apiserver at that address :6443 through mgmt0 (masqueraded to 169.254.100.<k>), so the kube-API load
# balancer CAPO built (an amphora with KAAS_TESTBED_AMPHORA=1) has a member that answers and carries real
# requests to the real apiserver (issue 30 §3, §5). Pod traffic between nodes is encapsulated (datapath-tunnel.sh). kube-proxy
# in V: iptables mode (kube-proxy's default, what kubeadm's clusters run), nodePortAddresses [primary]
# (NodePorts and healthCheckNodePorts on N only, not on mgmt0 or the tunnel), conntrack.maxPerCore 0 (nf_conntrack_max is read-only outside the initial namespace:
# cmd/kube-proxy/app/server_linux.go@v1.34.10 setupConntrack), clusterCIDR = the pod pool (no podCIDR needed).
#
# The loop runs under `nsenter --net` (not `ip netns exec`): namespaces added from inside `ip netns exec`
# (a slave mount namespace) leave a dead file in /run/netns that nothing else can enter (checked here).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
CMD=${1:-}; DIR=${2:-}
usage() { echo "usage: datapath-nodes.sh start DIR NETNS KUBECONFIG PKI BIN | stop DIR" >&2; exit 2; }
[ -n "$DIR" ] && [ -d "$DIR" ] || usage
DIR=$(cd "$DIR" && pwd)
DP=$DIR/datapath
LOG=$DIR/log

ours() { ps -eo pgid=,args= | awk -v g="$1" -v d="$DIR/" '$1==g && index($0,d){f=1} END{exit !f}'; }
alive() { ps -eo pgid=,stat= | awk -v g="$1" '$1==g && $2!~/^Z/{f=1} END{exit !f}'; }
stop_group() { # pgid: TERM, up to 5 s, KILL (only a group whose command line names DIR)
  ours "$1" || return 0
  kill -TERM -- "-$1" 2>/dev/null || true
  for _ in $(seq 1 20); do alive "$1" || return 0; sleep 0.25; done
  kill -KILL -- "-$1" 2>/dev/null || true
}
# DIR/datapath/pids: "name pgid" of what the loop started (kube-proxy/<node>, pod/<uid8>); one writer at a time.
dp_pgid() { [ -f "$DP/pids" ] && awk -v n="$1" '$1==n{print $2}' "$DP/pids" || true; }
dp_running() { local p; p=$(dp_pgid "$1"); [ -n "$p" ] && ours "$p" && alive "$p"; }
dp_forget() { [ -f "$DP/pids" ] || return 0; grep -v "^$1 " "$DP/pids" > "$DP/pids.new" || true; mv "$DP/pids.new" "$DP/pids"; }
dp_record() { dp_forget "$1"; echo "$1 $2" >> "$DP/pids"; }
dp_stop() { local p; p=$(dp_pgid "$1"); [ -n "$p" ] && stop_group "$p"; dp_forget "$1"; }

# ---------------------------------------------------------------- stop
if [ "$CMD" = stop ]; then
  [ -d "$DP" ] || exit 0
  loop=$([ -f "$DIR/pids" ] && awk '$1=="datapath-nodes"{print $2}' "$DIR/pids" || true)
  [ -n "$loop" ] && stop_group "$loop"
  [ -f "$DP/pids" ] && while read -r name pgid; do stop_group "$pgid"; echo "[datapath] stopped $name ($pgid)"; done < "$DP/pids"
  rm -f "$DP/pids"
  for p in "$DP"/pods/*/; do
    [ -f "$p/netns" ] || continue
    ip netns del "$(cat "$p/netns")" 2>/dev/null && echo "[datapath] deleted pod namespace $(cat "$p/netns")"
    rm -rf "$p"
  done
  ns=$(cat "$DP/netns" 2>/dev/null || true)
  for d in "$DP"/nodes/*/; do
    [ -f "$d/mgmt-link" ] && [ -e "/run/netns/$ns" ] && ip -n "$ns" link del "$(cat "$d/mgmt-link")" 2>/dev/null || true
    rm -rf "$d"
  done
  rm -f "$DP"/mgmt/*
  exit 0
fi

# ---------------------------------------------------------------- start: credentials, then the loop
if [ "$CMD" = start ]; then
  NS=${3:-}; KC=${4:-}; PKI=${5:-}; BIN=${6:-}
  [ -e "/run/netns/$NS" ] && [ -f "$KC" ] && [ -f "$PKI/ca.key" ] && [ -x "$BIN/kube-proxy" ] && [ -x "$BIN/agnhost" ] \
    || { echo "datapath-nodes.sh: needs NETNS (/run/netns/$NS), KUBECONFIG, PKI/ca.{crt,key} and BIN/{kube-proxy,agnhost} (build.sh with KAAS_TESTBED_DATAPATH=1)" >&2; exit 2; }
  [ -n "${DP_NODE_NETNS_MAP:-}" ] || { [ -f "${DP_MGMT_KUBECONFIG:-}" ] && [ -n "${DP_CAPI_NAMESPACE:-}" ] && [ -n "${DP_CLUSTER:-}" ]; } \
    || { echo "datapath-nodes.sh: set DP_NODE_NETNS_MAP, or DP_MGMT_KUBECONFIG, DP_CAPI_NAMESPACE and DP_CLUSTER (Node -> VM namespace)" >&2; exit 2; }
  mkdir -p "$DP/bin" "$DP/nodes" "$DP/pods" "$DP/mgmt" "$LOG/datapath-pods"
  # The programs run from DIR (ours() knows a process by DIR in its command line); iptables-nft under the
  # names kube-proxy calls (Debian's alternatives may be missing on a minimal image).
  ln -sfn "$BIN/kube-proxy" "$DP/bin/kube-proxy"; ln -sfn "$BIN/agnhost" "$DP/bin/agnhost"
  for t in iptables ip6tables; do for s in "" -save -restore; do ln -sfn "/usr/sbin/$t-nft$s" "$DP/bin/$t$s"; done; done
  server=$(kubectl --kubeconfig "$KC" config view --minify -o jsonpath='{.clusters[0].cluster.server}')
  host=${server#https://}; host=${host%:*}
  umask 077
  if [ ! -f "$DP/kube-proxy.crt" ] || ! openssl verify -CAfile "$PKI/ca.crt" "$DP/kube-proxy.crt" >/dev/null 2>&1; then
    printf 'extendedKeyUsage=clientAuth\n' > "$DP/client.ext"
    openssl req -newkey rsa:2048 -nodes -keyout "$DP/kube-proxy.key" -out "$DP/kube-proxy.csr" -subj "/CN=system:kube-proxy" 2>/dev/null
    openssl x509 -req -in "$DP/kube-proxy.csr" -CA "$PKI/ca.crt" -CAkey "$PKI/ca.key" -CAcreateserial -CAserial "$DP/ca.srl" \
      -out "$DP/kube-proxy.crt" -days 30 -extfile "$DP/client.ext" 2>/dev/null
  fi
  printf '%s\n' "apiVersion: v1" "kind: Config" "clusters:" "- name: workload" "  cluster:" "    server: $server" \
    "    certificate-authority-data: $(base64 -w0 "$PKI/ca.crt")" "users:" "- name: kube-proxy" "  user:" \
    "    client-certificate-data: $(base64 -w0 "$DP/kube-proxy.crt")" "    client-key-data: $(base64 -w0 "$DP/kube-proxy.key")" \
    "contexts:" "- name: kube-proxy" "  context: {cluster: workload, user: kube-proxy}" "current-context: kube-proxy" > "$DP/kube-proxy.kubeconfig"
  umask 022
  echo "$NS" > "$DP/netns"
  printf '%s\n' "KC=$KC" "NS=$NS" "API_HOST=$host" "CLUSTER_CIDR=${DP_CLUSTER_CIDR:-10.244.0.0/16}" \
    "NODE_MAP=${DP_NODE_NETNS_MAP:-}" "MGMT_KUBECONFIG=${DP_MGMT_KUBECONFIG:-}" \
    "CAPI_NAMESPACE=${DP_CAPI_NAMESPACE:-}" "CLUSTER=${DP_CLUSTER:-}" > "$DP/env"
  p=$([ -f "$DIR/pids" ] && awk '$1=="datapath-nodes"{print $2}' "$DIR/pids" || true)
  if [ -n "$p" ] && ours "$p" && alive "$p"; then exit 0; fi
  nsenter --net="/run/netns/$NS" setsid env PATH="$PATH" bash "$HERE/datapath-nodes.sh" loop "$DIR/" \
    </dev/null >>"$LOG/datapath-nodes.log" 2>&1 &
  { [ -f "$DIR/pids" ] && grep -v '^datapath-nodes ' "$DIR/pids"; echo "datapath-nodes $!"; } > "$DIR/pids.new" || true
  mv "$DIR/pids.new" "$DIR/pids"
  exit 0
fi

# ---------------------------------------------------------------- loop (in NETNS, its own process group)
[ "$CMD" = loop ] || usage
set +eu   # a loop: one failed pass (the apiserver restarting, a pod going away meanwhile) is retried 3 s later
# shellcheck disable=SC1091
. "$DP/env"
log() { echo "$(date -u +%T) $*"; }
wk() { kubectl --kubeconfig "$KC" "$@"; }
export PATH="$DP/bin:$PATH"
# shellcheck source=datapath-pods.sh
. "$HERE/datapath-pods.sh"
# shellcheck source=datapath-tunnel.sh
. "$HERE/datapath-tunnel.sh"

# "node netns" for every Node whose VM is known: the map file, or Machine.status.nodeRef -> OpenStackMachine.
node_netns() {
  if [ -n "$NODE_MAP" ]; then cat "$NODE_MAP"; return; fi
  local mk=(kubectl --kubeconfig "$MGMT_KUBECONFIG" -n "$CAPI_NAMESPACE") m o
  m=$("${mk[@]}" get machines -l "cluster.x-k8s.io/cluster-name=$CLUSTER" -o json) || return 1
  o=$("${mk[@]}" get openstackmachines -l "cluster.x-k8s.io/cluster-name=$CLUSTER" -o json) || return 1
  # Also by the OpenStackMachine's own name, the Node's name on the workload testbed (node-sync): CAPI sets a
  # Machine's nodeRef only once it reaches the workload apiserver, which with real amphorae goes through the
  # kube-API load balancer, whose member (the control-plane node's :6443) this loop brings up.
  jq -rn --argjson m "$m" --argjson o "$o" '
    ($o.items | map({key: .metadata.name, value: (.status.instanceID // "")}) | from_entries) as $id
    | ([$m.items[] | select(.status.nodeRef.name != null)
        | ($id[.spec.infrastructureRef.name] // "") as $u | select($u != "")
        | "\(.status.nodeRef.name) kaas-vm-\($u[0:8])"]
      + [$o.items[] | select((.status.instanceID // "") != "") | "\(.metadata.name) kaas-vm-\(.status.instanceID[0:8])"])
    | unique[]'
}

drop_node() { # node
  local d=$DP/nodes/$1
  dp_stop "kube-proxy/$1"
  [ -f "$d/mgmt-link" ] && ip link del "$(cat "$d/mgmt-link")" 2>/dev/null
  [ -f "$d/mgmt-index" ] && rm -f "$DP/mgmt/$(cat "$d/mgmt-index")"
  rm -rf "$d"; log "node $1: kube-proxy stopped, management NIC removed"
}

# The control-plane node's kube-API on N:6443 in V (see the header): the workload apiserver through mgmt0.
# iptables-nft, as kube-proxy's (DP/bin first on PATH); its chains are kube-proxy's own, these rules are not in them.
ensure_kubeapi() { # vm-netns node-ip
  local v=$1 ip=$2
  ip netns exec "$v" iptables -t nat -C PREROUTING -d "$ip" -p tcp --dport 6443 -j DNAT --to-destination "$API_HOST:6443" 2>/dev/null ||
    ip netns exec "$v" iptables -t nat -A PREROUTING -d "$ip" -p tcp --dport 6443 -j DNAT --to-destination "$API_HOST:6443" || return 1
  ip netns exec "$v" iptables -t nat -C POSTROUTING -o mgmt0 -d "$API_HOST" -p tcp --dport 6443 -j MASQUERADE 2>/dev/null ||
    ip netns exec "$v" iptables -t nat -A POSTROUTING -o mgmt0 -d "$API_HOST" -p tcp --dport 6443 -j MASQUERADE
}

ensure_node() { # node ip vm-netns role
  local name=$1 ip=$2 v=$3 role=${4:-} d=$DP/nodes/$1 k link
  [ -f "$d/netns" ] && [ "$(cat "$d/netns")" != "$v" ] && drop_node "$name"   # the VM was replaced
  mkdir -p "$d"; echo "$v" > "$d/netns"; echo "$ip" > "$d/ip"
  link=mg-${v#kaas-vm-}; link=${link:0:15}
  if ! ip -n "$v" link show mgmt0 >/dev/null 2>&1; then
    k=$(cat "$d/mgmt-index" 2>/dev/null)
    if [ -z "$k" ]; then
      for k in $(seq 2 254); do [ -e "$DP/mgmt/$k" ] || break; done
      echo "$name" > "$DP/mgmt/$k"; echo "$k" > "$d/mgmt-index"
    fi
    ip link del "$link" 2>/dev/null
    ip link add "$link" type veth peer name mgmt0 netns "$v" && ip link set "$link" up &&
      ip -n "$v" link set mgmt0 up && ip -n "$v" addr add "169.254.100.$k/32" dev mgmt0 &&
      ip -n "$v" route replace "$API_HOST/32" dev mgmt0 src "169.254.100.$k" &&
      ip route replace "169.254.100.$k/32" dev "$link" &&
      ip netns exec "$v" sysctl -qw net.ipv4.ip_forward=1 ||
      { log "node $name: management NIC in $v failed"; return 1; }
    echo "$link" > "$d/mgmt-link"
    log "node $name ($ip): $v, management NIC $link <-> mgmt0 169.254.100.$k, route to $API_HOST"
  fi
  ensure_tunnel "$v" "$ip" "$name" || return 1
  # Calico's natOutgoing (on in kaas's default IP pool): a pod's connection to an address outside the pod
  # network leaves the node with the node's address, so the node's Neutron port lets it out (a pod calling
  # the edge's floating IP: the hairpin, issue 30 §4). Replies to connections from outside are not touched.
  if [ ! -f "$d/nat-outgoing" ]; then
    { ip netns exec "$v" iptables -t nat -C POSTROUTING -s "$CLUSTER_CIDR" ! -d "$CLUSTER_CIDR" -o eth0 -j MASQUERADE 2>/dev/null ||
      ip netns exec "$v" iptables -t nat -A POSTROUTING -s "$CLUSTER_CIDR" ! -d "$CLUSTER_CIDR" -o eth0 -j MASQUERADE; } ||
      { log "node $name: natOutgoing in $v failed"; return 1; }
    touch "$d/nat-outgoing"; log "node $name: natOutgoing for $CLUSTER_CIDR out of eth0 in $v"
  fi
  if [ "$role" = control-plane ] && [ ! -f "$d/kubeapi" ]; then
    ensure_kubeapi "$v" "$ip" || { log "node $name: the kube-API on $ip:6443 in $v failed"; return 1; }
    touch "$d/kubeapi"; log "node $name: kube-API on $ip:6443 in $v (DNAT to $API_HOST:6443 through mgmt0)"
  fi
  dp_running "kube-proxy/$name" && return 0
  printf '%s\n' "apiVersion: kubeproxy.config.k8s.io/v1alpha1" "kind: KubeProxyConfiguration" \
    "clientConnection: {kubeconfig: $DP/kube-proxy.kubeconfig}" "hostnameOverride: $name" "mode: iptables" \
    "clusterCIDR: $CLUSTER_CIDR" "nodePortAddresses: [primary]" "conntrack: {maxPerCore: 0}" \
    "healthzBindAddress: 0.0.0.0:10256" "metricsBindAddress: 127.0.0.1:10249" > "$d/kube-proxy.yaml"
  ip netns exec "$v" setsid "$DP/bin/kube-proxy" --config "$d/kube-proxy.yaml" --hostname-override "$name" --v=1 \
    </dev/null >>"$LOG/kube-proxy-$name.log" 2>&1 &
  dp_record "kube-proxy/$name" $!
  log "node $name: kube-proxy started in $v (pgid $!, log $LOG/kube-proxy-$name.log)"
}

sync_nodes() { # writes DP/nodes.tsv: node ip vm-netns, for the nodes with a data path
  local nodes map name ip v seen=" "
  nodes=$(wk get nodes -o json | jq -r '.items[] | [.metadata.name, ((.status.addresses // []) | map(select(.type == "InternalIP")) | .[0].address // ""),
    (if (.metadata.labels // {}) | has("node-role.kubernetes.io/control-plane") then "control-plane" else "worker" end)] | @tsv') || return 1
  map=$(node_netns) || return 1   # the management API unreachable: keep every node as it is
  : > "$DP/nodes.tsv.new"
  while IFS=$'\t' read -r name ip role; do
    [ -n "$name" ] && [ -n "$ip" ] || continue
    v=$(awk -v n="$name" '$1==n{print $2; exit}' <<<"$map")
    [ -n "$v" ] || continue
    if ! ip -n "$v" link show eth0 >/dev/null 2>&1; then   # no VM namespace (yet), or not usable
      if [ ! -e "$DP/warned-$v" ]; then
        touch "$DP/warned-$v"
        if [ -e "/run/netns/$v" ]; then
          log "node $name: /run/netns/$v exists but has no eth0 or cannot be entered (a namespace added from inside \`ip netns exec\` is a dead file outside it: add it from the root mount namespace, e.g. under \`nsenter --net\`)"
        else log "node $name: waiting for its VM namespace $v"; fi
      fi
      continue
    fi
    ensure_node "$name" "$ip" "$v" "$role" && { printf '%s\t%s\t%s\n' "$name" "$ip" "$v" >> "$DP/nodes.tsv.new"; seen="$seen$name "; }
  done <<<"$nodes"
  mv "$DP/nodes.tsv.new" "$DP/nodes.tsv"
  for d in "$DP"/nodes/*/; do
    [ -d "$d" ] || continue; name=$(basename "$d")
    [[ "$seen" == *" $name "* ]] || drop_node "$name"
  done
  return 0
}

log "data path loop: apiserver $API_HOST via management NICs, pods from $CLUSTER_CIDR, nodes from ${NODE_MAP:-Machines/OpenStackMachines in $CAPI_NAMESPACE}"
trap 'exit 0' TERM INT
while :; do
  sync_nodes && sync_pods
  sleep 3
done
