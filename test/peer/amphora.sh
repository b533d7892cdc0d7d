# Sourced by test/peer/start.sh: the switch PEER_AMPHORA and, with it, Octavia's controller side of a real
# amphora (issue 30): octavia-worker with its real drivers, the lb-mgmt network with the controller's port
# o-hm0 on br-int, octavia-health-manager on o-hm0, the certificates, an amphora image and flavor.
#
# PEER_AMPHORA=1 (default 0; needs PEER_DATAPATH=1 and OCTAVIA_WORKER=1). Without it nothing here runs and
# the worker keeps its no-op drivers.
# PEER_AMPHORA=region: the same real amphora controller, but only for region RegionAmphora: a third Octavia
# API (octavia-api-amphora :9878, provider "amphora" only) on the same database casts to its own worker
# (octavia-worker-amphora, real drivers) over a RabbitMQ virtual host of its own ("amphora"), so load
# balancers made through RegionAmphora are real amphorae and those made through RegionOne and RegionNoOvn
# stay on the no-op worker (a cloud with two regions; the testbed's npm test runs its amphora PROXY row so,
# without booting an amphora for every kube-API load balancer of its other scenarios). What is made, the way octavia 11.0.0's devstack/plugin.sh does it
# (build_mgmt_network, create_mgmt_network_interface, octavia_configure):
#   neutron (project "service", as the octavia user): lb-mgmt-net + lb-mgmt-subnet ($AMP_MGMT_CIDR),
#     security groups lb-mgmt-sec-grp (amphorae: TCP 9443 and ICMP from the subnet) and
#     lb-health-mgr-sec-grp (controller: UDP 5555 and ICMP), port octavia-health-manager-listen-port
#     (device_owner Octavia:health-mgr, bound to the compute host);
#   o-hm0: an OVS internal port on br-int (iface-id = that port) in the peer's network namespace, with the
#     port's MAC, address and the network's MTU: the worker reaches amphorae on :9443 and they reach the
#     health manager on UDP :5555 through OVN, like on a devstack host;
#   glance: image "amphora-x64-haproxy" tagged "amphora" (a tiny stand-in file: the Nova side boots the
#     amphora agent in a container instead, os_peer_nova.py); nova: private flavor "amphora" (service only);
#   certificates in DIR/octavia/certs: ca.pem/ca.key (start.sh's) is the server CA: octavia's
#     local_cert_generator signs each amphora's server.pem with it and the worker checks the agent against
#     it ([haproxy_amphora] server_ca); client_ca.pem signs client.pem, the controller's client certificate
#     ([haproxy_amphora] client_cert); client_ca.pem goes onto every amphora's config drive as
#     /etc/octavia/certs/client_ca.pem ([controller_worker] client_ca -> the agent's agent_server_ca);
#   DIR/octavia/octavia-amphora.conf (0600), read after octavia-worker.conf by octavia-worker and
#     octavia-health-manager; DIR/octavia/amphora.json: the ids above.
# Uses start.sh's DIR, LOG, HOST, ports, REGION, COMPUTE_HOST, SERVICE_PASSWORD, PY, SWITCHES, recorded,
# launch/running/wait_queue/quiet/say/die, octavia_worker, and datapath.sh's dp_vsctl.

PEER_AMPHORA=${PEER_AMPHORA:-$(recorded PEER_AMPHORA)}; PEER_AMPHORA=${PEER_AMPHORA:-0}
case $PEER_AMPHORA in 0|1|region) ;; *) die "PEER_AMPHORA=$PEER_AMPHORA: use 0, 1 or region";; esac
if [ "$PEER_AMPHORA" != 0 ]; then
  [ "$PEER_DATAPATH" = 1 ] || die "PEER_AMPHORA=$PEER_AMPHORA needs PEER_DATAPATH=1 (amphorae are reached through OVN); set PEER_DATAPATH=1 NOVA=1, or PEER_AMPHORA=0"
  [ "$OCTAVIA_WORKER" = 1 ] || die "PEER_AMPHORA=$PEER_AMPHORA needs OCTAVIA_WORKER=1 (the worker is what drives amphorae); set OCTAVIA_WORKER=1, or PEER_AMPHORA=0"
  # Recorded only when on. The one place the switch is read: the Nova side, amphora-nova.sh, uses it as set here.
  [[ "$SWITCHES" == *PEER_AMPHORA=* ]] || SWITCHES="$SWITCHES
PEER_AMPHORA=$PEER_AMPHORA"
fi
AMP_REGION=RegionAmphora        # PEER_AMPHORA=region: the region whose load balancers are real amphorae
AMP_API_PORT=9878               # its Octavia API (octavia-api-amphora)
AMP_VHOST=amphora               # its RabbitMQ virtual host: the API's casts reach only the real worker
# The real worker and the virtual host it listens on: RegionOne's worker on "/" with PEER_AMPHORA=1, a second
# worker beside the no-op one, on AMP_VHOST, with region.
if [ "$PEER_AMPHORA" = region ]; then AMP_WORKER=octavia-worker-amphora AMP_WORKER_VHOST=$AMP_VHOST
else AMP_WORKER=octavia-worker AMP_WORKER_VHOST=/; fi
AMP_RABBIT_URL="rabbit://guest:guest@$HOST:$RABBIT_PORT/${AMP_WORKER_VHOST#/}"
AMP_MGMT_CIDR=192.168.0.0/24   # lb-mgmt-subnet (devstack's OCTAVIA_MGMT_SUBNET)
AMP_HM_PORT=5555               # octavia-health-manager's UDP port (devstack's OCTAVIA_HM_LISTEN_PORT)
AMP_CERTS="$DIR/octavia/certs"
AMP_CONF="$DIR/octavia/octavia-amphora.conf"

amp_certs() { # the controller's client certificate and its CA (once per DIR); the server CA is start.sh's
  [ -f "$AMP_CERTS/client.pem" ] && [ -f "$AMP_CERTS/client_ca.pem" ] && [ -f "$AMP_CERTS/heartbeat_key" ] && return 0
  ( umask 077; cd "$AMP_CERTS" &&
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=os-peer octavia client CA" \
      -keyout client_ca.key -out client_ca.pem &&
    openssl req -newkey rsa:2048 -nodes -subj "/CN=os-peer octavia controller" -keyout client.key -out client.csr &&
    printf 'extendedKeyUsage = clientAuth\n' > client.ext &&
    openssl x509 -req -in client.csr -CA client_ca.pem -CAkey client_ca.key -CAcreateserial -days 3650 \
      -extfile client.ext -out client.crt &&
    cat client.crt client.key > client.pem && rm -f client.csr client.ext &&
    # The key the agent signs its heartbeats with (HMAC) and the health manager checks them by.
    openssl rand -hex 16 > heartbeat_key ) >>"$LOG/setup.log" 2>&1 \
    || die "openssl could not make the octavia client certificate (log: $LOG/setup.log)"
  chmod 644 "$AMP_CERTS/client_ca.pem"
}

amp_json() { "$PY" -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$DIR/octavia/amphora.json" "$1"; }

amp_resources() { # neutron, glance and nova objects (idempotent) -> DIR/octavia/amphora.json
  # (the password travels in the environment: quiet prints the command line of a failed step)
  SERVICE_PASSWORD="$SERVICE_PASSWORD" quiet env KEYSTONE="http://$HOST:$KEYSTONE_PORT/v3" \
    NEUTRON="http://$HOST:$NEUTRON_PORT/v2.0" GLANCE="http://$HOST:$GLANCE_PORT/v2" NOVA="http://$HOST:$NOVA_PORT/v2.1" \
    COMPUTE_HOST="$COMPUTE_HOST" MGMT_CIDR="$AMP_MGMT_CIDR" HM_PORT="$AMP_HM_PORT" \
    "$PY" "$HERE/amphora_resources.py" ensure "$DIR/octavia/amphora.json"
}

amp_plug_hm0() { # o-hm0 on br-int as devstack's create_mgmt_network_interface, with a static address
  local port mac ip i
  port=$(amp_json hm_port_id); mac=$(amp_json hm_port_mac); ip=$(amp_json hm_port_ip)
  quiet dp_vsctl -- --may-exist add-port br-int o-hm0 -- set Interface o-hm0 type=internal \
    "mac=\"$mac\"" mtu_request="$(amp_json mtu)" external-ids:iface-status=active external-ids:attached-mac="$mac" external-ids:iface-id="$port"
  for i in $(seq 1 40); do ip link show o-hm0 >/dev/null 2>&1 && break; sleep 0.25; done
  ip link show o-hm0 >/dev/null 2>&1 || die "ovs-vswitchd made no o-hm0 (log: $LOG/ovs-vswitchd.log)"
  ip link set o-hm0 address "$mac" mtu "$(amp_json mtu)"
  # Only this port's address: OVS keeps o-hm0 (a persistent tap) across stop.sh, with whatever address an
  # earlier peer gave it, and a stale first address would be the source of ARP that port security drops.
  for old in $(ip -4 -o addr show dev o-hm0 | awk '{sub("/.*", "", $4); print $4}'); do
    arptables -D OUTPUT -o 'tap+' -s "$old" --opcode 2 -j DROP 2>/dev/null || true   # the rule below, for it
  done
  ip -4 addr flush dev o-hm0
  ip addr add "$ip/$(amp_json prefixlen)" dev o-hm0
  ip link set o-hm0 up
  # Without o-hm0's address the worker's connections to amphorae would follow this namespace's default
  # route out of it (seen: to the sandbox's egress proxy); the management subnet never leaves: unreachable.
  ip route replace unreachable "$AMP_MGMT_CIDR" metric 4000
  # The servers' host-side veths (tap<port>, os_peer_nova.py) live in this namespace too, and with the
  # userspace datapath the kernel also sees their frames: it would answer an amphora's ARP for o-hm0's
  # address through the amphora's own veth (arp_ignore=0), and heartbeats would then skip OVN. The
  # namespace's kernel must not send such replies out of a server's veth (its other ARP stays as it is:
  # the testbed relies on replies for addresses on lo, datapath-nodes.sh).
  arptables -D OUTPUT -o 'tap+' -s "$ip" --opcode 2 -j DROP 2>/dev/null || true
  arptables -A OUTPUT -o 'tap+' -s "$ip" --opcode 2 -j DROP || die "arptables could not keep ARP for o-hm0 off the servers' veths"
  # The userspace datapath gets the kernel's unchecksummed packets otherwise (as os_peer_nova.py does for
  # the servers' veths: ovn-org/ovn tests/system-userspace-macros.at@v23.03.1, lines 55-63).
  ethtool -K o-hm0 tx off >/dev/null 2>&1 || true
}

amp_config() { # octavia-amphora.conf: the worker's real drivers (option names: python3-octavia 11.0.0
  # octavia/common/config.py and certificates/common/local.py)
  local ip; ip=$(amp_json hm_port_ip)
  ( umask 077; cat > "$AMP_CONF" <<EOF
# PEER_AMPHORA=$PEER_AMPHORA (test/peer/amphora.sh): read after octavia-worker.conf, whose no-op drivers it replaces.
[DEFAULT]
# The bus the real worker listens on: RabbitMQ virtual host $AMP_WORKER_VHOST
transport_url = $AMP_RABBIT_URL
[controller_worker]
amphora_driver = amphora_haproxy_rest_driver
compute_driver = compute_nova_driver
network_driver = allowed_address_pairs_driver
image_driver = image_glance_driver
volume_driver = volume_noop_driver
loadbalancer_topology = SINGLE
amp_image_tag = amphora
amp_image_owner_id = $(amp_json project_id)
amp_flavor_id = $(amp_json flavor_id)
amp_boot_network_list = $(amp_json mgmt_net_id)
amp_secgroup_list = $(amp_json amp_secgroup_id)
# The agent's files travel as cloud-config write_files in the server's user_data, which the peer's
# nova driver sees (compute_tasks.py ComputeCreate); on the agent's side: [amphora_agent] below.
user_data_config_drive = True
client_ca = $AMP_CERTS/client_ca.pem
# nova reports ACTIVE at once (fake virt driver); waits in seconds: retries x interval.
amp_active_retries = 60
amp_active_wait_sec = 2
[haproxy_amphora]
client_cert = $AMP_CERTS/client.pem
server_ca = $AMP_CERTS/ca.pem
# What the agent binds (rendered into its amphora-agent.conf).
bind_host = 0.0.0.0
bind_port = 9443
# haproxy wants about 2.5 x maxconn file descriptors, maxconn being the sum over the load balancer's
# listeners (one haproxy per LB); this sandbox's hard limit is 20000 and the amphora container cannot raise
# it (shared/reference/testbed/datapath-feasibility.md section 3.1; default 50000). 5000 left the ingress LB
# (two listeners, 80 and 443) with "Cannot raise FD limit to 25038, limit is 20000": haproxy never started.
# 2000 keeps up to three listeners under the limit.
default_connection_limit = 2000
# AmphoraComputeConnectivityWait: up to ${PEER_AMP_CONNECT_RETRIES:-60} x 2 s for the agent on 2 busy cores.
connection_max_retries = ${PEER_AMP_CONNECT_RETRIES:-60}
connection_retry_interval = 2
active_connection_max_retries = 30
active_connection_retry_interval = 2
build_rate_limit = -1
build_active_retries = 60
build_retry_interval = 2
rest_request_conn_timeout = 10
rest_request_read_timeout = 120
[amphora_agent]
agent_server_ca = /etc/octavia/certs/client_ca.pem
agent_server_cert = /etc/octavia/certs/server.pem
agent_request_read_timeout = 180
[health_manager]
bind_ip = $ip
bind_port = $AMP_HM_PORT
controller_ip_port_list = $ip:$AMP_HM_PORT
heartbeat_key = $(cat "$AMP_CERTS/heartbeat_key")
heartbeat_interval = 5
heartbeat_timeout = 60
health_check_interval = 5
health_update_threads = 1
stats_update_threads = 1
failover_threads = 2
[certificates]
cert_generator = local_cert_generator
ca_certificate = $AMP_CERTS/ca.pem
ca_private_key = $AMP_CERTS/ca.key
[nova]
region_name = $REGION
endpoint_type = publicURL
[glance]
region_name = $REGION
endpoint_type = publicURL
[neutron]
region_name = $REGION
endpoint_type = publicURL
EOF
  )
}

amp_start() { # after neutron, glance and nova are up: the objects, o-hm0, the worker and health manager
  local ip i
  amp_certs
  amp_resources || die "could not create the lb-mgmt network, amphora image or flavor (log: $LOG/setup.log)"
  amp_plug_hm0
  amp_config
  ip=$(amp_json hm_port_ip)
  octavia_worker "$AMP_WORKER" 1 --config-file "$AMP_CONF"
  # The health manager runs failovers itself (amphorav2 without a jobboard), so it reads the worker's files.
  launch octavia-health-manager "$LOG/octavia-health-manager.out" env PYTHONPATH="$DIR/octavia/plugin:$DIR/lib" \
    OS_PEER_OCTAVIA_FULL_GRAPH=1 octavia-health-manager --config-file "$DIR/octavia/octavia.conf" --config-file "$DIR/octavia/octavia-worker.conf" \
    --config-file "$AMP_CONF" --log-file "$LOG/octavia-health-manager.log"
  SERVICE_PASSWORD="$SERVICE_PASSWORD" quiet env KEYSTONE="http://$HOST:$KEYSTONE_PORT/v3" \
    NEUTRON="http://$HOST:$NEUTRON_PORT/v2.0" "$PY" "$HERE/amphora_resources.py" wait-port "$DIR/octavia/amphora.json" \
    || die "the controller port o-hm0 ($(amp_json hm_port_id)) did not go ACTIVE in neutron (logs: $LOG/ovn-controller.log, $LOG/setup.log)"
  wait_queue "$AMP_WORKER" octavia_provisioning_v2 120 "$LOG/$AMP_WORKER.log" "$AMP_WORKER_VHOST"
  [ "$PEER_AMPHORA" = region ] && wait_http octavia-api-amphora "http://$HOST:$AMP_API_PORT/" 180 "$LOG/octavia-amphora-uwsgi.log"
  for i in $(seq 1 240); do
    ss -Hunl "src $ip sport = :$AMP_HM_PORT" | grep -q . && break
    running octavia-health-manager || { tail -30 "$LOG/octavia-health-manager.log" >&2; die "octavia-health-manager exited during start-up (log: $LOG/octavia-health-manager.log)"; }
    sleep 0.5
  done
  ss -Hunl "src $ip sport = :$AMP_HM_PORT" | grep -q . \
    || die "octavia-health-manager does not listen on $ip:$AMP_HM_PORT (log: $LOG/octavia-health-manager.log)"
  say "amphora controller up: o-hm0 $ip (port ACTIVE), $AMP_WORKER (real drivers$([ "$PEER_AMPHORA" = region ] && echo ", for $AMP_REGION: octavia-api-amphora :$AMP_API_PORT, RabbitMQ vhost $AMP_VHOST" || true)), octavia-health-manager on udp $ip:$AMP_HM_PORT"
}

amp_rabbit_definitions() { # PEER_AMPHORA=region: RabbitMQ's boot definitions, "/" and the real worker's vhost
  # (rabbitmq.conf load_definitions, imported at every boot, idempotent). They name guest too: a broker that
  # imports definitions does not rely on its first-boot default user.
  "$PY" - "$AMP_VHOST" > "$DIR/rabbitmq/definitions.json" <<'PYEOF'
import base64, hashlib, json, os, sys
salt = os.urandom(4)  # rabbit_password_hashing_sha256: base64(salt + sha256(salt + password))
h = base64.b64encode(salt + hashlib.sha256(salt + b"guest").digest()).decode()
vhosts = ["/", sys.argv[1]]
print(json.dumps({
    "users": [{"name": "guest", "password_hash": h, "hashing_algorithm": "rabbit_password_hashing_sha256", "tags": ["administrator"]}],
    "vhosts": [{"name": v} for v in vhosts],
    "permissions": [{"user": "guest", "vhost": v, "configure": ".*", "write": ".*", "read": ".*"} for v in vhosts]}))
PYEOF
  echo "load_definitions = $DIR/rabbitmq/definitions.json"
}

amp_env() { # lines for peer.env
  cat <<EOF
OS_PEER_AMPHORA=$PEER_AMPHORA
OS_PEER_AMP_MGMT_NETWORK_ID=$(amp_json mgmt_net_id)
OS_PEER_AMP_HM_IP=$(amp_json hm_port_ip)
OS_PEER_AMP_IMAGE_ID=$(amp_json image_id)
OS_PEER_AMP_FLAVOR_ID=$(amp_json flavor_id)
EOF
  [ "$PEER_AMPHORA" = region ] && printf 'OS_PEER_AMP_REGION=%s\nOS_PEER_OCTAVIA_AMPHORA_URL=http://%s:%s\n' "$AMP_REGION" "$HOST" "$AMP_API_PORT"
  return 0
}
