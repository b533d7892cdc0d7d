#!/bin/bash
# Proof that Nova boots amphorae (PEER_AMPHORA=1, amphora-nova.sh): a server created the way Octavia's
# compute driver creates one runs Octavia's real amphora agent, which Octavia's own REST client drives.
#
#   test/peer/prove-amphora-vm.sh DIR NETNS    (root; NETNS an existing named network namespace)
#
# Starts (or reuses) the peer in DIR inside NETNS with PEER_DATAPATH=1 PEER_AMPHORA=1 NOVA=1 (the
# octavia-worker is not used here: the proof plays the controller itself), then:
#   1. an lb-mgmt network with the controller's port plugged into NETNS as an OVS internal port (as
#      devstack does: octavia 11.0.0 devstack/plugin.sh create_mgmt_network_interface), a Glance image
#      tagged "amphora", a CA with the amphora's server and the controller's client certificates;
#   2. the server, created by Octavia's own compute driver (compute/drivers/nova_driver.py
#      VirtualMachineManager.build: name amphora-<id>, image by tag, user data from Octavia's
#      AgentJinjaTemplater + UserDataJinjaCfg holding the agent config and certificates, as
#      ComputeCreate/CertComputeCreate do with user_data_config_drive = True): ACTIVE, and the agent
#      answers /info over mutual TLS (AmphoraAPIClient1_0); heartbeats reach the controller's port;
#   3. a second port attached (nova interface-attach, as Octavia's network driver plugs a VIP): the
#      NIC with its MAC is in the container's network namespace when the attach returns; the agent's
#      plug_vip moves it into amphora-haproxy with the VRRP and VIP addresses;
#   4. the server deleted: container, its mounts, nspawn leftovers and the netns are gone;
#   5. a second amphora, then stop.sh: nothing of it survives the peer's stop.
# Prints what it sees, also to DIR/prove-amphora-vm.log; exits non-zero on the first failure.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
[ $# = 2 ] || { echo "usage: $0 DIR NETNS" >&2; exit 2; }
mkdir -p "$1"; D=$(cd "$1" && pwd); NS=$2
[ -e "/run/netns/$NS" ] || { echo "no network namespace $NS (ip netns add $NS)" >&2; exit 2; }
exec > >(tee "$D/prove-amphora-vm.log") 2>&1
PY=/usr/bin/python3
T0=$(date +%s)
say() { echo "[prove-amphora-vm $(($(date +%s) - T0))s] $*"; }
fail() { echo "FAIL: $*"; exit 1; }
in_ns() { ip netns exec "$NS" "$@"; }
export HOME=$D/cli-home XDG_CACHE_HOME=$D/cli-home/.cache OS_CLIENT_CONFIG_FILE=$D/clouds.yaml
mkdir -p "$HOME"
A() { in_ns env OS_CLOUD=peer-admin /usr/bin/openstack "$@"; }
P=$D/amp-proof; mkdir -p "$P"; chmod 700 "$P"

# ---------------------------------------------------------------- the peer
PEER_INSTALL_ONLY=1 PEER_DATAPATH=1 PEER_AMPHORA=1 NOVA=1 bash "$HERE/start.sh" "$D-packages" > "$P/install.log" 2>&1 \
  || { tail -20 "$P/install.log"; fail "the install step failed (log: $P/install.log)"; }
ts=$(date +%s)
in_ns ip link set lo up
in_ns env PEER_DATAPATH=1 PEER_AMPHORA=1 NOVA=1 bash "$HERE/start.sh" "$D" > "$P/start.log" 2>&1 \
  || { tail -30 "$P/start.log"; fail "the peer did not start (log: $P/start.log)"; }
. "$D/peer.env"
[ "${OS_PEER_AMPHORA:-}" = 1 ] || fail "peer.env has no OS_PEER_AMPHORA=1"
say "peer up in $NS in $(($(date +%s) - ts)) s ($(grep -c . "$D/pids") process groups)"
# Amphora servers of an earlier run that ended with stop.sh (in the admin project, where this proof
# builds them; Octavia's own are in the service project): their containers went with the peer.
for old in $(A server list --name '^amphora-' -f value -c ID); do A server delete --wait "$old"; done

# ---------------------------------------------------------------- lb-mgmt network, controller port, image
net=$(A network show amp-proof-mgmt -f value -c id 2>/dev/null || A network create --disable-port-security amp-proof-mgmt -f value -c id)
A subnet show amp-proof-mgmt-subnet >/dev/null 2>&1 || A subnet create --network "$net" --subnet-range 192.168.97.0/24 --gateway none amp-proof-mgmt-subnet >/dev/null
vnet=$(A network show amp-proof-vip -f value -c id 2>/dev/null || A network create --disable-port-security amp-proof-vip -f value -c id)
A subnet show amp-proof-vip-subnet >/dev/null 2>&1 || A subnet create --network "$vnet" --subnet-range 192.168.98.0/24 amp-proof-vip-subnet >/dev/null
hm=$(A port show amp-proof-hm -f value -c id 2>/dev/null || A port create --network "$net" --device-owner Octavia:health-mgr --host "$OS_PEER_COMPUTE_HOST" amp-proof-hm -f value -c id)
read -r HM_MAC HM_IP <<<"$(A port show "$hm" -f json | $PY -c 'import json,sys; p=json.load(sys.stdin); print(p["mac_address"], p["fixed_ips"][0]["ip_address"])')"
in_ns env OVS_RUNDIR="$D/ovs" ovs-vsctl --timeout=10 -- --may-exist add-port br-int o-hm-proof -- set Interface o-hm-proof type=internal \
  "external_ids:iface-id=$hm" external_ids:iface-status=active "external_ids:attached-mac=$HM_MAC"
for _ in $(seq 40); do in_ns ip link show o-hm-proof >/dev/null 2>&1 && break; sleep 0.25; done
in_ns ip link set o-hm-proof address "$HM_MAC"
in_ns ip addr replace "$HM_IP/24" dev o-hm-proof
in_ns ip link set o-hm-proof up
in_ns ethtool -K o-hm-proof tx off >/dev/null
say "lb-mgmt 192.168.97.0/24: controller port o-hm-proof $HM_IP ($HM_MAC) in $NS"
if [ -z "$(A image list --tag amphora -f value -c ID)" ]; then
  head -c 4096 /dev/zero > "$P/disk.raw"
  A image create --tag amphora --disk-format raw --container-format bare --file "$P/disk.raw" amp-proof-image >/dev/null
fi
( cd "$P"
  [ -f ca.pem ] || openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=amp-proof CA" -keyout ca.key -out ca.pem
  openssl req -newkey rsa:2048 -nodes -subj "/CN=octavia-controller" -keyout client.key -out client.csr
  openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 30 -out client.crt
  cat client.crt client.key > client.pem; chmod 600 ./*.key client.pem ) >/dev/null 2>&1 || fail "openssl"
# The controller's configuration: what octavia-worker would run with (SINGLE topology, the agent's
# port, heartbeats to the controller port, the compute driver's credentials).
cat > "$P/controller.conf" <<EOF
[haproxy_amphora]
bind_port = 9443
client_cert = $P/client.pem
server_ca = $P/ca.pem
connection_max_retries = 120
connection_retry_interval = 1
[health_manager]
controller_ip_port_list = $HM_IP:5555
heartbeat_key = amp-proof-insecure
heartbeat_interval = 2
[controller_worker]
loadbalancer_topology = SINGLE
user_data_config_drive = True
amp_image_tag = amphora
[service_auth]
auth_type = password
auth_url = $OS_PEER_AUTH_URL
username = admin
password = $OS_PEER_ADMIN_PASSWORD
project_name = admin
user_domain_name = Default
project_domain_name = Default
EOF
chmod 600 "$P/controller.conf"
ip netns exec "$NS" socat -u "UDP-RECV:5555,bind=$HM_IP" OPEN:"$P/heartbeats.bin",creat,trunc </dev/null >/dev/null 2>&1 &
SOCAT=$!
trap 'kill $SOCAT 2>/dev/null || true' EXIT

# ---------------------------------------------------------------- Octavia's side, in Python
octavia() { in_ns "$PY" "$HERE/prove-amphora-vm.py" "$P" "$@"; }
vm_state() { # server id -> "netns leader nspawn-pid" (empty fields when gone)
  local ns="kaas-vm-${1:0:8}" s="$D/amphora/vm/$1" pid leader=""
  pid=$(cat "$s/pid" 2>/dev/null || true)
  [ -n "$pid" ] && leader=$(pgrep -P "$pid" | head -1 || true)
  echo "$ns ${leader:--} ${pid:--}"
}
say "creating amphora 1 with Octavia's compute driver"
ts=$(date +%s%N)
read -r AMP SID MGMT_IP <<<"$(octavia build "$net" | tail -1)"
[ -n "$MGMT_IP" ] || fail "no server (see above)"
t_active=$((($(date +%s%N) - ts) / 1000000))
octavia info "$AMP" "$MGMT_IP" | tee "$P/info.json"
t_agent=$((($(date +%s%N) - ts) / 1000000))
grep -q '"api_version": "1.0"' "$P/info.json" || fail "the agent's /info did not answer"
say "server $SID ACTIVE after ${t_active} ms; agent /info over mutual TLS after ${t_agent} ms (lb-mgmt $MGMT_IP)"
read -r VMNS LEADER NSPAWN <<<"$(vm_state "$SID")"
[ "$(cat "/proc/$LEADER/comm")" = systemd ] || fail "the container's PID 1 is not systemd"
[ "$(stat -Lc %i "/proc/$LEADER/ns/net")" = "$(stat -Lc %i "/run/netns/$VMNS")" ] || fail "the container is not in $VMNS"
say "container: nspawn pid $NSPAWN, PID 1 = systemd ($LEADER), network namespace $VMNS"
nsenter -t "$LEADER" -a systemctl --no-pager list-units --no-legend 'amphora-*' | sed 's/^/    /'
# Boot time inside: from the container's first journal entry (systemd starting) to the agent's gunicorn
# listening on :9443, both on the machine's clock.
boot_times=$(nsenter -t "$LEADER" -a journalctl --no-pager -o short-unix 2>/dev/null \
  | awk 'NR==1 && $1 ~ /^[0-9.]+$/ {t0=$1} /Listening at/ && t0 {printf "%.1f", $1 - t0; exit}')
say "container boot: systemd's first log line -> agent listening on :9443: ${boot_times:-?} s"
nsenter -t "$LEADER" -a ls -l /etc/octavia/amphora-agent.conf /etc/octavia/certs | sed 's/^/    /'
# Memory: the PSS of every process in the container's PID namespace, and its tmpfs upper layer.
pss=0
for p in $(ls /proc | grep -E '^[0-9]+$'); do
  [ "$(readlink "/proc/$p/ns/pid" 2>/dev/null)" = "$(readlink "/proc/$LEADER/ns/pid")" ] || continue
  pss=$((pss + $(awk '/^Pss:/{print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)))
done
upper=$(nsenter -t "$NSPAWN" -m du -sk "$D/amphora/vm/$SID/ovl" | cut -f1)
say "memory: PSS of the container's processes $((pss / 1024)) MiB; tmpfs upper layer $((upper / 1024)) MiB"
sleep 3
n=$(stat -c %s "$P/heartbeats.bin" 2>/dev/null || echo 0)
say "heartbeat bytes at the controller port $HM_IP:5555: $n"
[ "$n" -gt 0 ] || fail "no heartbeats from the amphora"

# ---------------------------------------------------------------- interface attach (the VIP's plug)
vip=$(A port create --network "$vnet" amp-proof-vip-port -f value -c id)
read -r VIP_MAC VRRP_IP <<<"$(A port show "$vip" -f json | $PY -c 'import json,sys; p=json.load(sys.stdin); print(p["mac_address"], p["fixed_ips"][0]["ip_address"])')"
A server add port "$SID" "$vip"
nic=$(nsenter -t "$LEADER" -n ip -o link 2>/dev/null | awk -v m="$VIP_MAC" 'index($0, "link/ether " m " "){sub(":$","",$2); sub("@.*","",$2); print $2}')
[ -n "$nic" ] || fail "no NIC with MAC $VIP_MAC in the container's network namespace after the attach returned"
say "attach returned: NIC $nic ($VIP_MAC) in the container's network namespace, addresses: $(nsenter -t "$LEADER" -n ip -o -4 addr show dev "$nic" | awk '{print $4}' | paste -sd' ')"
octavia plug_vip "$AMP" "$MGMT_IP" 192.168.98.200 192.168.98.0/24 192.168.98.1 "$VIP_MAC" "$VRRP_IP"
addrs=$(nsenter -t "$LEADER" -a ip netns exec amphora-haproxy ip -o -4 addr show | awk '{print $2, $4}' | paste -sd' ')
say "after the agent's plug_vip, in amphora-haproxy: $addrs"
[[ "$addrs" == *"$VRRP_IP/24"* && "$addrs" == *"192.168.98.200/32"* ]] || fail "the VIP NIC is not configured in amphora-haproxy"

# ---------------------------------------------------------------- delete
ts=$(date +%s%N)
A server delete --wait "$SID"
say "server deleted in $((($(date +%s%N) - ts) / 1000000)) ms"
A port delete "$vip" 2>/dev/null || true
! kill -0 "$NSPAWN" 2>/dev/null || fail "systemd-nspawn $NSPAWN still runs"
! kill -0 "$LEADER" 2>/dev/null || fail "the container's systemd $LEADER still runs"
[ ! -e "$D/amphora/vm/$SID" ] || fail "state $D/amphora/vm/$SID left"
[ ! -e "/run/netns/$VMNS" ] || fail "netns $VMNS left"
[ ! -e "/run/systemd/nspawn/propagate/amp-${SID:0:8}" ] || fail "nspawn's propagate directory left"
! cat /proc/[0-9]*/mountinfo 2>/dev/null | grep -q "/amphora/vm/$SID/" || fail "a mount of the container is left"
say "gone: container, its mounts, nspawn leftovers, $VMNS"

# ---------------------------------------------------------------- a peer stop takes amphorae with it
read -r AMP2 SID2 MGMT2 <<<"$(octavia build "$net" | tail -1)"
octavia info "$AMP2" "$MGMT2" >/dev/null || fail "amphora 2's agent did not answer"
read -r VMNS2 LEADER2 NSPAWN2 <<<"$(vm_state "$SID2")"
say "amphora 2 ($SID2) answers; stopping the peer"
bash "$HERE/stop.sh" "$D" > "$P/stop.log" 2>&1 || { cat "$P/stop.log"; fail "stop.sh"; }
grep -E "amphora|network namespace" "$P/stop.log" | sed 's/^/    /'
! kill -0 "$NSPAWN2" 2>/dev/null || fail "amphora 2's nspawn survived stop.sh"
[ ! -e "/run/netns/$VMNS2" ] || fail "netns $VMNS2 survived stop.sh"
[ -z "$(ls "$D/amphora/vm" 2>/dev/null)" ] || fail "container state left in $D/amphora/vm"
! cat /proc/[0-9]*/mountinfo 2>/dev/null | grep -q "$D/amphora/vm/" || fail "a container mount survived stop.sh"
[ ! -d /run/systemd/nspawn ] || echo "    note: /run/systemd/nspawn still exists (another container on this machine?): $(ls -R /run/systemd/nspawn | paste -sd' ')"
say "PASS (peer stopped; restart it with start.sh $D inside $NS)"
