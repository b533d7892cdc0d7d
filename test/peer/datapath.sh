# Sourced by test/peer/start.sh with PEER_DATAPATH=1: the peer's real OVN data path.
#
# Open vSwitch with the userspace ("netdev") datapath (this kind of machine has no openvswitch kernel
# module), ovn-northd against the peer's NB/SB databases and an ovn-controller that is the chassis of the
# Nova compute host, instead of the fake chassis start.sh otherwise makes. Servers become network
# namespaces plugged into br-int by DIR/nova/plugin/os_peer_nova.py; the external network "public" is
# br-ex (ovn-bridge-mappings public:br-ex), which carries the external subnet's gateway address, so the
# namespace the peer runs in reaches floating IPs through OVN. Recipe and sources:
# shared/reference/testbed/datapath-feasibility.md (section 5); proven on this kind of machine by
# shared/reference/testbed/datapath-proof/ovn-lb-hc.sh.
#
# Uses start.sh's DIR, LOG, HOST, OVN_*_PORT, COMPUTE_HOST, PEER_EXTERNAL_CIDR, PEER_OVN_PROVIDER,
# PY and its launch/quiet/say/die helpers.

DP_PACKAGES="openvswitch-switch ovn-host ethtool containernetworking-plugins iptables nginx-light"
# ovn-octavia-provider with both fixes of Launchpad bug 1997418 (a health check on the floating-IP VIP:
# openstack/ovn-octavia-provider b22039a in 3.1.0 and 726fc45 in 3.1.2, stable/zed); Debian bookworm
# ships 3.0.0. A pure-Python wheel whose requirements Debian's Zed packages already meet; it is put
# first on the octavia processes' PYTHONPATH, where both its module and its entry points (the
# "ovn" driver and provider agent; importlib.metadata keeps the first distribution of a name on
# sys.path) win over Debian's. Installed like a package (machine-wide, once), so that the testbed's
# install step (PEER_INSTALL_ONLY, registries reachable) serves the peer in the namespace.
DP_PROVIDER_VERSION=3.1.2
DP_PROVIDER_SHA256=05e24709fb30693b517fc3143315577dcf84a4f04b3058d7ac2b6b38fbcd990c
DP_PROVIDER_DIR=/usr/local/lib/kaas-peer/ovn-octavia-provider-$DP_PROVIDER_VERSION

dp_provider_install() { # the fixed provider, from PyPI, unless already there
  [ -f "$DP_PROVIDER_DIR/ovn_octavia_provider/agent.py" ] && return 0
  local pip="" p tmp
  for p in python3 /usr/bin/python3; do "$p" -m pip --version >/dev/null 2>&1 && { pip=$p; break; }; done
  [ -n "$pip" ] || die "PEER_OVN_PROVIDER=fixed needs pip to fetch ovn-octavia-provider $DP_PROVIDER_VERSION (apt-get install python3-pip), or use PEER_OVN_PROVIDER=debian"
  tmp=$(mktemp -d)
  echo "ovn-octavia-provider==$DP_PROVIDER_VERSION --hash=sha256:$DP_PROVIDER_SHA256" > "$tmp/req.txt"
  "$pip" -m pip download --retries 1 --timeout 20 --no-deps --only-binary=:all: --require-hashes -r "$tmp/req.txt" -d "$tmp" >"$tmp/pip.log" 2>&1 \
    || { tail -5 "$tmp/pip.log" >&2; rm -rf "$tmp"; die "could not download ovn-octavia-provider $DP_PROVIDER_VERSION into $DP_PROVIDER_DIR: it needs PyPI, so install where PyPI is reachable first (PEER_INSTALL_ONLY=1 PEER_DATAPATH=1 $0 SOME_DIR, outside the peer's network namespace), or use PEER_OVN_PROVIDER=debian"; }
  # A pure-Python wheel installs by unpacking it (what pip --target does for one); no other package
  # is touched.
  rm -rf "$DP_PROVIDER_DIR.new"; mkdir -p "$DP_PROVIDER_DIR.new"
  "$PY" -m zipfile -e "$tmp"/ovn_octavia_provider-"$DP_PROVIDER_VERSION"-py3-none-any.whl "$DP_PROVIDER_DIR.new" \
    || { rm -rf "$tmp"; die "could not unpack ovn-octavia-provider $DP_PROVIDER_VERSION"; }
  rm -rf "$tmp" "$DP_PROVIDER_DIR"; mv "$DP_PROVIDER_DIR.new" "$DP_PROVIDER_DIR"
  say "ovn-octavia-provider $DP_PROVIDER_VERSION installed in $DP_PROVIDER_DIR"
}

dp_check_namespace() { # bridges, addresses and VM namespaces: never on the host's own network
  [ -n "$(ip netns identify $$ 2>/dev/null)" ] \
    || die "PEER_DATAPATH=1 puts bridges, the external gateway address and one network namespace per server on the network it runs in: start the peer inside a named network namespace (ip netns add NS; ip netns exec NS $0 $DIR)"
}

dp_outer_mount_ns() { # the mount namespace the caller of "ip netns exec" lives in (empty if ours)
  # "ip netns exec" runs start.sh in a private mount namespace, a slave of the caller's: a netns that
  # nova-compute named there (a bind mount under /run/netns) would never show outside. So
  # nova-compute runs in the caller's mount namespace (still in the peer's network namespace), where
  # its "ip netns add" is seen by everyone; found as the nearest ancestor in another mount namespace.
  local me p=$$ ns
  me=$(readlink /proc/self/ns/mnt)
  while p=$(ps -o ppid= -p "$p" | tr -d ' ') && [ -n "$p" ] && [ "$p" -gt 1 ]; do
    ns=$(readlink "/proc/$p/ns/mnt" 2>/dev/null) || return 0
    [ "$ns" != "$me" ] && { echo "/proc/$p/ns/mnt"; return 0; }
  done
  return 0
}

dp_config() { # extra config files, read after the services' own ones (theirs stay as without the switch)
  # Neutron makes the OVN metadata port (device_owner network:distributed) of each network: provider
  # 3.0.0 takes it as the health checks' source port (helper.py _ensure_hm_ovn_port); neutron 21.0.0
  # creates it itself (ovn_client.py create_metadata_port), no metadata agent involved.
  printf '[ovn]\novn_metadata_enabled = true\n' > "$DIR/neutron/neutron-datapath.conf"
  # The ovn provider agent (octavia-driver-agent runs it only when enabled) follows ovn-northd's
  # Service_Monitor rows in the southbound DB and reports member operating_status from them.
  printf '[driver_agent]\nenabled_provider_agents = ovn\n[ovn]\novn_sb_connection = tcp:%s:%s\n' "$HOST" "$OVN_SB_PORT" \
    > "$DIR/octavia/octavia-datapath.conf"
  printf '[DEFAULT]\n# nova fake driver + a network namespace per server on br-int (os_peer_nova.py)\ncompute_driver = os_peer_nova.PluggingFakeDriver\n' \
    > "$DIR/nova/nova-datapath.conf"
  mkdir -p "$DIR/nova/plugin" "$DIR/vm-netns"
  # (os_peer_amphora.py, which it imports, does nothing unless PEER_AMPHORA=1: amphora-nova.sh)
  cp "$HERE/os_peer_nova.py" "$HERE/os_peer_amphora.py" "$DIR/nova/plugin/"
  # nova imports its driver as nova.virt.<compute_driver> (nova/virt/driver.py load_compute_driver):
  # this hook, run by site.py at interpreter start-up from nova-compute's PYTHONPATH, maps
  # nova.virt.os_peer_nova to the file above without importing nova before eventlet's monkey-patching.
  cat > "$DIR/nova/plugin/usercustomize.py" <<'EOF'
"""os-peer: nova.virt.os_peer_nova is DIR/nova/plugin/os_peer_nova.py (see datapath.sh)."""
import importlib.util
import os
import sys


class _PeerDriverFinder:
    @staticmethod
    def find_spec(name, path=None, target=None):
        if name != "nova.virt.os_peer_nova":
            return None
        return importlib.util.spec_from_file_location(
            name, os.path.join(os.path.dirname(os.path.abspath(__file__)), "os_peer_nova.py"))


sys.meta_path.insert(0, _PeerDriverFinder)
EOF
}

dp_env() { # every OVS/OVN tool finds this peer's sockets, logs and files under DIR
  export OVS_RUNDIR="$DIR/ovs" OVS_DBDIR="$DIR/ovs" OVS_LOGDIR="$LOG" OVS_SYSCONFDIR="$DIR/ovs"
  export OVN_RUNDIR="$DIR/ovn" OVN_DBDIR="$DIR/ovn" OVN_LOGDIR="$LOG" OVN_SYSCONFDIR="$DIR/ovn"
}

dp_vsctl() { ovs-vsctl --db="unix:$DIR/ovs/db.sock" --timeout=10 "$@"; }

dp_start() { # ovsdb-server, ovs-vswitchd, bridges, ovn-northd, ovn-controller; br-ex's address
  local i gw
  mkdir -p "$DIR/ovs"
  [ -f "$DIR/ovs/conf.db" ] || quiet ovsdb-tool create "$DIR/ovs/conf.db" /usr/share/openvswitch/vswitch.ovsschema
  launch ovs-ovsdb "$LOG/ovs-ovsdb-server.out" ovsdb-server "$DIR/ovs/conf.db" --remote="punix:$DIR/ovs/db.sock" \
    --unixctl="$DIR/ovs/ovsdb-server.ctl" --log-file="$LOG/ovs-ovsdb-server.log"
  for i in $(seq 1 80); do [ -S "$DIR/ovs/db.sock" ] && break; sleep 0.25; done
  quiet dp_vsctl --no-wait init
  # --monitor: OVS's own supervisor restarts the daemon when it dies of an abort. Debian 12's 3.1.0 aborts in
  # its userspace conntrack under steady NAT'd traffic ("assertion conn->conn_type == CT_CONN_TYPE_DEFAULT
  # failed in conn_update_state()", seen once with the kube-API's traffic through an amphora's floating IP;
  # fixed upstream in v3.1.3, commit 6753b1086 "conntrack: Remove nat_conn introducing key
  # directionality"). Its internal ports are persistent taps that keep their addresses, so a restart costs
  # the conntrack entries (open connections through stateful ACLs are dropped and reconnect), not the
  # peer: without it the datapath stays dead, the health manager hears no amphora and fails them over.
  launch ovs-vswitchd "$LOG/ovs-vswitchd.out" ovs-vswitchd "unix:$DIR/ovs/db.sock" --monitor \
    --unixctl="$DIR/ovs/ovs-vswitchd.ctl" --log-file="$LOG/ovs-vswitchd.log"
  # The chassis of the compute host (system-id and hostname = nova's host, so ML2/OVN binds its ports
  # here), a gateway chassis for routers, with the external network's physnet "public" on br-ex.
  quiet dp_vsctl set Open_vSwitch . external_ids:system-id="$COMPUTE_HOST" external_ids:hostname="$COMPUTE_HOST" \
    external_ids:ovn-remote="unix:$DIR/ovn/ovnsb_db.sock" external_ids:ovn-encap-type=geneve \
    external_ids:ovn-encap-ip=127.0.0.1 external_ids:ovn-bridge-datapath-type=netdev \
    external_ids:ovn-bridge-mappings=public:br-ex external_ids:ovn-cms-options=enable-chassis-as-gw
  quiet dp_vsctl --may-exist add-br br-int -- set Bridge br-int datapath_type=netdev fail-mode=secure \
    other-config:disable-in-band=true
  quiet dp_vsctl --may-exist add-br br-ex -- set Bridge br-ex datapath_type=netdev
  launch ovn-northd "$LOG/ovn-northd.out" ovn-northd --ovnnb-db="unix:$DIR/ovn/ovnnb_db.sock" \
    --ovnsb-db="unix:$DIR/ovn/ovnsb_db.sock" --unixctl="$DIR/ovn/ovn-northd.ctl" --log-file="$LOG/ovn-northd.log"
  # (ovn-controller 23.03 has no --unixctl: its control socket goes to OVN_RUNDIR = DIR/ovn)
  launch ovn-controller "$LOG/ovn-controller.out" ovn-controller "unix:$DIR/ovs/db.sock" \
    --log-file="$LOG/ovn-controller.log"
  for i in $(seq 1 120); do
    ip link show br-ex >/dev/null 2>&1 && [ -n "$(ovn-sbctl --db="tcp:$HOST:$OVN_SB_PORT" --timeout=5 --bare \
      --columns=name find Chassis name="$COMPUTE_HOST" 2>/dev/null)" ] && break
    running ovn-controller || { tail -20 "$LOG/ovn-controller.log" >&2; die "ovn-controller exited during start-up (log: $LOG/ovn-controller.log)"; }
    sleep 0.25
  done
  ip link show br-ex >/dev/null 2>&1 || { tail -20 "$LOG/ovs-vswitchd.log" >&2; die "ovs-vswitchd made no br-ex (log: $LOG/ovs-vswitchd.log)"; }
  # ovn-controller 23.03.1 publishes ovn-cms-options and ovn-bridge-mappings in Chassis.other_config
  # only, while neutron 21.0.0 (Zed) reads them from Chassis.external_ids (impl_idl_ovn.py
  # _get_chassis_physnets and get_gateway_chassis_from_cms_options, common/ovn/utils.py
  # get_ovn_cms_options): without this copy neutron sees no gateway chassis and schedules no router
  # gateway port. ovn-controller leaves external_ids alone.
  [ -n "$(ovn-sbctl --db="tcp:$HOST:$OVN_SB_PORT" --timeout=5 --bare --columns=name find Chassis name="$COMPUTE_HOST")" ] \
    || { tail -20 "$LOG/ovn-controller.log" >&2; die "ovn-controller registered no chassis $COMPUTE_HOST within 30 s (log: $LOG/ovn-controller.log)"; }
  quiet ovn-sbctl --db="tcp:$HOST:$OVN_SB_PORT" --timeout=5 set Chassis "$COMPUTE_HOST" \
    external_ids:ovn-cms-options=enable-chassis-as-gw external_ids:ovn-bridge-mappings=public:br-ex
  # The external network's gateway address on br-ex. The whole external subnet on lo (how the peer is
  # run without the data path) would make every floating IP local to this namespace and keep OVN out:
  # it is taken off lo; addresses that must stay local (the testbed's kube-API floating IP) go on lo as
  # /32s, which win over br-ex's /24.
  gw=$("$PY" -c "import ipaddress,sys; n=ipaddress.ip_network(sys.argv[1]); print(f'{next(n.hosts())}/{n.prefixlen}')" "$PEER_EXTERNAL_CIDR")
  if [[ "$(ip -o addr show dev lo)" == *" $gw "* ]]; then ip addr del "$gw" dev lo; say "took $gw off lo (the external network is br-ex now)"; fi
  ip addr replace "$gw" dev br-ex
  ip link set br-ex up
  say "open vswitch (netdev datapath), ovn-northd and ovn-controller up (chassis $COMPUTE_HOST, br-ex $gw)"
}
