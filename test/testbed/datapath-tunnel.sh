# shellcheck shell=bash
# The pod network between the data-path nodes (sourced by datapath-nodes.sh loop; uses its DP, log and
# DP/nodes.tsv). kaas's Calico encapsulates pod traffic between nodes in IPIP (CALICO_IPV4POOL_IPIP Always,
# templates/addons/calico.yaml.hbs); this kernel has no ipip device, so the stand-in is Calico's other
# encapsulation, VXLAN. Either way the cloud's network sees node addresses only: Neutron's port security (a
# port sends and receives its own fixed IP) and the cluster's security groups (CAPO's
# allowAllInClusterTraffic, which kaas renders) decide whether it passes, as on a real cloud. (A plain route to
# a pod IP via the other node is dropped by port security: kube-proxy's forwards across nodes, e.g. for
# externalTrafficPolicy Cluster, timed out until 2026-11-27.)
# Per node (VM namespace V, InternalIP a.b.c.d): device vxlan.kaas (VNI 4096, UDP 4789, local a.b.c.d, no
# learning, MTU eth0's - 50), MAC 0e:6b:a:b:c:d, and a tunnel address from the pod pool as Calico's own:
# <first two octets of the pool>.(240 + c % 16).d/32 (KWOK hands pod IPs out from the pool's start, so its top
# sixteenth stays free; node networks up to a /20 map one to one). For every other node M: a permanent
# neighbour (M's tunnel address -> M's MAC), a forwarding entry (M's MAC -> M's InternalIP) and a /32 route
# to M's tunnel address; pods on M are routed via M's tunnel address (datapath-pods.sh). kube-proxy's
# masquerade on a forwarding node takes the tunnel address as source, so the pod sees it, as with Calico.

TUN=vxlan.kaas

tunnel_mac() { printf '0e:6b:%02x:%02x:%02x:%02x' ${1//./ }; }
tunnel_ip() { # node-ip -> its tunnel address (no subprocess: called per pod and node on every pass)
  local o p; IFS=. read -ra o <<<"$1"; IFS=./ read -ra p <<<"$CLUSTER_CIDR"
  echo "${p[0]}.${p[1]}.$((240 + o[2] % 16)).${o[3]}"
}

# Creates V's tunnel device once (a replaced VM is a new namespace, so it gets a new one).
ensure_tunnel() { # vm-netns node-ip node-name
  local v=$1 ip=$2 mtu
  ip -n "$v" link show "$TUN" >/dev/null 2>&1 && return 0
  mtu=$(ip -n "$v" -o link show eth0 2>/dev/null | sed -n 's/.* mtu \([0-9]*\) .*/\1/p')
  ip -n "$v" link add "$TUN" type vxlan id 4096 local "$ip" dstport 4789 nolearning dev eth0 &&
    ip -n "$v" link set "$TUN" address "$(tunnel_mac "$ip")" mtu $((${mtu:-1500} - 50)) &&
    ip -n "$v" addr add "$(tunnel_ip "$ip")/32" dev "$TUN" && ip -n "$v" link set "$TUN" up ||
    { log "node $3: tunnel device $TUN in $v failed"; return 1; }
  log "node $3 ($ip): $TUN $(tunnel_ip "$ip") ($(tunnel_mac "$ip")), MTU $((${mtu:-1500} - 50))"
}

# V's neighbours and forwarding entries for every other data-path node (stale ones removed); prints the /32
# routes (for `ip route replace … proto 199`) that reach the other nodes' tunnel addresses.
tunnel_peers() { # node-name vm-netns
  local self=$1 v=$2 n nip w macs=" " have
  while IFS=$'\t' read -r n nip w; do
    [ "$n" = "$self" ] && continue
    ip -n "$v" neigh replace "$(tunnel_ip "$nip")" lladdr "$(tunnel_mac "$nip")" dev "$TUN" nud permanent 2>/dev/null
    bridge -n "$v" fdb replace "$(tunnel_mac "$nip")" dev "$TUN" dst "$nip" 2>/dev/null
    macs="$macs$(tunnel_mac "$nip") "
    echo "$(tunnel_ip "$nip") dev $TUN scope link"
  done < "$DP/nodes.tsv"
  for have in $(bridge -n "$v" fdb show dev "$TUN" 2>/dev/null | awk '$1 ~ /^0e:6b:/ {print $1}' | sort -u); do
    [[ "$macs" == *" $have "* ]] || bridge -n "$v" fdb del "$have" dev "$TUN" 2>/dev/null
  done
}
