#!/bin/bash
# Proof of the peer's real OVN data path (PEER_DATAPATH=1): packets, not just API objects.
# Creates a network namespace, starts the peer in it (PEER_DATAPATH=1 NOVA=1 OCTAVIA_WORKER=0, with
# PEER_OVN_PROVIDER from the environment, default fixed), then:
#   1. boots two servers on demo's "private" network (behind router1 to "public"); each is a network
#      namespace kaas-vm-<uuid8> whose eth0 has the port's address (os_peer_nova.py), and runs a tiny
#      HTTP responder answering "vm=<name> client=<address it sees>";
#      a port attached to one of them shows as eth1 there, and goes when detached;
#   2. an ovn load balancer (TCP listener :80, SOURCE_IP_PORT pool, both servers as members, TCP
#      health monitor) with a floating IP on its VIP;
#   3. from a client namespace hanging on br-ex only (172.24.4.250 on the external network), requests
#      to the floating IP: both servers answer, each sees the client's own address;
#   4. one responder stops: Octavia shows that member's operating_status ERROR (the provider's word for
#      an offline Service_Monitor of ovn-controller's, through the provider agent); requests via the floating IP then go only to the live server with
#      the fixed provider (3.1.2); with Debian's 3.0.0 (no health check on the floating-IP VIP,
#      Launchpad bug 1997418) the requests that hash to the dead member time out: counted and shown.
# Cleans up (servers: their namespaces go with them; load balancer, floating IP), stops the peer and
# deletes the namespaces, unless KEEP=1. Exits non-zero on any failure.
#   test/peer/prove-datapath.sh [DIR]    (root; DIR defaults to /tmp/kaas-dp-peer, reused if present)
set -eu   # (no pipefail: "cmd | grep -q" would fail when grep stops reading early)
HERE=$(cd "$(dirname "$0")" && pwd)
D=${1:-/tmp/kaas-dp-peer}
mkdir -p "$D"; D=$(cd "$D" && pwd)
PROVIDER=${PEER_OVN_PROVIDER:-fixed}
NS=kaas-dp-$(printf '%s' "$D" | sha1sum | cut -c1-8)
CL=$NS-cl
T0=$(date +%s)
say() { echo "[prove-datapath $(($(date +%s) - T0))s] $*"; }
fail() { echo "FAIL: $*"; exit 1; }
RESP_PIDS=()
cleanup() {
  set +e
  for p in "${RESP_PIDS[@]}"; do kill "$p" 2>/dev/null; done
  [ "${KEEP:-0}" = 1 ] && { echo "KEEP=1: peer in $NS ($D), client namespace $CL left running"; return; }
  if [ -n "${LB_ID:-}" ]; then U loadbalancer delete --cascade "$LB_ID" >/dev/null 2>&1; fi
  [ -n "${FIP:-}" ] && U floating ip delete "$FIP" >/dev/null 2>&1
  U server delete --wait dp-vm-a dp-vm-b >/dev/null 2>&1
  bash "$HERE/stop.sh" "$D" >/dev/null
  for n in "$CL" "$NS"; do
    for p in $(ip netns pids "$n" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
    ip netns del "$n" 2>/dev/null
  done
}
trap cleanup EXIT
in_ns() { ip netns exec "$NS" "$@"; }
export HOME=$D/cli-home XDG_CACHE_HOME=$D/cli-home/.cache OS_CLIENT_CONFIG_FILE=$D/clouds.yaml
mkdir -p "$HOME"
U() { in_ns env OS_CLOUD=peer-demo /usr/bin/openstack "$@"; }
A() { in_ns env OS_CLOUD=peer-admin /usr/bin/openstack "$@"; }
VS() { in_ns env OVS_RUNDIR="$D/ovs" ovs-vsctl --timeout=10 "$@"; }

# ---------------------------------------------------------------- the peer, in its own namespace
ip netns list | grep -qw "^$NS" || ip netns add "$NS"
in_ns ip link set lo up
# Packages (Debian) and the fixed provider (PyPI) while the registries are reachable, outside the namespace.
PEER_INSTALL_ONLY=1 PEER_DATAPATH=1 PEER_OVN_PROVIDER="$PROVIDER" NOVA=1 bash "$HERE/start.sh" "$D-packages" > "$D-packages.log" 2>&1 \
  || { tail -20 "$D-packages.log"; fail "the install step failed (log: $D-packages.log)"; }
say "starting the peer in $NS (PEER_DATAPATH=1 PEER_OVN_PROVIDER=$PROVIDER)"
ts=$(date +%s)
in_ns env PEER_DATAPATH=1 PEER_OVN_PROVIDER="$PROVIDER" NOVA=1 OCTAVIA_WORKER=0 bash "$HERE/start.sh" "$D" > "$D/start.log" 2>&1 \
  || { tail -30 "$D/start.log"; fail "the peer did not start (log: $D/start.log)"; }
say "peer up in $(($(date +%s) - ts)) s: $(grep -c . "$D/pids") process groups; $(grep -m1 'open vswitch' "$D/start.log" | sed 's/^\[[^]]*\] //')"
# shellcheck disable=SC1091
. "$D/peer.env"
[ "${OS_PEER_DATAPATH:-}" = 1 ] || fail "peer.env has no OS_PEER_DATAPATH=1"
say "ovn-octavia-provider $OS_PEER_OVN_PROVIDER_VERSION; chassis: $(in_ns ovn-sbctl --db=tcp:127.0.0.1:6642 --bare --columns=name,hostname list Chassis | paste -sd' ')"
read -r GW_IP PREFIX CLIENT_IP <<<"$(/usr/bin/python3 -c "import ipaddress,sys; n=ipaddress.ip_network(sys.argv[1]); h=list(n.hosts()); print(h[0], n.prefixlen, h[-5])" "$OS_PEER_EXTERNAL_CIDR")"
in_ns ip -o addr show dev br-ex | grep -q " $GW_IP/$PREFIX " || fail "br-ex does not carry the gateway $GW_IP/$PREFIX"
# The client's address stays out of neutron's allocation pool.
A subnet set --no-allocation-pool --allocation-pool "start=$(/usr/bin/python3 -c "import ipaddress,sys; print(list(ipaddress.ip_network(sys.argv[1]).hosts())[1])" "$OS_PEER_EXTERNAL_CIDR"),end=$(/usr/bin/python3 -c "import ipaddress,sys; print(list(ipaddress.ip_network(sys.argv[1]).hosts())[-10])" "$OS_PEER_EXTERNAL_CIDR")" public-subnet

# ---------------------------------------------------------------- two servers with HTTP responders
U server delete --wait dp-vm-a dp-vm-b >/dev/null 2>&1 || true
U security group rule create --protocol tcp --dst-port 8080 --remote-ip 0.0.0.0/0 default >/dev/null 2>&1 || true
ts=$(date +%s)
for v in a b; do
  U server create --flavor "$OS_PEER_FLAVOR" --image "$OS_PEER_IMAGE_ID" --network private --wait "dp-vm-$v" -f value -c id >/dev/null
done
declare -A SID NSN IP
for v in a b; do
  SID[$v]=$(U server show "dp-vm-$v" -f value -c id)
  [ -f "$OS_PEER_VM_NETNS_DIR/${SID[$v]}" ] || fail "no $OS_PEER_VM_NETNS_DIR/${SID[$v]}"
  NSN[$v]=$(cat "$OS_PEER_VM_NETNS_DIR/${SID[$v]}")
  [ "${NSN[$v]}" = "kaas-vm-${SID[$v]:0:8}" ] || fail "dp-vm-$v's namespace is ${NSN[$v]}, not kaas-vm-${SID[$v]:0:8}"
  IP[$v]=$(U port list --server "dp-vm-$v" -f value -c "Fixed IP Addresses" | grep -o "[0-9]\+\.[0-9]\+\.[0-9]\+\.[0-9]\+" | head -1)
  ip -n "${NSN[$v]}" -o addr show dev eth0 | grep -q " ${IP[$v]}/" || fail "eth0 in ${NSN[$v]} has not ${IP[$v]}"
  ip -n "${NSN[$v]}" route show default | grep -q "dev eth0" || fail "no default route in ${NSN[$v]}"
done
for _ in $(seq 1 120); do
  [ "$(U port list --network private --device-owner compute:nova -f value -c Status | grep -c ACTIVE)" -ge 2 ] && break; sleep 0.5
done
U port list --network private --device-owner compute:nova -f value -c Status | grep -c ACTIVE | grep -q 2 || fail "the servers' ports did not go ACTIVE (ovn-controller binding)"
say "servers ACTIVE in $(($(date +%s) - ts)) s, ports ACTIVE: dp-vm-a ${IP[a]} in ${NSN[a]}, dp-vm-b ${IP[b]} in ${NSN[b]}"
for v in a b; do
  ip netns exec "${NSN[$v]}" setsid /usr/bin/python3 "$HERE/http_responder.py" "dp-vm-$v" </dev/null >"$D/responder-$v.log" 2>&1 &
  RESP_PIDS+=($!); eval "RESP_$v=$!"
done
sleep 1
# East-west through OVN: dp-vm-a -> dp-vm-b on the tenant network.
for _ in $(seq 1 40); do ip netns exec "${NSN[a]}" curl -s --max-time 1 "http://${IP[b]}:8080/" >/dev/null && break; sleep 0.5; done
EW=$(ip netns exec "${NSN[a]}" curl -s --max-time 2 "http://${IP[b]}:8080/" || echo TIMEOUT)
say "dp-vm-a -> dp-vm-b over the tenant network: $EW"
[ "$EW" = "vm=dp-vm-b client=${IP[a]}" ] || fail "east-west request from dp-vm-a to dp-vm-b: $EW"

# Interface hot-plug (os_peer_nova.py attach/detach_interface, synchronous like libvirt's): a second
# port on dp-vm-a becomes eth1 with its address, and goes away when detached.
U port delete dp-port-x >/dev/null 2>&1 || true
PORT_X=$(U port create --network private dp-port-x -f value -c id)
U server add port dp-vm-a "$PORT_X"
IP_X=$(U port show "$PORT_X" -f value -c fixed_ips | grep -o "[0-9]\+\.[0-9]\+\.[0-9]\+\.[0-9]\+" | head -1)
ip -n "${NSN[a]}" -o addr show dev eth1 | grep -q " $IP_X/" || fail "attached port $IP_X is not eth1 in ${NSN[a]}"
U server remove port dp-vm-a "$PORT_X"
for _ in $(seq 1 60); do ip -n "${NSN[a]}" link show eth1 >/dev/null 2>&1 || break; sleep 0.5; done
ip -n "${NSN[a]}" link show eth1 >/dev/null 2>&1 && fail "detached port still eth1 in ${NSN[a]}"
U port delete "$PORT_X"
say "attach_interface: port $IP_X became eth1 in ${NSN[a]}; detach_interface removed it"

# ---------------------------------------------------------------- the ovn load balancer and its floating IP
wait_lb() { local st; for _ in $(seq 1 300); do st=$(U loadbalancer show lb-dp -f value -c provisioning_status)
  case $st in ACTIVE) return 0;; ERROR) fail "lb-dp went ERROR";; esac; sleep 0.3; done; fail "lb-dp stuck in $st"; }
U loadbalancer delete --cascade lb-dp >/dev/null 2>&1 && sleep 3 || true
U loadbalancer create --name lb-dp --provider ovn --vip-subnet-id private-subnet >/dev/null; wait_lb
LB_ID=$(U loadbalancer show lb-dp -f value -c id)
U loadbalancer listener create --name lis-dp --protocol TCP --protocol-port 80 lb-dp >/dev/null; wait_lb
U loadbalancer pool create --name pool-dp --protocol TCP --lb-algorithm SOURCE_IP_PORT --listener lis-dp >/dev/null; wait_lb
for v in a b; do
  U loadbalancer member create --name "m-$v" --subnet-id private-subnet --address "${IP[$v]}" --protocol-port 8080 pool-dp >/dev/null; wait_lb
done
U loadbalancer healthmonitor create --name hm-dp --type TCP --delay 2 --timeout 1 --max-retries 2 --max-retries-down 2 pool-dp >/dev/null; wait_lb
[ "$(U loadbalancer healthmonitor show hm-dp -f value -c provisioning_status)" = ACTIVE ] || fail "health monitor not ACTIVE"
VIP_PORT=$(U loadbalancer show lb-dp -f value -c vip_port_id)
FIP=$(U floating ip create public --port "$VIP_PORT" -f value -c floating_ip_address)
say "lb-dp (ovn) VIP $(U loadbalancer show lb-dp -f value -c vip_address), floating IP $FIP"

# ---------------------------------------------------------------- the client, on br-ex only
ip netns list | grep -qw "^$CL" || ip netns add "$CL"
ip -n "$CL" link set lo up
if ! ip -n "$CL" link show eth0 >/dev/null 2>&1; then
  in_ns ip link add dpcl-h type veth peer name eth0 netns "$CL"
  ip -n "$CL" link set eth0 address 0a:00:00:00:99:01
  ip -n "$CL" addr add "$CLIENT_IP/$PREFIX" dev eth0
  ip -n "$CL" link set eth0 up
  ip netns exec "$CL" ethtool -K eth0 tx off >/dev/null; in_ns ethtool -K dpcl-h tx off >/dev/null
  in_ns ip link set dpcl-h up
  VS --may-exist add-port br-ex dpcl-h
fi
curl_n() { local i; for i in $(seq "$2"); do ip netns exec "$CL" curl -s --max-time 2 "$1" || echo TIMEOUT; done; }
for _ in $(seq 1 60); do ip netns exec "$CL" curl -s --max-time 1 "http://$FIP/" >/dev/null && break; sleep 0.5; done
say "(1) client $CLIENT_IP -> floating IP $FIP:80, 20 requests:"
curl_n "http://$FIP/" 20 | sort | uniq -c | tee "$D/r1.txt"
grep -q TIMEOUT "$D/r1.txt" && fail "timeouts with both servers answering"
grep -q "vm=dp-vm-a client=$CLIENT_IP" "$D/r1.txt" && grep -q "vm=dp-vm-b client=$CLIENT_IP" "$D/r1.txt" \
  || fail "expected answers from both servers, each seeing the client's address $CLIENT_IP"

members() { U loadbalancer member list pool-dp -f value -c name -c operating_status | sort | paste -sd' '; }
for _ in $(seq 1 90); do [ "$(members)" = "m-a ONLINE m-b ONLINE" ] && break; sleep 1; done
say "(2) members in Octavia: $(members)"
[ "$(members)" = "m-a ONLINE m-b ONLINE" ] || fail "members not both ONLINE (provider agent / Service_Monitor)"
in_ns ovn-sbctl --db=tcp:127.0.0.1:6642 --format=table --columns=ip,port,src_ip,status list Service_Monitor
say "    health checks in the NB DB (vip): $(in_ns ovn-nbctl --db=tcp:127.0.0.1:6641 --bare --columns=vip list Load_Balancer_Health_Check | grep . | paste -sd' ')"

say "(3) dp-vm-b's responder stops"
kill "$RESP_b"
# The provider reports a member whose Service_Monitor is offline as operating_status ERROR
# (ovn_octavia_provider/helper.py hm_update_event, 3.0.0 and 3.1.2 alike).
for _ in $(seq 1 90); do [ "$(members)" = "m-a ONLINE m-b ERROR" ] && break; sleep 1; done
say "    members in Octavia: $(members)"
[ "$(members)" = "m-a ONLINE m-b ERROR" ] || fail "m-b not taken out (expected operating_status ERROR)"
sleep 2
say "(4) 20 requests via the floating IP $FIP with dp-vm-b down (provider $OS_PEER_OVN_PROVIDER_VERSION):"
curl_n "http://$FIP/" 20 | sort | uniq -c | tee "$D/r4.txt"
TO=$(awk '$2=="TIMEOUT"{print $1}' "$D/r4.txt"); TO=${TO:-0}
grep -q "vm=dp-vm-b" "$D/r4.txt" && fail "the stopped responder answered"
if [ "$PROVIDER" = fixed ]; then
  [ "$TO" = 0 ] || fail "$TO of 20 requests timed out via the floating IP although the member is $(members)"
  say "    all 20 answered by dp-vm-a: the floating-IP VIP has its own health check (bug 1997418 fixed)"
else
  say "    $TO of 20 timed out: Debian's provider 3.0.0 puts no health check on the floating-IP VIP (bug 1997418)"
fi
say "datapath: $(in_ns ovs-appctl -t "$D/ovs/ovs-vswitchd.ctl" dpif/show | head -1)"
# Memory of the peer's process groups (PSS, MiB), the data path's own ones apart.
pss() { local t=0 p k; for p in $(ps -eo pid=,pgid= | awk -v g="$1" '$2==g{print $1}'); do
  k=$(awk '/^Pss:/{print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0); t=$((t + ${k:-0})); done; echo $((t / 1024)); }
all=0; dp=0
while read -r name pg; do m=$(pss "$pg"); all=$((all + m))
  case $name in ovs-*|ovn-northd|ovn-controller) dp=$((dp + m));; esac; done < "$D/pids"
say "memory (PSS): peer $all MiB, of which ovsdb-server/ovs-vswitchd/ovn-northd/ovn-controller $dp MiB"
T_RUN=$(($(date +%s) - T0))
say "PASS ($T_RUN s; provider $OS_PEER_OVN_PROVIDER_VERSION)"
