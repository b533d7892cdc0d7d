#!/bin/bash
# Proof of the peer's amphora controller side (PEER_AMPHORA=1, test/peer/amphora.sh), on a running peer:
#   ip netns exec NS test/peer/prove-amphora.sh PEER_DIR     (NS: the peer's network namespace; root)
# A. the controller (always):
#   1. o-hm0 is up on br-int with the controller port's address, and neutron has that port ACTIVE, bound to
#      the compute host (so ovn-controller claimed it); octavia-health-manager listens on o-hm0:5555;
#      octavia-worker runs with octavia-amphora.conf (real drivers);
#   2. an amphora load balancer: the worker's flow makes a nova server "amphora-<id>" from the image tagged
#      "amphora" and the amphora flavor on lb-mgmt-net, with user_data = cloud-config write_files carrying the
#      agent's config (controller_ip_port_list = o-hm0:5555), its server certificate and the client CA;
#   3. through OVN: the server's management address answers TCP :9443 from the peer (o-hm0) (a refusal while no
#      agent runs is an answer too: the RST comes from the server's namespace), and a heartbeat sent from the
#      server's namespace (wrapped by octavia's own status_message with the peer's heartbeat key, for an
#      amphora id that does not exist) reaches octavia-health-manager, which logs it with the server's address.
# B. the amphora itself: when an agent answers on :9443 (the nova side boots it, os_peer_nova.py), the load
#    balancer must go ACTIVE; then an HTTP listener, pool, member (a server with a responder) and HTTP
#    monitor; member and load balancer operating_status ONLINE (from the agent's heartbeats via the health
#    manager); requests from a client namespace on br-ex to a floating IP on the VIP answered by the member,
#    which sees the amphora's address; the responder stops -> member ERROR.
#    Without an agent (no nova side yet) B is not run: the script says so, waits (WAIT_FAILURE=1, default)
#    for the flow to give up at AmphoraComputeConnectivityWait (LB ERROR, server deleted by the revert) and
#    exits 3, so that "A passed, B not run" is never mistaken for a full pass.
# Cleans up what it made (load balancers, servers, floating IP, client namespace) unless KEEP=1.
set -eu
D=${1:?usage: prove-amphora.sh PEER_DIR (inside the peer network namespace)}
D=$(cd "$D" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
T0=$(date +%s)
say() { echo "[prove-amphora $(($(date +%s) - T0))s] $*"; }
fail() { echo "FAIL: $*"; exit 1; }
# shellcheck disable=SC1091
. "$D/peer.env"
[ "${OS_PEER_AMPHORA:-}" = 1 ] || fail "$D/peer.env has no OS_PEER_AMPHORA=1: start the peer with PEER_DATAPATH=1 NOVA=1 PEER_AMPHORA=1"
ip link show o-hm0 >/dev/null 2>&1 || fail "no o-hm0 here: run this inside the peer's network namespace (ip netns exec NS $0 $D)"
export HOME=$D/cli-home XDG_CACHE_HOME=$D/cli-home/.cache OS_CLIENT_CONFIG_FILE=$D/clouds.yaml
mkdir -p "$HOME"
U() { OS_CLOUD=peer-demo /usr/bin/openstack "$@"; }
A() { OS_CLOUD=peer-admin /usr/bin/openstack "$@"; }
LOG=$D/log
HM_IP=$OS_PEER_AMP_HM_IP
CL=kaas-ampcl-$(printf '%s' "$D" | sha1sum | cut -c1-6)
RESP=""
cleanup() {
  set +e
  [ -n "$RESP" ] && kill "$RESP" 2>/dev/null
  [ "${KEEP:-0}" = 1 ] && { echo "KEEP=1: load balancer prove-amp, server prove-amp-be and $CL left"; return; }
  U loadbalancer delete --cascade prove-amp >/dev/null 2>&1
  [ -n "${FIP:-}" ] && U floating ip delete "$FIP" >/dev/null 2>&1
  U server delete --wait prove-amp-be >/dev/null 2>&1
  ovs-vsctl --db="unix:$D/ovs/db.sock" --if-exists del-port br-ex ampcl-h 2>/dev/null
  ip netns del "$CL" 2>/dev/null
}
trap cleanup EXIT

# ---------------------------------------------------------------- A1: the controller
ip -o addr show dev o-hm0 | grep -q " $HM_IP/" || fail "o-hm0 does not carry $HM_IP"
PORT_ID=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['hm_port_id'])" "$D/octavia/amphora.json")
read -r PST PHOST POWNER <<<"$(A port show "$PORT_ID" -f json | /usr/bin/python3 -c "import json,sys; p=json.load(sys.stdin); print(p['status'], p['binding_host_id'], p['device_owner'])")"
say "A1 o-hm0 $HM_IP (mac $(cat /sys/class/net/o-hm0/address), mtu $(cat /sys/class/net/o-hm0/mtu)); neutron port $PORT_ID: $PST, host $PHOST, owner $POWNER"
[ "$PST" = ACTIVE ] && [ "$PHOST" = "$OS_PEER_COMPUTE_HOST" ] && [ "$POWNER" = Octavia:health-mgr ] || fail "controller port not ACTIVE/bound to $OS_PEER_COMPUTE_HOST"
ss -Hunlp "src $HM_IP sport = :5555" | grep -q octavia-health || fail "octavia-health-manager does not listen on $HM_IP:5555"
say "   octavia-health-manager listens: $(ss -Hunlp "src $HM_IP sport = :5555" | awk '{print $4, $6}')"
pgrep -f "octavia-worker .*$D/octavia/octavia-amphora.conf" >/dev/null || fail "octavia-worker does not run with $D/octavia/octavia-amphora.conf"
grep -q "^amphora_driver = amphora_haproxy_rest_driver" "$D/octavia/octavia-amphora.conf" || fail "octavia-amphora.conf has no real amphora driver"

# ---------------------------------------------------------------- A2: the create flow reaches nova
U loadbalancer delete --cascade prove-amp >/dev/null 2>&1 && sleep 5 || true
WLINES=$(wc -l < "$LOG/octavia-worker.log")
LB_ID=$(U loadbalancer create --name prove-amp --provider amphora --vip-subnet-id private-subnet -f value -c id)
say "A2 load balancer prove-amp $LB_ID (amphora provider) created"
AMP_ID=""; SRV=""
for _ in $(seq 1 120); do
  AMP_ID=$(A loadbalancer amphora list --loadbalancer "$LB_ID" -f value -c id 2>/dev/null | head -1)
  [ -n "$AMP_ID" ] && SRV=$(A loadbalancer amphora show "$AMP_ID" -f value -c compute_id 2>/dev/null)
  [ -n "${SRV:-}" ] && [ "$SRV" != None ] && break
  [ "$(U loadbalancer show "$LB_ID" -f value -c provisioning_status)" = ERROR ] && fail "prove-amp went ERROR before its server was seen (worker log: $LOG/octavia-worker.log)"
  sleep 1
done
[ -n "${SRV:-}" ] && [ "$SRV" != None ] || fail "no nova server for the amphora of $LB_ID (worker log: $LOG/octavia-worker.log)"
tail -n +"$WLINES" "$LOG/octavia-worker.log" | grep -m1 "Server created with id: $SRV for amphora id: $AMP_ID" | cut -c1-200 \
  || fail "the worker log does not show server $SRV for amphora $AMP_ID"
# (few CLI calls from here on: with no agent the flow gives up after connection_max_retries x 2 s)
for _ in $(seq 1 120); do
  ST=$(A server show "$SRV" -f value -c status 2>/dev/null) || fail "server $SRV is gone (the flow reverted: worker log $LOG/octavia-worker.log)"
  [ "$ST" = ACTIVE ] && break; sleep 1
done
A --os-compute-api-version 2.3 server show "$SRV" -f json > "$D/prove-amp-server.json"
/usr/bin/python3 - "$D/prove-amp-server.json" "$OS_PEER_AMP_IMAGE_ID" "$OS_PEER_AMP_FLAVOR_ID" "$AMP_ID" "$HM_IP" <<'EOF' || fail "the amphora server is not what octavia asks for"
import base64, json, sys, yaml
s, image, flavor, amp, hm = json.load(open(sys.argv[1])), *sys.argv[2:]
print(f"   server {s['name']} {s['status']}: image {s['image']}, flavor {s['flavor']}, addresses {s['addresses']}")
assert s["name"] == "amphora-" + amp and s["status"] == "ACTIVE", "name/status"
assert image in str(s["image"]) and (flavor in str(s["flavor"]) or "amphora" in str(s["flavor"])), "image/flavor"
assert "lb-mgmt-net" in str(s["addresses"]), "not on lb-mgmt-net"
ud = base64.b64decode(s["OS-EXT-SRV-ATTR:user_data"]).decode()
cc = yaml.safe_load(ud[ud.index("#cloud-config"):] if "#cloud-config" in ud else ud)
files = {f["path"]: f["content"] for f in cc["write_files"]}
print("   user_data: #cloud-config write_files:", ", ".join(sorted(files)))   # paths only: server.pem holds a key
need = {"/etc/octavia/amphora-agent.conf", "/etc/octavia/certs/server.pem", "/etc/octavia/certs/client_ca.pem"}
assert need <= set(files), f"missing {need - set(files)}"
conf = files["/etc/octavia/amphora-agent.conf"]
for line in (f"amphora_id = {amp}", f"controller_ip_port_list = {hm}:5555", "agent_server_ca = /etc/octavia/certs/client_ca.pem"):
    assert line in conf, line
    print("   amphora-agent.conf:", line)
assert "BEGIN CERTIFICATE" in files["/etc/octavia/certs/server.pem"] and "PRIVATE KEY" in files["/etc/octavia/certs/server.pem"]
EOF
AMP_IP=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['addresses']['lb-mgmt-net'][0])" "$D/prove-amp-server.json")
NSN=$(cat "$OS_PEER_VM_NETNS_DIR/$SRV")
say "   amphora $AMP_ID: lb_network_ip $AMP_IP, server namespace $NSN"

# ---------------------------------------------------------------- A3: both directions through OVN
[ "$(ip route get "$AMP_IP" | grep -o "dev [^ ]*")" = "dev o-hm0" ] || fail "the route to $AMP_IP is not o-hm0: $(ip route get "$AMP_IP")"
probe() { /usr/bin/python3 -c "
import errno, socket, sys
s = socket.socket(); s.settimeout(5)
try:
    s.connect((sys.argv[1], 9443)); print('open')
except OSError as e:
    print(errno.errorcode.get(e.errno, 'timeout') if e.errno else 'timeout')" "$AMP_IP"; }
# The agent may still be starting: up to 60 tries, but 10 refusals in a row mean none is coming (the Nova
# side's container answers within seconds of ACTIVE), and the flow would soon delete the server.
REFUSED=0
for _ in $(seq 1 60); do
  R=$(probe); [ "$R" = open ] && break
  if [ "$R" = ECONNREFUSED ]; then REFUSED=$((REFUSED + 1)); [ "$REFUSED" -ge 10 ] && break; else REFUSED=0; fi
  sleep 1
done
case $R in
  open) AGENT=1; say "A3 peer -> $AMP_IP:9443 through o-hm0: connected (an amphora agent listens)";;
  ECONNREFUSED) AGENT=0; say "A3 peer -> $AMP_IP:9443 through o-hm0: connection refused $REFUSED times (the RST comes from $NSN through OVN: no agent listens)";;
  *) fail "peer -> $AMP_IP:9443: $R (EHOSTUNREACH: no ARP answer through OVN; timeout: dropped)";;
esac
ip -n "$NSN" -o addr show | grep -q " $AMP_IP/" || fail "$AMP_IP is not in $NSN"
BOGUS=$(/usr/bin/python3 -c "import uuid; print(uuid.uuid4())")
HLINES=$(wc -l < "$LOG/octavia-health-manager.log")
ip netns exec "$NSN" /usr/bin/python3 - "$HM_IP" "$(cat "$D/octavia/certs/heartbeat_key")" "$BOGUS" <<'EOF'
import socket, sys, time
from octavia.amphorae.backends.health_daemon import status_message
hm, key, amp = sys.argv[1:]
msg = status_message.wrap_envelope({"id": amp, "seq": 1, "listeners": {}, "pools": {}, "ver": 3}, key)
socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(msg, (hm, 5555))
EOF
for _ in $(seq 1 30); do
  tail -n +"$HLINES" "$LOG/octavia-health-manager.log" | grep -q "amphora $BOGUS with IP $AMP_IP is missing" && break; sleep 1
done
tail -n +"$HLINES" "$LOG/octavia-health-manager.log" | grep -m1 "amphora $BOGUS with IP $AMP_IP is missing" | cut -c1-160 \
  || fail "octavia-health-manager did not log the heartbeat from $AMP_IP (log: $LOG/octavia-health-manager.log)"
# Through OVN: the server knows o-hm0's address by o-hm0's MAC (not by its own veth's peer in this namespace).
HM_MAC=$(cat /sys/class/net/o-hm0/address)
ip -n "$NSN" neigh show "$HM_IP" | grep -q "lladdr $HM_MAC" || fail "$NSN resolves $HM_IP to $(ip -n "$NSN" neigh show "$HM_IP"), not o-hm0's $HM_MAC"
say "   heartbeat $NSN -> $HM_IP:5555 (udp, HMAC with the peer's key) processed by octavia-health-manager, source $AMP_IP; $NSN has $HM_IP at o-hm0's MAC $HM_MAC"

# ---------------------------------------------------------------- no agent: where the flow stops
if [ "$AGENT" = 0 ]; then
  N=$(tail -n +"$WLINES" "$LOG/octavia-worker.log" | grep -c "Could not connect to instance. Retrying" || true)
  say "B not run: no amphora agent on $AMP_IP:9443 (the nova side does not boot one yet). The flow waits in"
  say "   AmphoraComputeConnectivityWait ('Could not connect to instance. Retrying.' x$N so far, connection refused)"
  [ "$N" -gt 0 ] || fail "the worker never tried the agent on $AMP_IP:9443"
  [ "${WAIT_FAILURE:-1}" = 1 ] || exit 3
  R=$(sed -n 's/^connection_max_retries = //p' "$D/octavia/octavia-amphora.conf")
  for _ in $(seq 1 $((R * 4 + 120))); do
    [ "$(U loadbalancer show "$LB_ID" -f value -c provisioning_status)" = ERROR ] && break; sleep 1
  done
  ST=$(U loadbalancer show "$LB_ID" -f value -c provisioning_status)
  say "   after $R tries x 2 s: load balancer $ST; the worker's flow failed with: $(tail -n +"$WLINES" "$LOG/octavia-worker.log" | grep -m1 "rpc.server.*WrappedFailure" | grep -o "Failure: octavia[a-zA-Z_.]*" | sort -u | paste -sd' ')"
  [ "$ST" = ERROR ] || fail "the load balancer is $ST, not ERROR, after the connectivity wait"
  for _ in $(seq 1 60); do A server show "$SRV" >/dev/null 2>&1 || break; sleep 1; done
  A server show "$SRV" >/dev/null 2>&1 && fail "server $SRV not deleted by the flow's revert"
  say "   server $SRV deleted by the revert (ComputeCreate.revert). A passed; B not run (exit 3)"
  exit 3
fi
. "$HERE/prove-amphora-traffic.sh"
