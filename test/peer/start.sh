#!/usr/bin/env bash
# kaas test peer: a real (unmocked) OpenStack control plane on loopback, from Debian packages.
# Used by the integration tests (jest globalSetup starts it), by `npm run bench`, and by the testbed
# (test/testbed/), which runs a second one inside a network namespace.
#
#   test/peer/start.sh [DIR]     DIR defaults to .kaas-test/peer under the repository
#
# What runs (all bound to 127.0.0.1, all state under DIR):
#   keystone     :5000   Keystone (Debian bookworm = OpenStack Zed) under uwsgi, sqlite, fernet tokens
#   octavia-api  :9876   Octavia API under uwsgi, sqlite, providers "amphora" and "ovn"
#   octavia-api-noovn :9877  a second Octavia API on the same database offering only "amphora";
#                        it is the load-balancer endpoint of region RegionNoOvn (a cloud without OVN)
#   octavia-api-amphora :9878  (PEER_AMPHORA=region only) a third one, "amphora" only, for region
#                        RegionAmphora, casting to octavia-worker-amphora (real drivers; amphora.sh)
#   octavia-driver-agent Octavia provider status agent (needed by the ovn provider)
#   octavia-worker       Octavia controller worker for the amphora provider (amphorav2 flows, no
#                        jobboard) with the no-op amphora/compute/network drivers: amphora load
#                        balancers and their listeners, pools, members and health monitors go
#                        ACTIVE (operating_status stays OFFLINE: no amphora sends heartbeats); the
#                        VIP is a real neutron port, deleted with the load balancer
#   rabbitmq     :5672   RabbitMQ (Debian's, as a plain process; node os-peer@localhost, Erlang
#   epmd         :4369   distribution :25672), guest/guest: octavia's and nova's message bus
#   ovsdb-server :6641   OVN northbound DB (the ovn provider and neutron write load balancers,
#   ovsdb-server :6642   OVN southbound DB  switches and routers into it; no datapath is run)
#   neutron      :9696   Neutron server, ML2/OVN, no agents (networks, subnets, ports, routers,
#                        floating IPs and Octavia VIP ports all work at the API level)
#   glance-api   :9292   Glance, sqlite, file store in DIR/glance/images
#   placement    :8778   Placement under uwsgi, sqlite
#   nova-api     :8774   Nova API (/v2.1) under uwsgi; nova-conductor, nova-scheduler and nova-compute
#                        with compute_driver fake.FakeDriver (no VMs): cells v2 on sqlite (API DB,
#                        cell0, cell1), one compute host "os-peer-compute" in AZ "nova"; servers
#                        go ACTIVE with a neutron port bound to that host (a fake OVN chassis for
#                        it, kept alive by the ovn-fake-chassis loop, which also sets its ports up);
#                        neutron sends nova its port events (a floating IP shows in the addresses)
#
# Regions in the catalog: RegionOne (everything), RegionNoOvn (octavia-api-noovn + neutron) and
# RegionBare (no endpoints at all: every service is "missing from the catalog"); with PEER_AMPHORA=region
# also RegionAmphora (octavia-api-amphora + neutron: its load balancers are real amphorae).
#
# Switches (environment, 0 or 1; default: everything on). A value not given in the environment is
# the one DIR last ran with (DIR/switches), so "start.sh DIR" after "stop.sh DIR SERVICE" keeps the
# peer as it was; a peer running with other switches is stopped and started again with the new ones.
#   OCTAVIA_WORKER=0  no octavia-worker: amphora load balancers stay PENDING_CREATE (the ovn
#                     provider still works). The main jest suite runs with this (PEER_SWITCHES in
#                     test/support/peer-paths.ts): its doctor tests need a stuck amphora LB.
#   NOVA=0            no glance, placement, nova (the main jest suite runs with this too).
#                     RabbitMQ runs only for octavia-worker and nova.
#   OVN_PROVIDER=0    only the amphora provider on :9876 too (a cloud without OVN load balancers).
#   NEUTRON=0         no neutron (nor the OVN southbound DB; needs NOVA=0): load balancer creation
#                     then fails with "publicURL endpoint for network service not found".
#   PEER_DATAPATH=1   (default 0) a real OVN data path (test/peer/datapath.sh): Open vSwitch with the
#                     userspace datapath, ovn-northd, and ovn-controller as the chassis of the compute
#                     host instead of the fake chassis below; br-ex (the external network "public")
#                     carries the gateway address of PEER_EXTERNAL_CIDR, which leaves lo; servers are
#                     network namespaces kaas-vm-<uuid8> plugged into br-int by nova-compute
#                     (os_peer_nova.py); neutron makes OVN metadata ports; octavia-driver-agent runs
#                     the ovn provider agent (member status from OVN's health checks). Needs NOVA=1
#                     and a named network namespace (ip netns). Proof: prove-datapath.sh.
#   OVN_METADATA=1    (default: as PEER_DATAPATH) neutron makes each network's OVN metadata port
#                     (ovn_metadata_enabled), the health-check source port of ovn-octavia-provider
#                     3.0.0: without it health monitors on ovn pools end in provisioning_status ERROR.
#                     The testbed's peer runs with it; the main suite's does not need it.
#   PEER_OVN_PROVIDER=fixed|debian  with PEER_DATAPATH=1: ovn-octavia-provider 3.1.2 from PyPI
#                     (default; a health check on the floating-IP VIP too, Launchpad bug 1997418) or
#                     Debian's 3.0.0. Without the data path the peer runs Debian's, as before.
#                     Both are recorded in DIR/switches only when PEER_DATAPATH=1.
#   PEER_AMPHORA=1    (default 0; needs PEER_DATAPATH=1) real amphorae (test/peer/amphora.sh): octavia-worker
#                     with its real drivers, the lb-mgmt network with the controller's port o-hm0 on
#                     br-int, octavia-health-manager on o-hm0:5555, an amphora image and flavor.
#                     Proof: prove-amphora.sh. Docs: docs/development/amphora-controller.md.
#                     Nova's side (test/peer/amphora-nova.sh): a server named amphora-<id> runs
#                     Octavia's amphora agent in a systemd-nspawn container in its network namespace,
#                     with the files of Octavia's user data. Proof: prove-amphora-vm.sh. Docs:
#                     docs/development/amphora-vm.md.
#   PEER_AMPHORA=region  the same, for region RegionAmphora only (amphora.sh): octavia-api-amphora :9878
#                     (provider "amphora") casts over RabbitMQ vhost "amphora" to octavia-worker-amphora
#                     (real drivers); RegionOne's and RegionNoOvn's amphora LBs stay on the no-op worker.
#                     clouds.yaml gets "peer-demo-appcred-amphora" (the application credential there).
# Other settings (also recorded in DIR/switches):
#   PEER_EXTERNAL_CIDR     subnet of the external network "public" (default 172.24.4.0/24; the
#                          gateway is its first host). Fixed when DIR's cloud is first made.
#   PEER_AGENT_SOCKET_DIR  where octavia-driver-agent's sockets live (default DIR/run). octavia-lib
#                          defaults them to /run/octavia for the ovn provider; DIR/lib/usercustomize.py
#                          repoints those defaults in the octavia processes. Set it to /run/octavia
#                          for the upstream layout (then one peer per mount namespace).
#
# Outputs in DIR:
#   clouds.yaml  clouds "peer-admin", "peer-demo" (password; "peer-demo-noovn" and "peer-demo-bare"
#                are the same user in regions RegionNoOvn and RegionBare), "peer-demo-appcred"
#                (v3applicationcredential by id; "peer-demo-appcred-noovn" the same in RegionNoOvn)
#                and "peer-demo-appcred-name" (by name + user);
#                use with OS_CLIENT_CONFIG_FILE=DIR/clouds.yaml
#   peer.env     the same facts as shell variables (source it); with nova also OS_PEER_NOVA_URL,
#                OS_PEER_FLAVOR (public flavor "peer.tiny"), OS_PEER_IMAGE_ID (public 4 KiB raw
#                image "peer-image"); OS_PEER_PRIVATE_NETWORK_ID to boot a server on,
#                OS_PEER_OCTAVIA_WORKER, OS_PEER_EXTERNAL_CIDR
#   pids         one "name pid" line per started process group; stop.sh DIR [SERVICE...] stops those
#   switches     the switches above, as this DIR last ran with them
#   log/         service logs
#   lib/         usercustomize.py, put on the services' PYTHONPATH: sqlite locking fixes for
#                concurrent use (see "sqlite under concurrent writers" below), agent socket paths
#   run/         the octavia driver agent's sockets;  cache/  stevedore's entry-point cache
#   vm-netns/    (PEER_DATAPATH=1) one file per server uuid holding its network namespace's name;
#                ovs/ the Open vSwitch database and sockets (OVS_RUNDIR for ovs-vsctl/ovs-appctl)
#
# Nothing is written outside DIR (besides the packages apt-get installs; with PEER_DATAPATH=1 also
# the fixed ovn provider in /usr/local/lib/kaas-peer and the servers' /run/netns entries): the processes get
# XDG_CACHE_HOME=DIR/cache, RabbitMQ its HOME (cookie), mnesia, config, logs and pid file in DIR,
# every service its lock_path in DIR. Loopback ports are fixed (5000, 9876, 9877, 9696, 6641,
# 6642, 5672, 25672, 4369, 9292, 8778, 8774), so one peer per network namespace. A second peer in
# a namespace of its own (the testbed's way; it puts PEER_EXTERNAL_CIDR on the namespace's lo):
#   ip netns add NS; ip netns exec NS ip link set lo up
#   ip netns exec NS ip addr add 172.24.4.1/24 dev lo
#   ip netns exec NS bash test/peer/start.sh /tmp/NS-peer       (stop.sh works from anywhere)
# With PEER_AGENT_SOCKET_DIR=/run/octavia, run it under `unshare -m --propagation private` with a
# tmpfs mounted on /run/octavia instead.
#
# Running it again on the same DIR is cheap: packages and databases are reused, services that are
# still running are left alone. Needs root (apt-get install). Two runs on one DIR wait for each
# other (flock DIR/.lock). Times on 2 busy cores (load 8-12): apt-get of everything ~3 min; fresh
# DIR everything on ~100 s, main suite's switches ~65 s; restart after stop.sh ~40 s / ~22 s; a
# run while all is up ~2.5 s. Memory (PSS): ~2.1 GiB everything on, ~0.9 GiB main suite's switches.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:-$HERE/../../.kaas-test/peer}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
# Two test runs may start the peer at once (two jest processes); the second waits for the first.
# stop.sh takes the same lock. KAAS_PEER_LOCK_HELD=1: the caller already holds it (flock DIR/.lock).
if [ -z "${KAAS_PEER_LOCK_HELD:-}" ]; then exec 9>"$DIR/.lock"; flock 9; fi
# Switches: a value given in the environment wins; otherwise the one this DIR last ran with
# (DIR/switches), so that "start.sh DIR" bringing back a stopped service keeps the peer as it was;
# otherwise the default (everything on).
recorded() { sed -n "s/^$1=//p" "$DIR/switches" 2>/dev/null | tail -1 || true; }
NEUTRON=${NEUTRON:-$(recorded NEUTRON)}; NEUTRON=${NEUTRON:-1}
OVN_PROVIDER=${OVN_PROVIDER:-$(recorded OVN_PROVIDER)}; OVN_PROVIDER=${OVN_PROVIDER:-1}
OCTAVIA_WORKER=${OCTAVIA_WORKER:-$(recorded OCTAVIA_WORKER)}; OCTAVIA_WORKER=${OCTAVIA_WORKER:-1}
NOVA=${NOVA:-$(recorded NOVA)}; NOVA=${NOVA:-$NEUTRON}
PEER_EXTERNAL_CIDR=${PEER_EXTERNAL_CIDR:-$(recorded PEER_EXTERNAL_CIDR)}; PEER_EXTERNAL_CIDR=${PEER_EXTERNAL_CIDR:-172.24.4.0/24}
PEER_DATAPATH=${PEER_DATAPATH:-$(recorded PEER_DATAPATH)}; PEER_DATAPATH=${PEER_DATAPATH:-0}
OVN_METADATA=${OVN_METADATA:-$(recorded OVN_METADATA)}; OVN_METADATA=${OVN_METADATA:-$PEER_DATAPATH}
PEER_OVN_PROVIDER=${PEER_OVN_PROVIDER:-$(recorded PEER_OVN_PROVIDER)}; PEER_OVN_PROVIDER=${PEER_OVN_PROVIDER:-fixed}
# The ovn provider's agent sockets. octavia-lib's DriverLibrary defaults them to /run/octavia (the
# ovn provider passes no paths), so DIR/lib/usercustomize.py repoints those defaults at this
# directory in the octavia processes: by default DIR/run, private to this peer.
PEER_AGENT_SOCKET_DIR=${PEER_AGENT_SOCKET_DIR:-$(recorded PEER_AGENT_SOCKET_DIR)}; PEER_AGENT_SOCKET_DIR=${PEER_AGENT_SOCKET_DIR:-$DIR/run}
HOST=127.0.0.1
KEYSTONE_PORT=5000
OCTAVIA_PORT=9876
NEUTRON_PORT=9696
OVN_NB_PORT=6641
OVN_SB_PORT=6642
RABBIT_PORT=5672
RABBIT_DIST_PORT=25672
EPMD_PORT=4369
GLANCE_PORT=9292
PLACEMENT_PORT=8778
NOVA_PORT=8774
OCTAVIA_NOOVN_PORT=9877
COMPUTE_HOST=os-peer-compute       # nova-compute's host name; neutron binds ports to it
REGION=RegionOne
ADMIN_PASSWORD=${ADMIN_PASSWORD:-admin-secret}
DEMO_PASSWORD=${DEMO_PASSWORD:-demo-secret}
APPCRED_SECRET=${APPCRED_SECRET:-demo-appcred-secret}
SERVICE_PASSWORD=service-secret
AGENT_SOCKET_DIR=$PEER_AGENT_SOCKET_DIR
PY=/usr/bin/python3                # the distribution's Python, which has the OpenStack modules
PIDS="$DIR/pids"
LOG="$DIR/log"
# stevedore (every OpenStack service) caches entry points under ~/.cache: keep that in DIR too.
export XDG_CACHE_HOME="$DIR/cache"
T0=$(date +%s%N)

say() { local ms=$((($(date +%s%N) - T0) / 1000000)); printf '[os-peer %3d.%01ds] %s\n' $((ms / 1000)) $((ms % 1000 / 100)) "$*"; }
die() { echo "start.sh: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root"
[ "$NOVA" = 1 ] && [ "$NEUTRON" != 1 ] && die "NOVA=1 needs NEUTRON=1 (servers need ports); set NOVA=0 too"
RABBIT=0
if [ "$OCTAVIA_WORKER" = 1 ] || [ "$NOVA" = 1 ]; then RABBIT=1; fi
RABBIT_URL="rabbit://guest:guest@$HOST:$RABBIT_PORT/"
for sw in NEUTRON OVN_PROVIDER OCTAVIA_WORKER NOVA PEER_DATAPATH OVN_METADATA; do
  case ${!sw} in 0|1) ;; *) die "$sw=${!sw}: use 0 or 1";; esac
done
case $PEER_OVN_PROVIDER in debian|fixed) ;; *) die "PEER_OVN_PROVIDER=$PEER_OVN_PROVIDER: use debian (Debian's 3.0.0) or fixed (3.1.2)";; esac
[ "$PEER_DATAPATH" = 1 ] && [ "$NOVA" != 1 ] && die "PEER_DATAPATH=1 needs NOVA=1 (servers are what it plugs); set NOVA=1 or PEER_DATAPATH=0"
[[ "$PEER_EXTERNAL_CIDR" =~ ^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+/[0-9]+$ ]] \
  || die "PEER_EXTERNAL_CIDR=$PEER_EXTERNAL_CIDR is not an IPv4 CIDR such as 172.24.4.0/24"
# A unix socket path has at most 107 bytes; the longest of the three is .../status.sock.
[ $((${#AGENT_SOCKET_DIR} + 12)) -le 107 ] \
  || die "the agent socket directory $AGENT_SOCKET_DIR is too long for a unix socket path: set PEER_AGENT_SOCKET_DIR to a shorter directory (or use a shorter DIR)"
SWITCHES="NEUTRON=$NEUTRON
OVN_PROVIDER=$OVN_PROVIDER
OCTAVIA_WORKER=$OCTAVIA_WORKER
NOVA=$NOVA
PEER_EXTERNAL_CIDR=$PEER_EXTERNAL_CIDR
PEER_AGENT_SOCKET_DIR=$PEER_AGENT_SOCKET_DIR"
# The data path's switches are recorded only when it is on: without it the peer is as before.
[ "$PEER_DATAPATH" = 1 ] && SWITCHES="$SWITCHES
PEER_DATAPATH=1
PEER_OVN_PROVIDER=$PEER_OVN_PROVIDER"
[ "$PEER_DATAPATH" = 1 ] && . "$HERE/datapath.sh"
. "$HERE/amphora.sh"   # the switch PEER_AMPHORA and its functions (amp_*): Octavia's side
. "$HERE/amphora-nova.sh"   # PEER_AMPHORA=1, Nova's side: amphora servers boot the agent (ampvm_*)
# OVN metadata ports alone (implied by the data path): recorded only when on, as above.
[ "$OVN_METADATA" = 1 ] && [ "$PEER_DATAPATH" != 1 ] && SWITCHES="$SWITCHES
OVN_METADATA=1"
# Services read their switches when they start: a peer running with other ones is restarted
# (databases stay, so this takes a restart's time).
if [ -s "$PIDS" ] && [ "$(cat "$DIR/switches" 2>/dev/null)" != "$SWITCHES" ]; then
  say "switches changed ($(diff <(cat "$DIR/switches" 2>/dev/null) <(echo "$SWITCHES") | sed -n 's/^> //p' | paste -sd' ')): restarting the peer"
  KAAS_PEER_LOCK_HELD=1 bash "$HERE/stop.sh" "$DIR" || die "stop.sh $DIR failed"
fi
echo "$SWITCHES" > "$DIR/switches"

# ---------------------------------------------------------------- packages
PACKAGES="python3-keystone python3-octavia python3-ovn-octavia-provider python3-openstackclient python3-octaviaclient
  uwsgi-core uwsgi-plugin-python3 ovn-central curl"
[ "$NEUTRON" = 1 ] && PACKAGES="$PACKAGES python3-neutron"
[ "$RABBIT" = 1 ] && PACKAGES="$PACKAGES rabbitmq-server"
[ "$NOVA" = 1 ] && PACKAGES="$PACKAGES python3-nova python3-glance python3-placement"
[ "$PEER_DATAPATH" = 1 ] && PACKAGES="$PACKAGES $DP_PACKAGES"
[ "$PEER_AMPHORA" != 0 ] && PACKAGES="$PACKAGES $AMPVM_PACKAGES"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "[os-peer] installing:$missing"
  # Package maintainer scripts must not start system services (ovn-central ships init scripts).
  guard=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; guard=1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  say "apt-get update done"
  apt-get install -y -q --no-install-recommends $missing >"$DIR/apt.log" 2>&1 \
    || { [ -n "$guard" ] && rm -f /usr/sbin/policy-rc.d; tail -20 "$DIR/apt.log"; die "apt-get install failed (log: $DIR/apt.log)"; }
  [ -n "$guard" ] && rm -f /usr/sbin/policy-rc.d
  say "packages installed (apt-get update + install; log: $DIR/apt.log)"
fi
[ "$PEER_DATAPATH" = 1 ] && [ "$PEER_OVN_PROVIDER" = fixed ] && dp_provider_install
[ "$PEER_AMPHORA" != 0 ] && ampvm_install
# PEER_INSTALL_ONLY=1: only make sure the packages are there (the testbed's build step, run where the
# Debian registry is reachable, before the peer starts inside a namespace without network).
if [ -n "${PEER_INSTALL_ONLY:-}" ]; then say "packages present:$(printf ' %s' $PACKAGES | wc -w) (PEER_INSTALL_ONLY: nothing started)"; exit 0; fi
[ "$PEER_DATAPATH" = 1 ] && dp_check_namespace
T0=$(date +%s%N)

# ---------------------------------------------------------------- process bookkeeping
# Each service is started with setsid, so its pid is also its process-group id; stop.sh signals
# the whole group. A recorded group counts as ours only if one of its processes mentions DIR.
ours() { ps -eo pgid=,args= | awk -v g="$1" -v d="$DIR/" '$1==g && index($0,d){f=1} END{exit !f}'; }
running() { [ -f "$PIDS" ] && awk -v n="$1" '$1==n{print $2}' "$PIDS" | { read -r p && ours "$p"; }; }
record() { { [ -f "$PIDS" ] && grep -v "^$1 " "$PIDS"; echo "$1 $2"; } > "$PIDS.new" || true; mv "$PIDS.new" "$PIDS"; }
launch() { # name logfile cmd...
  local name=$1 out=$2; shift 2
  if running "$name"; then return 0; fi
  setsid "$@" </dev/null >>"$out" 2>&1 9>&- &
  record "$name" $!
  STARTED="$STARTED $name"
}
wait_queue() { # name queue timeout_s logfile [vhost, default /]: until a consumer has declared the RabbitMQ queue
  local i vhost=${5:-/}
  for ((i = 0; i < $3 * 2; i++)); do
    "$PY" - "amqp://guest:guest@$HOST:$RABBIT_PORT/$vhost" "$2" <<'EOF' 2>/dev/null && return 0
import sys, kombu
with kombu.Connection(sys.argv[1], connect_timeout=2) as c:
    c.default_channel.queue_declare(queue=sys.argv[2], passive=True)
EOF
    running "$1" || { tail -30 "$4" >&2; die "$1 exited during start-up (log: $4)"; }
    sleep 0.5
  done
  tail -30 "$4" >&2; die "$1 did not subscribe to RabbitMQ queue $2 within $3 s (log: $4)"
}
port_free() { ! (exec 3<>"/dev/tcp/$HOST/$1") 2>/dev/null; }
wait_http() { # name url timeout_s logfile
  local i
  for ((i = 0; i < $3 * 4; i++)); do
    curl -sf -o /dev/null "$2" && return 0
    running "$1" || { tail -30 "$4" >&2; die "$1 exited during start-up (log: $4)"; }
    sleep 0.25
  done
  tail -30 "$4" >&2; die "$1 did not answer $2 within $3 s (log: $4)"
}
wait_tcp() { # name port timeout_s logfile
  local i
  for ((i = 0; i < $3 * 4; i++)); do
    port_free "$2" || return 0
    running "$1" || { tail -30 "$4" >&2; die "$1 exited during start-up (log: $4)"; }
    sleep 0.25
  done
  tail -30 "$4" >&2; die "$1 did not listen on port $2 within $3 s (log: $4)"
}
STARTED=""
mkdir -p "$LOG" "$DIR/keystone/lock" "$DIR/octavia/lock" "$DIR/ovn" "$DIR/neutron/lock" "$AGENT_SOCKET_DIR"
SERVICE_PORTS="keystone:$KEYSTONE_PORT octavia-api:$OCTAVIA_PORT octavia-api-noovn:$OCTAVIA_NOOVN_PORT ovn-nb:$OVN_NB_PORT"
[ "$NEUTRON" = 1 ] && SERVICE_PORTS="$SERVICE_PORTS neutron-server:$NEUTRON_PORT ovn-sb:$OVN_SB_PORT"
[ "$RABBIT" = 1 ] && SERVICE_PORTS="$SERVICE_PORTS epmd:$EPMD_PORT rabbitmq:$RABBIT_PORT rabbitmq:$RABBIT_DIST_PORT"
[ "$NOVA" = 1 ] && SERVICE_PORTS="$SERVICE_PORTS glance-api:$GLANCE_PORT placement-api:$PLACEMENT_PORT nova-api:$NOVA_PORT"
[ "$PEER_AMPHORA" = region ] && SERVICE_PORTS="$SERVICE_PORTS octavia-api-amphora:$AMP_API_PORT"
for pair in $SERVICE_PORTS; do
  running "${pair%%:*}" || port_free "${pair##*:}" || die "port ${pair##*:} is in use by a process this script did not start"
done

# ---------------------------------------------------------------- configuration files
# sqlite under concurrent writers: oslo.db opens sqlite transactions with a deferred BEGIN, so one
# that reads and then writes fails at once with "database is locked" when another process has
# committed in between (WAL snapshot); in an eventlet process a second writer's busy wait blocks
# the process, so the first can't finish (locked for 5 s). With 4 parallel server and 4 parallel
# load balancer create/delete loops that gave 500s and ERROR servers. This module, imported at
# interpreter start-up through PYTHONPATH=DIR/lib (usercustomize), makes it work:
# - octavia (api, driver agent, worker: threads) and nova (api, conductor, scheduler: the
#   processes that use the DB): transactions begin with BEGIN IMMEDIATE, so writers queue up;
# - neutron (eventlet, and it yields inside transactions; BEGIN IMMEDIATE made it worse):
#   OS_PEER_SQLITE=retry, a 200 ms busy timeout and "database is locked" raised as DBDeadlock,
#   which neutron's API retry decorators retry (with eventlet-friendly sleeps).
mkdir -p "$DIR/lib"
cat > "$DIR/lib/usercustomize.py" <<'EOF'
"""os-peer: make oslo.db's sqlite use safe with several processes (see start.sh)."""
import os
import sqlite3

try:
    from sqlalchemy import event
    from sqlalchemy.engine import Engine
    from sqlalchemy.pool import Pool
except ImportError:
    Engine = None


def _begin_immediate(conn):
    # Runs before oslo.db's own "begin" listener, which then sees the marker and skips its
    # BEGIN; oslo.db's commit/rollback listeners clear the marker. Only engines that oslo.db
    # set up (pysqlite's own transaction handling switched off) are touched.
    if conn.engine.dialect.name != "sqlite" or "in_transaction" in conn.info:
        return
    if getattr(conn.connection.dbapi_connection, "isolation_level", "") is not None:
        return
    conn.exec_driver_sql("BEGIN IMMEDIATE")
    conn.info["in_transaction"] = True


def _short_busy_wait(dbapi_con, record):
    if isinstance(dbapi_con, sqlite3.Connection):
        dbapi_con.execute("PRAGMA busy_timeout = 200")


def _locked_is_deadlock():
    import sqlalchemy.exc
    from oslo_db import exception as db_exc
    from oslo_db.sqlalchemy import exc_filters

    @exc_filters.filters("sqlite", sqlalchemy.exc.OperationalError, r".*database is locked.*")
    def _raise_deadlock(error, match, engine_name, is_disconnect):
        raise db_exc.DBDeadlock(error)


if Engine is not None:
    if os.environ.get("OS_PEER_SQLITE") == "retry":
        event.listen(Pool, "connect", _short_busy_wait)
        _locked_is_deadlock()
    else:
        event.listen(Engine, "begin", _begin_immediate)

# The octavia processes: octavia-lib's DriverLibrary (which the ovn provider creates without
# arguments) defaults its agent sockets to /run/octavia; point them at this peer's directory.
_sockets = os.environ.get("OS_PEER_AGENT_SOCKET_DIR")
if _sockets:
    from octavia_lib.api.drivers import driver_lib
    driver_lib.DriverLibrary.__init__.__defaults__ = tuple(
        os.path.join(_sockets, name) for name in ("status.sock", "stats.sock", "get.sock"))


# octavia-worker and octavia-health-manager (amphorav2 without a jobboard): octavia 11.0.0's
# ControllerWorker.run_flow (octavia/controller/worker/v2/controller_worker.py, tag 11.0.0) calls the flow
# factory as func(*args) and hands its keyword arguments to the taskflow engine instead, so
# create_load_balancer's listeners= never reaches get_create_load_balancer_flow: a load balancer created in
# one call (listeners, pools, members, monitors: what OCCM sends) goes ACTIVE on an amphora that never got
# a haproxy configuration, until the health manager fails it over. Upstream fixed it in 12.0.0 (commit
# 216cce39c, "Fix full graph loadbalancer creation if jobboard is disabled", story 2010335; Debian 12 ships
# 11.0.0 without it). Same fix here: the factory gets the keyword arguments, the engine only the store.
def _octavia_run_flow_kwargs(module):
    from importlib.metadata import version
    if version("octavia").split(".")[0] != "11":
        return
    worker = module.ControllerWorker
    run_flow = worker.run_flow

    def fixed_run_flow(self, func, *args, **kwargs):
        if module.CONF.task_flow.jobboard_enabled or not kwargs.keys() - {"store"}:
            return run_flow(self, func, *args, **kwargs)
        store = kwargs.pop("store", None)
        return run_flow(self, lambda *a: func(*a, **kwargs), *args, store=store)

    worker.run_flow = fixed_run_flow


# With the listeners passed on, 11.0.0's create flow for SINGLE topology cannot run: its listeners' part
# (LoadBalancerFlows._create_listeners_flow, octavia/controller/worker/v2/flows/load_balancer_flows.py, tag
# 11.0.0) has AmphoraePostNetworkPlug require amphorae_network_config, which no task of that flow provides
# (taskflow MissingDependencies). Upstream fixed it in 12.0.0 (commit d0a0f53dc, "Fix listener creation with
# fully-populated API", story 2010488) by getting the amphorae's network configs (GetAmphoraeNetworkConfigs,
# as the member flows do) right before that task; the same here.
def _octavia_listeners_flow_network_configs(module):
    from importlib.metadata import version
    if version("octavia").split(".")[0] != "11":
        return
    from octavia.common import constants
    from octavia.controller.worker.v2.tasks import amphora_driver_tasks, network_tasks
    flows = module.LoadBalancerFlows
    create_listeners_flow = flows._create_listeners_flow

    def fixed_create_listeners_flow(self):
        steps = create_listeners_flow(self)
        if any(constants.AMPHORAE_NETWORK_CONFIG in s.provides for s in steps):
            return steps
        at = next(i for i, s in enumerate(steps) if isinstance(s, amphora_driver_tasks.AmphoraePostNetworkPlug))
        return steps[:at] + [network_tasks.GetAmphoraeNetworkConfigs(
            name="os-peer-get-amphorae-network-configs", requires=constants.LOADBALANCER_ID,
            provides=constants.AMPHORAE_NETWORK_CONFIG)] + steps[at:]

    flows._create_listeners_flow = fixed_create_listeners_flow


def _after_import(name, patch):
    """Runs patch(module) once module `name` is imported (it is not imported here: its import order matters)."""
    import importlib.abc
    import importlib.util
    import sys

    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):
            if fullname != name:
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(fullname)
            if spec is None or spec.loader is None:
                return spec
            load = spec.loader.exec_module

            def exec_module(module):
                load(module)
                patch(module)
            spec.loader.exec_module = exec_module
            return spec
    sys.meta_path.insert(0, Finder())


# Only where the worker runs the real amphora drivers (PEER_AMPHORA=1 or region: that worker and the health manager
# get OS_PEER_OCTAVIA_FULL_GRAPH=1). The no-op peer keeps 11.0.0's behaviour (its one-call LBs' children stay
# PENDING_CREATE, which the no-op tests accept) until a CI-shaped run has been made with the fix.
if os.environ.get("OS_PEER_OCTAVIA_FULL_GRAPH") == "1":
    _after_import("octavia.controller.worker.v2.controller_worker", _octavia_run_flow_kwargs)
    _after_import("octavia.controller.worker.v2.flows.load_balancer_flows", _octavia_listeners_flow_network_configs)
EOF
cat > "$DIR/keystone/keystone.conf" <<EOF
[DEFAULT]
log_dir = $LOG
log_file = keystone.log
[database]
connection = sqlite:///$DIR/keystone/keystone.db
[identity]
# bcrypt's minimum cost: a password check takes ~1 ms instead of ~0.25 s of CPU (each login of
# a service, of the CLI, of a test), which matters on a small test machine.
password_hash_rounds = 4
[token]
provider = fernet
[fernet_tokens]
key_repository = $DIR/keystone/fernet-keys
[fernet_receipts]
key_repository = $DIR/keystone/fernet-keys
[credential]
key_repository = $DIR/keystone/credential-keys
[oslo_concurrency]
lock_path = $DIR/keystone/lock
EOF

authtoken() { # section user
  cat <<EOF
[$1]
interface = public
www_authenticate_uri = http://$HOST:$KEYSTONE_PORT
auth_url = http://$HOST:$KEYSTONE_PORT
auth_type = password
project_domain_name = Default
user_domain_name = Default
project_name = service
username = $2
password = $SERVICE_PASSWORD
EOF
}
octavia_conf() { # port logfile providers [transport url, default RegionOne's bus]
  cat <<EOF
[DEFAULT]
log_dir = $LOG
log_file = $2
$(if [ "$OCTAVIA_WORKER" = 1 ]; then
  echo "# The amphora provider casts to octavia-worker (no-op drivers) over the peer's RabbitMQ."
  echo "transport_url = ${4:-$RABBIT_URL}"
else
  echo "# No message bus (OCTAVIA_WORKER=0): the amphora provider's casts to octavia-worker go nowhere,"
  echo "# so amphora load balancers stay PENDING_CREATE. The ovn provider needs no bus (ACTIVE/ONLINE)."
  echo "transport_url = fake://"
fi)
[api_settings]
bind_host = $HOST
bind_port = $1
auth_strategy = keystone
enabled_provider_drivers = $3
default_provider_driver = amphora
[database]
connection = sqlite:///$DIR/octavia/octavia.db
$(authtoken keystone_authtoken octavia)
service_token_roles_required = true
$(authtoken service_auth octavia)
[driver_agent]
status_socket_path = $AGENT_SOCKET_DIR/status.sock
stats_socket_path = $AGENT_SOCKET_DIR/stats.sock
get_socket_path = $AGENT_SOCKET_DIR/get.sock
[ovn]
ovn_nb_connection = tcp:$HOST:$OVN_NB_PORT
[oslo_concurrency]
lock_path = $DIR/octavia/lock
[oslo_messaging_rabbit]
# Loopback only: no AMQP heartbeats (uwsgi runs octavia-api without a thread for them).
heartbeat_timeout_threshold = 0
EOF
}
AMPHORA="amphora:'The Octavia Amphora driver.'"
OVN="ovn:'Octavia OVN driver.'"
octavia_conf "$OCTAVIA_PORT" octavia-api.log "$AMPHORA$([ "$OVN_PROVIDER" = 1 ] && echo ",$OVN")" > "$DIR/octavia/octavia.conf"
# The API of region RegionNoOvn (a cloud without OVN): same database, worker and bus, amphora only.
octavia_conf "$OCTAVIA_NOOVN_PORT" octavia-api-noovn.log "$AMPHORA" > "$DIR/octavia/octavia-noovn.conf"
# PEER_AMPHORA=region: the API of region RegionAmphora, amphora only, whose casts go to the real worker's vhost.
[ "$PEER_AMPHORA" = region ] && octavia_conf "$AMP_API_PORT" octavia-api-amphora.log "$AMPHORA" "$AMP_RABBIT_URL" > "$DIR/octavia/octavia-amphora-api.conf"

if [ "$OCTAVIA_WORKER" = 1 ]; then
  # octavia-worker reads octavia.conf and then this file. Zed's "amphora" provider is the
  # amphorav2 (taskflow) driver; without a jobboard the worker runs each flow itself. The
  # no-op drivers stand in for nova (amphora VMs), the amphora agent and neutron plumbing, so
  # flows complete and objects go ACTIVE (operating_status stays OFFLINE: no amphora sends
  # heartbeats). octavia-api keeps the real neutron driver, so a VIP is a real neutron port.
  cat > "$DIR/octavia/octavia-worker.conf" <<EOF
[DEFAULT]
log_file = octavia-worker.log
[controller_worker]
workers = 1
amphora_driver = amphora_noop_driver
compute_driver = compute_noop_driver
# network_noop_driver, except that deleting a load balancer also deletes its VIP port in neutron
# (os_peer_octavia.py below); plain network_noop_driver would leave the port behind.
network_driver = network_noop_driver_vip_cleanup
image_driver = image_noop_driver
volume_driver = volume_noop_driver
loadbalancer_topology = SINGLE
# Put on the (no-op) amphora's config drive; it must exist.
client_ca = $DIR/octavia/certs/ca.pem
[task_flow]
jobboard_enabled = false
[oslo_messaging]
# Topic of the deprecated amphorav1 consumer, which octavia-worker always runs beside the v2 one.
topic = octavia_prov
[certificates]
# The create-amphora flow still signs a server certificate for each (no-op) amphora.
cert_generator = local_cert_generator
ca_certificate = $DIR/octavia/certs/ca.pem
ca_private_key = $DIR/octavia/certs/ca.key
EOF
  mkdir -p "$DIR/octavia/plugin/os_peer_octavia-1.0.dist-info"
  cat > "$DIR/octavia/plugin/os_peer_octavia.py" <<'EOF'
"""os-peer: Octavia's no-op network driver, plus real VIP port clean-up.

octavia-api allocates a load balancer's VIP as a real neutron port (device_owner "Octavia");
with the plain no-op driver in octavia-worker that port would outlive the load balancer.
"""
from octavia.network.drivers.neutron import allowed_address_pairs
from octavia.network.drivers.noop_driver import driver as noop


class NoopNetworkDriverVipCleanup(noop.NoopNetworkDriver):
    def deallocate_vip(self, vip):
        super().deallocate_vip(vip)
        # The real driver deletes the VIP port only if octavia created it; the (fake) amphora
        # port ids the no-op driver recorded are not found in neutron and are skipped.
        allowed_address_pairs.AllowedAddressPairsDriver().deallocate_vip(vip)
EOF
  printf 'Metadata-Version: 2.1\nName: os-peer-octavia\nVersion: 1.0\n' \
    > "$DIR/octavia/plugin/os_peer_octavia-1.0.dist-info/METADATA"
  printf '[octavia.network.drivers]\nnetwork_noop_driver_vip_cleanup = os_peer_octavia:NoopNetworkDriverVipCleanup\n' \
    > "$DIR/octavia/plugin/os_peer_octavia-1.0.dist-info/entry_points.txt"
  if [ ! -f "$DIR/octavia/certs/ca.pem" ]; then
    mkdir -p "$DIR/octavia/certs"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj "/CN=os-peer octavia CA" \
      -keyout "$DIR/octavia/certs/ca.key" -out "$DIR/octavia/certs/ca.pem" 2>>"$LOG/setup.log" \
      || die "openssl could not make the octavia CA (log: $LOG/setup.log)"
  fi
fi

if [ "$RABBIT" = 1 ]; then
  # RabbitMQ as a plain process (not the Debian service): own node name, mnesia, cookie, logs in DIR.
  mkdir -p "$DIR/rabbitmq/home"
  echo '[].' > "$DIR/rabbitmq/enabled_plugins"
  cat > "$DIR/rabbitmq/rabbitmq.conf" <<EOF
listeners.tcp.default = $HOST:$RABBIT_PORT
disk_free_limit.absolute = 50MB
log.file = $LOG/rabbitmq.log
log.console = false
$([ "$PEER_AMPHORA" = region ] && amp_rabbit_definitions || true)
EOF
fi

if [ "$NOVA" = 1 ]; then
  mkdir -p "$DIR/glance/images" "$DIR/glance/staging" "$DIR/glance/tasks" "$DIR/glance/lock" "$DIR/placement/lock" \
    "$DIR/nova/instances" "$DIR/nova/lock"
  # Debian's glance-api-paste.ini (glance-common), keystone pipeline only.
  cat > "$DIR/glance/glance-api-paste.ini" <<EOF
[pipeline:glance-api-keystone]
pipeline = cors healthcheck http_proxy_to_wsgi versionnegotiation osprofiler authtoken context rootapp
[composite:rootapp]
paste.composite_factory = glance.api:root_app_factory
/: apiversions
/v2: apiv2app
[app:apiversions]
paste.app_factory = glance.api.versions:create_resource
[app:apiv2app]
paste.app_factory = glance.api.v2.router:API.factory
[filter:healthcheck]
paste.filter_factory = oslo_middleware:Healthcheck.factory
backends = disable_by_file
disable_by_file_path = $DIR/glance/healthcheck_disable
[filter:versionnegotiation]
paste.filter_factory = glance.api.middleware.version_negotiation:VersionNegotiationFilter.factory
[filter:context]
paste.filter_factory = glance.api.middleware.context:ContextMiddleware.factory
[filter:authtoken]
paste.filter_factory = keystonemiddleware.auth_token:filter_factory
delay_auth_decision = true
[filter:osprofiler]
paste.filter_factory = osprofiler.web:WsgiMiddleware.factory
[filter:cors]
paste.filter_factory = oslo_middleware.cors:filter_factory
oslo_config_project = glance
oslo_config_program = glance-api
[filter:http_proxy_to_wsgi]
paste.filter_factory = oslo_middleware:HTTPProxyToWSGI.factory
EOF
  cat > "$DIR/glance/glance-api.conf" <<EOF
[DEFAULT]
bind_host = $HOST
bind_port = $GLANCE_PORT
# 0: serve from the one eventlet process (no forked workers)
workers = 0
log_dir = $LOG
log_file = glance-api.log
enabled_backends = file:file
[database]
connection = sqlite:///$DIR/glance/glance.db
$(authtoken keystone_authtoken glance)
[paste_deploy]
flavor = keystone
config_file = $DIR/glance/glance-api-paste.ini
[glance_store]
default_backend = file
[file]
filesystem_store_datadir = $DIR/glance/images/
[os_glance_staging_store]
filesystem_store_datadir = $DIR/glance/staging/
[os_glance_tasks_store]
filesystem_store_datadir = $DIR/glance/tasks/
[oslo_concurrency]
lock_path = $DIR/glance/lock
EOF
  cat > "$DIR/placement/placement.conf" <<EOF
[DEFAULT]
log_dir = $LOG
log_file = placement-api.log
[api]
auth_strategy = keystone
[placement_database]
connection = sqlite:///$DIR/placement/placement.db
$(authtoken keystone_authtoken placement)
[oslo_concurrency]
lock_path = $DIR/placement/lock
EOF
  # Debian's nova api-paste.ini (nova-common), without the metadata API and noauth2 pipelines.
  cat > "$DIR/nova/api-paste.ini" <<EOF
[composite:osapi_compute]
use = call:nova.api.openstack.urlmap:urlmap_factory
/: oscomputeversions
/v2: oscomputeversion_legacy_v2
/v2.1: oscomputeversion_v2
/v2/+: openstack_compute_api_v21_legacy_v2_compatible
/v2.1/+: openstack_compute_api_v21
[composite:openstack_compute_api_v21]
use = call:nova.api.auth:pipeline_factory_v21
keystone = healthcheck cors http_proxy_to_wsgi compute_req_id faultwrap request_log sizelimit osprofiler authtoken keystonecontext osapi_compute_app_v21
[composite:openstack_compute_api_v21_legacy_v2_compatible]
use = call:nova.api.auth:pipeline_factory_v21
keystone = healthcheck cors http_proxy_to_wsgi compute_req_id faultwrap request_log sizelimit osprofiler authtoken keystonecontext legacy_v2_compatible osapi_compute_app_v21
[filter:healthcheck]
use = egg:oslo.middleware#healthcheck
backends = disable_by_file
disable_by_file_path = $DIR/nova/healthcheck_disable
[filter:request_log]
paste.filter_factory = nova.api.openstack.requestlog:RequestLog.factory
[filter:compute_req_id]
paste.filter_factory = nova.api.compute_req_id:ComputeReqIdMiddleware.factory
[filter:faultwrap]
paste.filter_factory = nova.api.openstack:FaultWrapper.factory
[filter:osprofiler]
paste.filter_factory = nova.profiler:WsgiMiddleware.factory
[filter:sizelimit]
paste.filter_factory = oslo_middleware:RequestBodySizeLimiter.factory
[filter:http_proxy_to_wsgi]
paste.filter_factory = oslo_middleware.http_proxy_to_wsgi:HTTPProxyToWSGI.factory
[filter:legacy_v2_compatible]
paste.filter_factory = nova.api.openstack:LegacyV2CompatibleWrapper.factory
[app:osapi_compute_app_v21]
paste.app_factory = nova.api.openstack.compute:APIRouterV21.factory
[pipeline:oscomputeversions]
pipeline = cors faultwrap request_log http_proxy_to_wsgi oscomputeversionapp
[pipeline:oscomputeversion_v2]
pipeline = cors compute_req_id faultwrap request_log http_proxy_to_wsgi oscomputeversionapp_v2
[pipeline:oscomputeversion_legacy_v2]
pipeline = cors compute_req_id faultwrap request_log http_proxy_to_wsgi legacy_v2_compatible oscomputeversionapp_v2
[app:oscomputeversionapp]
paste.app_factory = nova.api.openstack.compute.versions:Versions.factory
[app:oscomputeversionapp_v2]
paste.app_factory = nova.api.openstack.compute.versions:VersionsV2.factory
[filter:cors]
paste.filter_factory = oslo_middleware.cors:filter_factory
oslo_config_project = nova
[filter:keystonecontext]
paste.filter_factory = nova.api.auth:NovaKeystoneContext.factory
[filter:authtoken]
paste.filter_factory = keystonemiddleware.auth_token:filter_factory
EOF
  ksa() { # section user: keystoneauth options for service-to-service calls
    cat <<EOF
[$1]
region_name = $REGION
valid_interfaces = public
auth_type = password
auth_url = http://$HOST:$KEYSTONE_PORT/v3
project_name = service
project_domain_name = Default
user_domain_name = Default
username = $2
password = $SERVICE_PASSWORD
EOF
  }
  cat > "$DIR/nova/nova.conf" <<EOF
[DEFAULT]
host = $COMPUTE_HOST
my_ip = $HOST
state_path = $DIR/nova
instances_path = $DIR/nova/instances
log_dir = $LOG
transport_url = $RABBIT_URL
# Servers "run" in nova's in-memory fake hypervisor: no VMs, no libvirt, no images downloaded.
compute_driver = fake.FakeDriver
enabled_apis = osapi_compute
# Periodic tasks start at once, not after a random delay of up to 60 s (the scheduler's host
# discovery below is one).
periodic_fuzzy_delay = 0
[api]
auth_strategy = keystone
[wsgi]
api_paste_config = $DIR/nova/api-paste.ini
[api_database]
connection = sqlite:///$DIR/nova/nova_api.db
[database]
connection = sqlite:///$DIR/nova/nova.db
$(authtoken keystone_authtoken nova)
$(ksa placement nova)
$(ksa neutron nova)
[glance]
region_name = $REGION
valid_interfaces = public
[cinder]
os_region_name = $REGION
[conductor]
workers = 1
[scheduler]
workers = 1
# Maps new compute hosts into cell1 (what "nova-manage cell_v2 discover_hosts" does).
discover_hosts_in_cells_interval = 2
[vnc]
enabled = false
[oslo_concurrency]
lock_path = $DIR/nova/lock
[oslo_messaging_rabbit]
heartbeat_timeout_threshold = 0
EOF
  # nova-compute reaches the databases only through nova-conductor: its file has no DB sections
  # (as devstack's nova-cpu.conf), else it logs "No DB access allowed in nova-compute".
  awk '/^\[/{skip = ($0 == "[database]" || $0 == "[api_database]")} !skip' "$DIR/nova/nova.conf" \
    > "$DIR/nova/nova-compute.conf"
  echo "[DEFAULT]
log_file = nova-api.log" > "$DIR/nova/nova-api.conf"
  cat > "$DIR/nova/nova-api-wsgi.py" <<'EOF'
# Debian's /usr/bin/nova-api-wsgi (nova-api package); config from $OS_NOVA_CONFIG_DIR.
from nova.api.openstack.compute.wsgi import init_application
application = init_application()
EOF
fi

if [ "$NEUTRON" = 1 ]; then
  # Debian's neutron api-paste.ini (neutron-common), with the healthcheck file moved into DIR.
  cat > "$DIR/neutron/api-paste.ini" <<EOF
[composite:neutron]
use = egg:Paste#urlmap
/: neutronversions_composite
/healthcheck: healthcheck
/v2.0: neutronapi_v2_0
[composite:neutronapi_v2_0]
use = call:neutron.auth:pipeline_factory
noauth = cors http_proxy_to_wsgi request_id fake_project_id catch_errors osprofiler extensions neutronapiapp_v2_0
keystone = cors http_proxy_to_wsgi request_id catch_errors osprofiler authtoken keystonecontext extensions neutronapiapp_v2_0
[composite:neutronversions_composite]
use = call:neutron.auth:pipeline_factory
noauth = cors http_proxy_to_wsgi neutronversions
keystone = cors http_proxy_to_wsgi neutronversions
[filter:request_id]
paste.filter_factory = oslo_middleware:RequestId.factory
[filter:catch_errors]
paste.filter_factory = oslo_middleware:CatchErrors.factory
[filter:cors]
paste.filter_factory = oslo_middleware.cors:filter_factory
oslo_config_project = neutron
[filter:fake_project_id]
paste.filter_factory = neutron.auth:NoauthFakeProjectId.factory
[filter:http_proxy_to_wsgi]
paste.filter_factory = oslo_middleware.http_proxy_to_wsgi:HTTPProxyToWSGI.factory
[filter:keystonecontext]
paste.filter_factory = neutron.auth:NeutronKeystoneContext.factory
[filter:authtoken]
paste.filter_factory = keystonemiddleware.auth_token:filter_factory
[filter:extensions]
paste.filter_factory = neutron.api.extensions:plugin_aware_extension_middleware_factory
[app:neutronversions]
paste.app_factory = neutron.pecan_wsgi.app:versions_factory
[app:neutronapiapp_v2_0]
paste.app_factory = neutron.api.v2.router:APIRouter.factory
[filter:osprofiler]
paste.filter_factory = osprofiler.web:WsgiMiddleware.factory
[app:healthcheck]
paste.app_factory = oslo_middleware:Healthcheck.app_factory
backends = disable_by_file
disable_by_file_path = $DIR/neutron/healthcheck_disable
EOF
  cat > "$DIR/neutron/neutron.conf" <<EOF
[DEFAULT]
bind_host = $HOST
bind_port = $NEUTRON_PORT
# ML2/OVN registers its OVN connections in forked API workers, so one API worker is required.
api_workers = 1
rpc_workers = 0
rpc_state_report_workers = 0
core_plugin = ml2
service_plugins = ovn-router
auth_strategy = keystone
api_paste_config = $DIR/neutron/api-paste.ini
transport_url = fake://
state_path = $DIR/neutron
log_dir = $LOG
log_file = neutron-server.log
# With nova: port events (network-vif-plugged, network-changed) go to nova's external events API,
# so a server's addresses show a floating IP as soon as it is associated.
notify_nova_on_port_status_changes = $([ "$NOVA" = 1 ] && echo true || echo false)
notify_nova_on_port_data_changes = $([ "$NOVA" = 1 ] && echo true || echo false)
[database]
connection = sqlite:///$DIR/neutron/neutron.db
$(authtoken keystone_authtoken neutron)
$([ "$NOVA" = 1 ] && authtoken nova neutron && echo "region_name = $REGION")
[oslo_concurrency]
lock_path = $DIR/neutron/lock
[ml2]
type_drivers = flat,geneve
tenant_network_types = geneve
mechanism_drivers = ovn
extension_drivers = port_security
[ml2_type_flat]
flat_networks = public
[ml2_type_geneve]
vni_ranges = 1:65536
max_header_size = 38
[ovn]
ovn_nb_connection = tcp:$HOST:$OVN_NB_PORT
ovn_sb_connection = tcp:$HOST:$OVN_SB_PORT
ovn_metadata_enabled = false
EOF
fi

# With the data path: a config file more for neutron, octavia-driver-agent and nova-compute each.
NEUTRON_DP_ARGS=(); OCTAVIA_DP_ARGS=(); NOVA_DP_ARGS=(); NOVA_COMPUTE_ENV=()
if [ "$OVN_METADATA" = 1 ] && [ "$PEER_DATAPATH" != 1 ]; then
  # OVN_METADATA=1 without the data path: only neutron's OVN metadata port per network (device_owner
  # network:distributed, made by neutron itself, no metadata agent). ovn-octavia-provider 3.0.0 takes
  # it as its health checks' source port (helper.py _ensure_hm_ovn_port); without it every health
  # monitor on an ovn pool goes to provisioning_status ERROR while the load balancer stays ACTIVE.
  printf '[ovn]\novn_metadata_enabled = true\n' > "$DIR/neutron/neutron-metadata.conf"
  NEUTRON_DP_ARGS=(--config-file "$DIR/neutron/neutron-metadata.conf")
fi
if [ "$PEER_DATAPATH" = 1 ]; then
  dp_config
  NEUTRON_DP_ARGS=(--config-file "$DIR/neutron/neutron-datapath.conf")
  OCTAVIA_DP_ARGS=(--config-file "$DIR/octavia/octavia-datapath.conf")
  NOVA_DP_ARGS=(--config-file "$DIR/nova/nova-datapath.conf")
  NOVA_COMPUTE_ENV=(env PYTHONPATH="$DIR/nova/plugin" OVS_RUNDIR="$DIR/ovs" OS_PEER_VM_NETNS_DIR="$DIR/vm-netns")
  [ "$PEER_AMPHORA" != 0 ] && { ampvm_config; NOVA_COMPUTE_ENV+=(OS_PEER_AMPHORA_DIR="$DIR/amphora"); }
  outer=$(dp_outer_mount_ns)
  if [ -n "$outer" ]; then NOVA_COMPUTE_ENV=(nsenter --mount="$outer" "${NOVA_COMPUTE_ENV[@]}"); fi
fi

# ---------------------------------------------------------------- databases (first run only)
# The steps are independent, so they run side by side (each is mostly Python start-up time).
quiet() { "$@" >>"$LOG/setup.log" 2>&1 || { tail -30 "$LOG/setup.log" >&2; echo "failed: $*" >&2; exit 1; }; }
pymain() { # prog module args...: run an OpenStack console script's main(). Debian ships most of the
  # /usr/bin wrappers in packages that also bring init scripts and /etc files this peer does not use.
  local prog=$1 mod=$2; shift 2
  "$PY" -c "import sys; sys.argv[0] = '$prog'; from $mod import main; sys.exit(main())" "$@"
}
wal() { "$PY" -c "import sqlite3,sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA journal_mode=WAL')" "$1"; }
SETUP_JOBS=""

if [ ! -f "$DIR/keystone/.db-ready" ]; then
  rm -rf "$DIR/keystone/keystone.db"* "$DIR/keystone/fernet-keys" "$DIR/keystone/credential-keys"
  KM="keystone-manage --config-file $DIR/keystone/keystone.conf"
  ( quiet $KM fernet_setup --keystone-user root --keystone-group root ) & SETUP_JOBS="$SETUP_JOBS $!"
  ( quiet $KM credential_setup --keystone-user root --keystone-group root ) & SETUP_JOBS="$SETUP_JOBS $!"
  (
    quiet $KM db_sync
    quiet $KM bootstrap --bootstrap-password "$ADMIN_PASSWORD" --bootstrap-username admin \
      --bootstrap-project-name admin --bootstrap-role-name admin \
      --bootstrap-service-name keystone --bootstrap-region-id "$REGION" \
      --bootstrap-public-url "http://$HOST:$KEYSTONE_PORT/v3" \
      --bootstrap-internal-url "http://$HOST:$KEYSTONE_PORT/v3"
    # WAL lets readers and a writer in keystone's two worker processes overlap.
    wal "$DIR/keystone/keystone.db"
  ) & SETUP_JOBS="$SETUP_JOBS $!"
fi

if [ ! -f "$DIR/octavia/.db-ready" ]; then
  # octavia-db-manage's migrations need ALTER TABLE support that sqlite lacks, so the schema is
  # created from Octavia's models and lookup tables are seeded exactly as Octavia's own
  # functional tests do.
  rm -f "$DIR/octavia/octavia.db"*
  (
    quiet "$PY" - "sqlite:///$DIR/octavia/octavia.db" <<'EOF'
import sys, warnings
warnings.simplefilter("ignore")
import sqlalchemy as sa
from sqlalchemy import orm
from octavia.common import constants as c
from octavia.db import base_models, models
engine = sa.create_engine(sys.argv[1])
base_models.BASE.metadata.create_all(engine)
with orm.Session(engine) as s, s.begin():
    for names, cls in [
            (c.SUPPORTED_PROVISIONING_STATUSES, models.ProvisioningStatus),
            (c.SUPPORTED_HEALTH_MONITOR_TYPES, models.HealthMonitorType),
            (c.SUPPORTED_LB_ALGORITHMS, models.Algorithm),
            (c.SUPPORTED_PROTOCOLS, models.Protocol),
            (c.SUPPORTED_OPERATING_STATUSES, models.OperatingStatus),
            (c.SUPPORTED_SP_TYPES, models.SessionPersistenceType),
            (c.SUPPORTED_AMPHORA_ROLES, models.AmphoraRoles),
            (c.SUPPORTED_LB_TOPOLOGIES, models.LBTopology),
            (c.SUPPORTED_VRRP_AUTH, models.VRRPAuthMethod),
            (c.SUPPORTED_L7RULE_TYPES, models.L7RuleType),
            (c.SUPPORTED_L7RULE_COMPARE_TYPES, models.L7RuleCompareType),
            (c.SUPPORTED_L7POLICY_ACTIONS, models.L7PolicyAction),
            (c.SUPPORTED_CLIENT_AUTH_MODES, models.ClientAuthenticationMode)]:
        s.add_all(cls(name=n) for n in names)
    s.add(models.FlavorProfile(id=c.NIL_UUID, name='DELETED-PLACEHOLDER',
                               provider_name=c.DELETED, flavor_data='{}'))
    s.add(models.AvailabilityZoneProfile(id=c.NIL_UUID, name='DELETED-PLACEHOLDER',
                                         provider_name=c.DELETED, availability_zone_data='{}'))
    s.flush()
    s.add(models.Flavor(id=c.NIL_UUID, flavor_profile_id=c.NIL_UUID, name='DELETED-PLACEHOLDER',
                        enabled=False, description='Placeholder for DELETED LBs'))
    s.add(models.AvailabilityZone(availability_zone_profile_id=c.NIL_UUID, name=c.NIL_UUID,
                                  enabled=False, description='Placeholder for DELETED LBs'))
EOF
    wal "$DIR/octavia/octavia.db"
  ) & SETUP_JOBS="$SETUP_JOBS $!"
fi

if [ "$NEUTRON" = 1 ] && [ ! -f "$DIR/neutron/.db-ready" ]; then
  # Same approach as Octavia: neutron-db-manage does not support sqlite; the schema comes from
  # neutron's head models (as in neutron's unit tests).
  rm -f "$DIR/neutron/neutron.db"*
  (
    quiet "$PY" - "sqlite:///$DIR/neutron/neutron.db" <<'EOF'
import sys, warnings
warnings.simplefilter("ignore")
import sqlalchemy as sa
from neutron.db.migration.models import head
head.get_metadata().create_all(sa.create_engine(sys.argv[1]))
EOF
    wal "$DIR/neutron/neutron.db"
  ) & SETUP_JOBS="$SETUP_JOBS $!"
fi

if [ "$NOVA" = 1 ]; then
  # Nova cells v2 on sqlite: API DB, cell0 and cell1 (nova's alembic migrations support sqlite,
  # as do glance's and placement's).
  if [ ! -f "$DIR/nova/.db-ready" ]; then
    rm -f "$DIR/nova/"*.db*
    NM=(pymain nova-manage nova.cmd.manage --config-file "$DIR/nova/nova.conf")
    printf '[database]\nconnection = sqlite:///%s/nova/nova_cell0.db\n' "$DIR" > "$DIR/nova/cell0.conf"
    ( quiet "${NM[@]}" db sync --local_cell; wal "$DIR/nova/nova.db" ) & SETUP_JOBS="$SETUP_JOBS $!"
    ( quiet "${NM[@]}" --config-file "$DIR/nova/cell0.conf" db sync --local_cell; wal "$DIR/nova/nova_cell0.db"
    ) & SETUP_JOBS="$SETUP_JOBS $!"
    (
      quiet "${NM[@]}" api_db sync
      quiet "${NM[@]}" cell_v2 map_cell0 --database_connection "sqlite:///$DIR/nova/nova_cell0.db"
      quiet "${NM[@]}" cell_v2 create_cell --name cell1
      wal "$DIR/nova/nova_api.db"
    ) & SETUP_JOBS="$SETUP_JOBS $!"
  fi
  if [ ! -f "$DIR/glance/.db-ready" ]; then
    rm -f "$DIR/glance/glance.db"*
    (
      quiet pymain glance-manage glance.cmd.manage --config-file "$DIR/glance/glance-api.conf" db sync
      wal "$DIR/glance/glance.db"
      touch "$DIR/glance/.db-ready"
    ) & SETUP_JOBS="$SETUP_JOBS $!"
  fi
  if [ ! -f "$DIR/placement/.db-ready" ]; then
    rm -f "$DIR/placement/placement.db"*
    (
      quiet pymain placement-manage placement.cmd.manage --config-file "$DIR/placement/placement.conf" db sync
      wal "$DIR/placement/placement.db"
      touch "$DIR/placement/.db-ready"
    ) & SETUP_JOBS="$SETUP_JOBS $!"
  fi
fi

OVN_DBS="nb"; [ "$NEUTRON" = 1 ] && OVN_DBS="nb sb"
for d in $OVN_DBS; do
  [ -f "$DIR/ovn/ovn${d}_db.db" ] || quiet ovsdb-tool create "$DIR/ovn/ovn${d}_db.db" "/usr/share/ovn/ovn-${d}.ovsschema"
done

if [ -n "$SETUP_JOBS" ]; then
  for j in $SETUP_JOBS; do wait "$j" || die "database setup failed (log: $LOG/setup.log)"; done
  [ -d "$DIR/keystone/fernet-keys" ] && chmod 700 "$DIR/keystone/fernet-keys" "$DIR/keystone/credential-keys"
  touch "$DIR/keystone/.db-ready" "$DIR/octavia/.db-ready"
  [ "$NEUTRON" = 1 ] && touch "$DIR/neutron/.db-ready"
  [ "$NOVA" = 1 ] && touch "$DIR/nova/.db-ready"
  say "databases created"
fi

# ---------------------------------------------------------------- services
UWSGI_COMMON=(--plugins python3 --master --lazy-apps --die-on-term --need-app --buffer-size 65535
  --add-header "Connection: close" --threads 1)
# sqlite connections must not cross threads, hence one thread per uwsgi worker. "Connection: close"
# keeps HTTP clients from reusing sockets that uwsgi's plain http-socket would drop.

for d in $OVN_DBS; do
  port=$OVN_NB_PORT; [ "$d" = sb ] && port=$OVN_SB_PORT
  launch "ovn-$d" "$LOG/ovsdb-server-$d.out" ovsdb-server "$DIR/ovn/ovn${d}_db.db" \
    --remote="ptcp:$port:$HOST" --remote="punix:$DIR/ovn/ovn${d}_db.sock" \
    --unixctl="$DIR/ovn/ovn${d}_db.ctl" --log-file="$LOG/ovsdb-server-$d.log"
done

if [ "$RABBIT" = 1 ]; then
  # Our own epmd in the foreground (erl is told not to start a daemonized one that would escape
  # the pids file); the exec -a name carries DIR so that stop.sh can recognise it.
  launch epmd "$LOG/epmd.out" bash -c 'exec -a "epmd [$1]" epmd -address "$2" -port "$3"' epmd "$DIR/" "$HOST" "$EPMD_PORT"
  launch rabbitmq "$LOG/rabbitmq.out" env HOME="$DIR/rabbitmq/home" RABBITMQ_CONF_ENV_FILE=/dev/null \
    RABBITMQ_NODENAME=os-peer@localhost RABBITMQ_CONFIG_FILE="$DIR/rabbitmq/rabbitmq.conf" \
    RABBITMQ_ENABLED_PLUGINS_FILE="$DIR/rabbitmq/enabled_plugins" RABBITMQ_MNESIA_BASE="$DIR/rabbitmq/mnesia" \
    RABBITMQ_LOG_BASE="$LOG" RABBITMQ_PID_FILE="$DIR/rabbitmq/rabbitmq.pid" RABBITMQ_DIST_PORT=$RABBIT_DIST_PORT \
    ERL_EPMD_ADDRESS=$HOST ERL_EPMD_PORT=$EPMD_PORT \
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS="-start_epmd false -kernel inet_dist_use_interface {127,0,0,1}" \
    /usr/lib/rabbitmq/bin/rabbitmq-server
fi

launch keystone "$LOG/keystone-uwsgi.log" env OS_KEYSTONE_CONFIG_FILES="$DIR/keystone/keystone.conf" \
  uwsgi "${UWSGI_COMMON[@]}" --processes 2 --http-socket "$HOST:$KEYSTONE_PORT" \
  --wsgi-file /usr/bin/keystone-wsgi-public --chdir "$DIR/keystone"

for d in $OVN_DBS; do  # OVN needs its NB_Global/SB_Global rows, normally made by ovn-ctl
  port=$OVN_NB_PORT; [ "$d" = sb ] && port=$OVN_SB_PORT
  for _ in $(seq 1 40); do ovn-${d}ctl --db="tcp:$HOST:$port" --timeout=5 init 2>/dev/null && break; sleep 0.25; done
done

[ "$PEER_DATAPATH" = 1 ] && { dp_env; dp_start; }
if [ "$NOVA" = 1 ] && [ "$PEER_DATAPATH" != 1 ]; then
  # No ovn-controller runs, so ML2/OVN would refuse to bind nova's ports ("no OVN chassis for
  # host"). A fake chassis for the compute host, made as neutron's functional tests do
  # (add_fake_chassis: Chassis + Chassis_Private rows in the southbound DB), lets binding succeed.
  SB="tcp:$HOST:$OVN_SB_PORT"
  if [ -z "$(ovn-sbctl --db="$SB" --timeout=5 --bare --columns=name find Chassis name="$COMPUTE_HOST")" ]; then
    quiet ovn-sbctl --db="$SB" --timeout=5 chassis-add "$COMPUTE_HOST" geneve "$HOST" \
      -- set Chassis "$COMPUTE_HOST" hostname="$COMPUTE_HOST" external_ids:ovn-bridge-mappings=public:br-ex
    # nb_cfg starts at 1, not 0: neutron ignores a Chassis_Private update whose old nb_cfg was 0,
    # so the agent it caches would keep its first timestamp and be reported dead later.
    NB="tcp:$HOST:$OVN_NB_PORT"
    cfg=$(ovn-nbctl --db="$NB" --timeout=5 get NB_Global . nb_cfg)
    [ "$cfg" -gt 0 ] || { cfg=1; quiet ovn-nbctl --db="$NB" --timeout=5 set NB_Global . nb_cfg=1; }
    quiet ovn-sbctl --db="$SB" --timeout=5 create Chassis_Private name="$COMPUTE_HOST" \
      chassis="$(ovn-sbctl --db="$SB" --bare --columns=_uuid find Chassis name="$COMPUTE_HOST")" \
      nb_cfg="$cfg" nb_cfg_timestamp="$(date +%s%3N)"
  fi
  # What ovn-controller (with ovn-northd) would do for that chassis, done by a small loop:
  # - neutron counts the chassis alive while Chassis_Private.nb_cfg keeps up with NB_Global.nb_cfg
  #   (neutron bumps that when agents are listed);
  # - a port bound to the chassis is marked up in the NB DB, so neutron sets it ACTIVE.
  cat > "$DIR/ovn/fake-chassis.sh" <<'EOF'
# args: NB SB chassis-name
nb() { ovn-nbctl --db="$1" --timeout=5 "${@:2}"; }
last=
while :; do
  cfg=$(nb "$1" get NB_Global . nb_cfg) && [ "$cfg" != "$last" ] &&
    ovn-sbctl --db="$2" --timeout=5 set Chassis_Private "$3" nb_cfg="$cfg" nb_cfg_timestamp="$(date +%s%3N)" &&
    last=$cfg
  for port in $(nb "$1" --bare --columns=name find Logical_Switch_Port options:requested-chassis="$3" 'up!=true'); do
    nb "$1" set Logical_Switch_Port "$port" up=true
  done
  sleep 1
done
EOF
  launch ovn-fake-chassis "$LOG/ovn-fake-chassis.log" bash "$DIR/ovn/fake-chassis.sh" \
    "tcp:$HOST:$OVN_NB_PORT" "$SB" "$COMPUTE_HOST"
fi

if ! running octavia-driver-agent; then rm -f "$AGENT_SOCKET_DIR"/{status,stats,get}.sock; fi
OCTAVIA_ENV=(PYTHONPATH="$DIR/lib" OS_PEER_AGENT_SOCKET_DIR="$AGENT_SOCKET_DIR")
# The fixed ovn provider (datapath.sh) comes first on the octavia processes' PYTHONPATH.
[ "$PEER_DATAPATH" = 1 ] && [ "$PEER_OVN_PROVIDER" = fixed ] && OCTAVIA_ENV[0]="PYTHONPATH=$DP_PROVIDER_DIR:$DIR/lib"
launch octavia-driver-agent "$LOG/octavia-driver-agent.out" env "${OCTAVIA_ENV[@]}" \
  octavia-driver-agent --config-file "$DIR/octavia/octavia.conf" "${OCTAVIA_DP_ARGS[@]}" --log-file "$LOG/octavia-driver-agent.log"
for _ in $(seq 1 80); do [ -S "$AGENT_SOCKET_DIR/get.sock" ] && break; sleep 0.25; done

# Neither octavia nor neutron needs keystone until the first request, so all start at once.
launch octavia-api "$LOG/octavia-uwsgi.log" env "${OCTAVIA_ENV[@]}" uwsgi "${UWSGI_COMMON[@]}" --processes 1 \
  --http-socket "$HOST:$OCTAVIA_PORT" --wsgi-file /usr/bin/octavia-wsgi \
  --pyargv "--config-file $DIR/octavia/octavia.conf" --chdir "$DIR/octavia"
launch octavia-api-noovn "$LOG/octavia-noovn-uwsgi.log" env "${OCTAVIA_ENV[@]}" uwsgi "${UWSGI_COMMON[@]}" --processes 1 \
  --http-socket "$HOST:$OCTAVIA_NOOVN_PORT" --wsgi-file /usr/bin/octavia-wsgi \
  --pyargv "--config-file $DIR/octavia/octavia-noovn.conf" --chdir "$DIR/octavia"
[ "$PEER_AMPHORA" = region ] && launch octavia-api-amphora "$LOG/octavia-amphora-uwsgi.log" env "${OCTAVIA_ENV[@]}" uwsgi "${UWSGI_COMMON[@]}" --processes 1 \
  --http-socket "$HOST:$AMP_API_PORT" --wsgi-file /usr/bin/octavia-wsgi \
  --pyargv "--config-file $DIR/octavia/octavia-amphora-api.conf" --chdir "$DIR/octavia"

if [ "$NOVA" = 1 ]; then
  launch glance-api "$LOG/glance-api.out" "$PY" -c \
    "import sys; sys.argv[0] = 'glance-api'; from glance.cmd.api import main; main()" \
    --config-file "$DIR/glance/glance-api.conf"
  launch placement-api "$LOG/placement-uwsgi.log" env OS_PLACEMENT_CONFIG_DIR="$DIR/placement" \
    uwsgi "${UWSGI_COMMON[@]}" --processes 1 --http-socket "$HOST:$PLACEMENT_PORT" \
    --wsgi-file /usr/bin/placement-api --chdir "$DIR/placement"
  launch nova-api "$LOG/nova-api-uwsgi.log" env PYTHONPATH="$DIR/lib" OS_NOVA_CONFIG_DIR="$DIR/nova" \
    OS_NOVA_CONFIG_FILES="api-paste.ini;nova.conf;nova-api.conf" \
    uwsgi "${UWSGI_COMMON[@]}" --enable-threads --processes 1 --http-socket "$HOST:$NOVA_PORT" \
    --wsgi-file "$DIR/nova/nova-api-wsgi.py" --chdir "$DIR/nova"
fi

octavia_worker() { # name full-graph(0|1) [more --config-file args]: its log is LOG/<name>.log
  local name=$1 full=$2; shift 2
  launch "$name" "$LOG/$name.out" env PYTHONPATH="$DIR/octavia/plugin:$DIR/lib" \
    OS_PEER_AGENT_SOCKET_DIR="$AGENT_SOCKET_DIR" OS_PEER_OCTAVIA_FULL_GRAPH="$full" \
    octavia-worker --config-file "$DIR/octavia/octavia.conf" \
    --config-file "$DIR/octavia/octavia-worker.conf" "$@" --log-file "$LOG/$name.log"
}
# With PEER_AMPHORA=1 the worker starts later (amp_start): its config needs the lb-mgmt network's ids.
if [ "$OCTAVIA_WORKER" = 1 ] && [ "$PEER_AMPHORA" != 1 ]; then octavia_worker octavia-worker 0; fi

if [ "$NEUTRON" = 1 ]; then
  launch neutron-server "$LOG/neutron-server.out" env PYTHONPATH="$DIR/lib" OS_PEER_SQLITE=retry "$PY" -c \
    "import sys; sys.argv[0] = 'neutron-server'; from neutron.cmd.eventlet.server import main; main()" \
    --config-file "$DIR/neutron/neutron.conf" "${NEUTRON_DP_ARGS[@]}"
fi

wait_http keystone "http://$HOST:$KEYSTONE_PORT/v3" 60 "$LOG/keystone-uwsgi.log"
say "keystone up"

# ---------------------------------------------------------------- identity data (first run only)
# Service users and catalog entries, project "demo" with user "demo" (roles member and
# load-balancer_member, which Octavia's default policy requires), an application credential for
# demo, and (with neutron) an external network "public" plus demo's "private" network, subnet and
# router, so that a load balancer can be created on private-subnet straight away. With nova: the
# nova, glance and placement users and their catalog entries (compute, image, placement).
# The marker records which optional parts were done, so a later run with more parts adds them.
# .identity-ready keeps its first format ("kaas-v1 neutron=N", which earlier versions of this script
# check); what nova and the external network add is in .identity-extra ("nova=N ext=CIDR").
IDENTITY_MARK=$(cat "$DIR/.identity-ready" "$DIR/.identity-extra" 2>/dev/null | paste -sd' ' || true)
has() { case " $IDENTITY_MARK " in *" $1=1 "*) return 0;; *) return 1;; esac; }
IDENTITY_JOB=""
# The marker also records the external network's CIDR; an older marker without it means the default.
MARK_EXT=$(echo "$IDENTITY_MARK" | sed -n 's/.*ext=\([^ ]*\).*/\1/p'); MARK_EXT=${MARK_EXT:-172.24.4.0/24}
if [ -n "$IDENTITY_MARK" ] && has neutron && [ "$MARK_EXT" != "$PEER_EXTERNAL_CIDR" ]; then
  die "the external network of the peer in $DIR has subnet $MARK_EXT, not PEER_EXTERNAL_CIDR=$PEER_EXTERNAL_CIDR: use another DIR, or stop.sh $DIR and delete it for a fresh cloud"
fi
if [ -z "$IDENTITY_MARK" ] || { [ "$NEUTRON" = 1 ] && ! has neutron; } || { [ "$NOVA" = 1 ] && ! has nova; } \
   || { [ "$PEER_AMPHORA" = region ] && ! has ampregion; }; then
  # Runs in the background: nova's services may start once their users exist (USERS_READY),
  # while this goes on to wait for neutron and create the networks.
  rm -f "$DIR/.identity-users"
  ( quiet env USERS_READY="$DIR/.identity-users" ADMIN_PASSWORD="$ADMIN_PASSWORD" DEMO_PASSWORD="$DEMO_PASSWORD" \
    APPCRED_SECRET="$APPCRED_SECRET" SERVICE_PASSWORD="$SERVICE_PASSWORD" \
    KEYSTONE="http://$HOST:$KEYSTONE_PORT" OCTAVIA="http://$HOST:$OCTAVIA_PORT" \
    OCTAVIA_NOOVN="http://$HOST:$OCTAVIA_NOOVN_PORT" EXTERNAL_CIDR="$PEER_EXTERNAL_CIDR" \
    OCTAVIA_AMP="$([ "$PEER_AMPHORA" = region ] && echo "http://$HOST:$AMP_API_PORT" || true)" AMP_REGION="$AMP_REGION" \
    NEUTRON_URL="$([ "$NEUTRON" = 1 ] && echo "http://$HOST:$NEUTRON_PORT")" REGION="$REGION" \
    NOVA_URL="$([ "$NOVA" = 1 ] && echo "http://$HOST:$NOVA_PORT/v2.1")" \
    GLANCE_URL="http://$HOST:$GLANCE_PORT" PLACEMENT_URL="http://$HOST:$PLACEMENT_PORT" \
    "$PY" - "$DIR/identity.json" <<'EOF'
import json, os, sys, requests
E = os.environ
K = E["KEYSTONE"] + "/v3"

def token(body):
    r = requests.post(K + "/auth/tokens", json={"auth": body})
    r.raise_for_status()
    return r.headers["X-Subject-Token"], r.json()["token"]

def pw(user, password, project):
    return {"identity": {"methods": ["password"], "password": {"user": {
        "name": user, "domain": {"id": "default"}, "password": password}}},
        "scope": {"project": {"name": project, "domain": {"id": "default"}}}}

admin, _ = token(pw("admin", E["ADMIN_PASSWORD"], "admin"))
H = {"X-Auth-Token": admin}

def find(coll, **q):
    r = requests.get(f"{K}/{coll}", params=q, headers=H); r.raise_for_status()
    return r.json()[coll]

def ensure(coll, key, match, body):
    found = find(coll, **match)
    if found:
        return found[0]
    r = requests.post(f"{K}/{coll}", json={key: body}, headers=H); r.raise_for_status()
    return r.json()[key]

def grant(project, user, role):
    requests.put(f"{K}/projects/{project}/users/{user}/roles/{role}", headers=H).raise_for_status()

roles = {n: ensure("roles", "role", {"name": n}, {"name": n})["id"]
         for n in ("admin", "member", "reader", "load-balancer_member")}
service = ensure("projects", "project", {"name": "service"}, {"name": "service", "domain_id": "default"})
svc_users = (["octavia"] + (["neutron"] if E["NEUTRON_URL"] else [])
             + (["nova", "glance", "placement"] if E["NOVA_URL"] else []))
for name in svc_users:
    u = ensure("users", "user", {"name": name},
               {"name": name, "domain_id": "default", "password": E["SERVICE_PASSWORD"]})
    grant(service["id"], u["id"], roles["admin"])
# RegionNoOvn: a cloud without OVN (octavia-api-noovn, neutron); RegionBare: no endpoints at all.
# PEER_AMPHORA=region: RegionAmphora (octavia-api-amphora, whose LBs are real amphorae; neutron).
amp_region = [E["AMP_REGION"]] if E["OCTAVIA_AMP"] else []
for region in ["RegionNoOvn", "RegionBare"] + amp_region:
    if requests.get(f"{K}/regions/{region}", headers=H).status_code == 404:
        requests.post(f"{K}/regions", json={"region": {"id": region}}, headers=H).raise_for_status()
catalog = [("octavia", "load-balancer", E["OCTAVIA"], E["REGION"]),
           ("octavia", "load-balancer", E["OCTAVIA_NOOVN"], "RegionNoOvn")]
catalog += [("octavia", "load-balancer", E["OCTAVIA_AMP"], r) for r in amp_region]
if E["NEUTRON_URL"]:
    catalog += [("neutron", "network", E["NEUTRON_URL"], r) for r in [E["REGION"], "RegionNoOvn"] + amp_region]
if E["NOVA_URL"]:
    catalog += [("nova", "compute", E["NOVA_URL"], E["REGION"]), ("glance", "image", E["GLANCE_URL"], E["REGION"]),
                ("placement", "placement", E["PLACEMENT_URL"], E["REGION"])]
for name, stype, url, region in catalog:
    s = ensure("services", "service", {"type": stype}, {"name": name, "type": stype, "enabled": True})
    for iface in ("public", "internal"):
        ensure("endpoints", "endpoint", {"service_id": s["id"], "interface": iface, "region_id": region},
               {"service_id": s["id"], "interface": iface, "url": url, "region_id": region})
open(E["USERS_READY"], "w").close()
demo_p = ensure("projects", "project", {"name": "demo"}, {"name": "demo", "domain_id": "default"})
demo_u = ensure("users", "user", {"name": "demo"},
                {"name": "demo", "domain_id": "default", "password": E["DEMO_PASSWORD"],
                 "default_project_id": demo_p["id"]})
for r in ("member", "load-balancer_member"):
    grant(demo_p["id"], demo_u["id"], roles[r])

demo, _ = token(pw("demo", E["DEMO_PASSWORD"], "demo"))
DH = {"X-Auth-Token": demo}
ac_url = f"{K}/users/{demo_u['id']}/application_credentials"
for ac in requests.get(ac_url, params={"name": "peer-appcred"}, headers=DH).json()["application_credentials"]:
    requests.delete(f"{ac_url}/{ac['id']}", headers=DH).raise_for_status()
r = requests.post(ac_url, headers=DH, json={"application_credential": {
    "name": "peer-appcred", "secret": E["APPCRED_SECRET"], "description": "test peer credential"}})
r.raise_for_status()
out = {"admin_project_id": find("projects", name="admin")[0]["id"], "demo_project_id": demo_p["id"],
       "demo_user_id": demo_u["id"], "appcred_id": r.json()["application_credential"]["id"]}

if E["NEUTRON_URL"]:
    import time
    N = E["NEUTRON_URL"] + "/v2.0"
    for _ in range(240):
        try:
            if requests.get(N + "/networks", headers=H).ok:
                break
        except requests.ConnectionError:
            pass
        time.sleep(0.25)

    def nensure(hdr, coll, key, body):
        r = requests.get(f"{N}/{coll}", params={"name": body["name"]}, headers=hdr); r.raise_for_status()
        if r.json()[coll]:
            return r.json()[coll][0]
        r = requests.post(f"{N}/{coll}", json={key: body}, headers=hdr)
        if not r.ok:
            sys.exit(f"neutron {coll}: {r.status_code} {r.text}")
        return r.json()[key]
    pub = nensure(H, "networks", "network", {"name": "public", "router:external": True,
                  "provider:network_type": "flat", "provider:physical_network": "public"})
    import ipaddress
    ext = ipaddress.ip_network(E["EXTERNAL_CIDR"], strict=False)  # the gateway is its first host
    nensure(H, "subnets", "subnet", {"name": "public-subnet", "network_id": pub["id"], "ip_version": 4,
            "cidr": str(ext), "gateway_ip": str(next(ext.hosts()))})
    priv = nensure(DH, "networks", "network", {"name": "private"})
    sub = nensure(DH, "subnets", "subnet", {"name": "private-subnet", "network_id": priv["id"],
                  "ip_version": 4, "cidr": "10.0.0.0/24"})
    rt = nensure(DH, "routers", "router", {"name": "router1",
                 "external_gateway_info": {"network_id": pub["id"]}})
    linked = requests.get(f"{N}/ports", headers=DH, params={
        "device_id": rt["id"], "network_id": priv["id"]}).json()["ports"]
    if not linked:
        requests.put(f"{N}/routers/{rt['id']}/add_router_interface", headers=DH,
                     json={"subnet_id": sub["id"]}).raise_for_status()
    # Neutron creates a project's "default" security group on its first security-group call. Do
    # that here, alone: under sqlite that extra write races other writers of the first real request
    # ("database is locked", HTTP 500), which a cloud on MySQL never shows.
    requests.get(f"{N}/security-groups", headers=DH).raise_for_status()
    out.update(public_network_id=pub["id"], private_network_id=priv["id"],
               private_subnet_id=sub["id"], router_id=rt["id"])
json.dump(out, open(sys.argv[1], "w"), indent=1)
EOF
  ) & IDENTITY_JOB=$!
  while [ ! -f "$DIR/.identity-users" ] && kill -0 "$IDENTITY_JOB" 2>/dev/null; do sleep 0.2; done
fi

if [ "$NOVA" = 1 ]; then
  # These log in to keystone as "nova" (placement client) as they start, so not before now.
  for svc in conductor scheduler; do
    launch "nova-$svc" "$LOG/nova-$svc.out" env PYTHONPATH="$DIR/lib" "$PY" -c \
      "import sys; sys.argv[0] = 'nova-$svc'; from nova.cmd.$svc import main; main()" \
      --config-file "$DIR/nova/nova.conf" --log-file "$LOG/nova-$svc.log"
  done
  # nova-compute registers its resource provider in placement as it starts (and otherwise only
  # retries a minute later), so it starts once placement answers; and its first call to the
  # conductor would be lost (and retried only after 10 s) before the conductor's queue exists.
  wait_http placement-api "http://$HOST:$PLACEMENT_PORT/" 120 "$LOG/placement-uwsgi.log"
  running nova-compute || wait_queue nova-conductor conductor 120 "$LOG/nova-conductor.log"
  launch nova-compute "$LOG/nova-compute.out" "${NOVA_COMPUTE_ENV[@]}" "$PY" -c \
    "import sys; sys.argv[0] = 'nova-compute'; from nova.cmd.compute import main; main()" \
    --config-file "$DIR/nova/nova-compute.conf" "${NOVA_DP_ARGS[@]}" --log-file "$LOG/nova-compute.log"
fi

if [ -n "$IDENTITY_JOB" ]; then
  wait "$IDENTITY_JOB" || die "creating the identity data failed (log: $LOG/setup.log)"
  n=$NEUTRON; has neutron && n=1; v=$NOVA; has nova && v=1; a=0; { has ampregion || [ "$PEER_AMPHORA" = region ]; } && a=1
  echo "kaas-v1 neutron=$n" > "$DIR/.identity-ready"
  echo "nova=$v ext=$PEER_EXTERNAL_CIDR ampregion=$a" > "$DIR/.identity-extra"
  say "identity data created"
fi

wait_http octavia-api "http://$HOST:$OCTAVIA_PORT/" 180 "$LOG/octavia-uwsgi.log"
wait_http octavia-api-noovn "http://$HOST:$OCTAVIA_NOOVN_PORT/" 180 "$LOG/octavia-noovn-uwsgi.log"
say "octavia up"
if [ "$RABBIT" = 1 ]; then
  wait_tcp rabbitmq "$RABBIT_PORT" 60 "$LOG/rabbitmq.log"
  say "rabbitmq up"
fi
if [ "$OCTAVIA_WORKER" = 1 ] && [ "$PEER_AMPHORA" != 1 ]; then
  # A cast sent before the worker's queue exists would be dropped by RabbitMQ, so wait for it.
  wait_queue octavia-worker octavia_provisioning_v2 120 "$LOG/octavia-worker.log"
  say "octavia-worker up"
fi
if [ "$NEUTRON" = 1 ]; then
  wait_http neutron-server "http://$HOST:$NEUTRON_PORT/" 120 "$LOG/neutron-server.out"
  say "neutron up"
fi

if [ "$NOVA" = 1 ]; then
  wait_http glance-api "http://$HOST:$GLANCE_PORT/" 120 "$LOG/glance-api.log"
  wait_http nova-api "http://$HOST:$NOVA_PORT/" 120 "$LOG/nova-api-uwsgi.log"
  say "placement, glance and nova-api up"
  wait_queue nova-conductor conductor 120 "$LOG/nova-conductor.log"
  wait_queue nova-scheduler scheduler 120 "$LOG/nova-scheduler.log"
  wait_queue nova-compute "compute.$COMPUTE_HOST" 120 "$LOG/nova-compute.log"
  # Cells v2: the compute host is mapped into cell1 once its compute node exists (first run),
  # and the scheduler needs its resource provider with inventory in placement.
  host_state() {
    "$PY" - "$DIR" "$COMPUTE_HOST" <<'EOF'
import sqlite3, sys
d, host = sys.argv[1:]
def q(db, sql):
    c = sqlite3.connect(f"file:{d}/{db}?mode=ro", uri=True, timeout=10)
    try:
        return c.execute(sql, (host,)).fetchall()
    finally:
        c.close()
if not q("nova/nova.db", "select id from compute_nodes where host=? and deleted=0"):
    print("no-compute-node")
elif not q("nova/nova_api.db", "select id from host_mappings where host=?"):
    print("unmapped")
elif not q("placement/placement.db", "select i.id from inventories i join resource_providers r"
           " on i.resource_provider_id = r.id where r.name=?"):
    print("no-resource-provider")
else:
    print("ready")
EOF
  }
  for i in $(seq 1 240); do
    st=$(host_state)
    [ "$st" = ready ] && break
    # nova-scheduler maps the host within ~2 s; nova-manage is the fallback
    [ "$st" = unmapped ] && [ "$i" -gt 40 ] &&
      quiet pymain nova-manage nova.cmd.manage --config-file "$DIR/nova/nova.conf" cell_v2 discover_hosts
    running nova-compute || { tail -30 "$LOG/nova-compute.log" >&2; die "nova-compute exited during start-up"; }
    sleep 0.5
  done
  [ "$st" = ready ] || { tail -30 "$LOG/nova-compute.log" >&2; die "compute host $COMPUTE_HOST not ready ($st)"; }
  say "nova-compute up ($COMPUTE_HOST mapped to cell1, resource provider in placement)"

  # A public flavor and a tiny public raw image, so a server can be booted straight away.
  if [ ! -f "$DIR/nova/.data-ready" ]; then
    quiet env ADMIN_PASSWORD="$ADMIN_PASSWORD" KEYSTONE="http://$HOST:$KEYSTONE_PORT" \
      NOVA_URL="http://$HOST:$NOVA_PORT/v2.1" GLANCE_URL="http://$HOST:$GLANCE_PORT" \
      "$PY" - "$DIR/identity.json" <<'EOF'
import json, os, sys, requests
E = os.environ
r = requests.post(E["KEYSTONE"] + "/v3/auth/tokens", json={"auth": {
    "identity": {"methods": ["password"], "password": {"user": {
        "name": "admin", "domain": {"id": "default"}, "password": E["ADMIN_PASSWORD"]}}},
    "scope": {"project": {"name": "admin", "domain": {"id": "default"}}}}})
r.raise_for_status()
H = {"X-Auth-Token": r.headers["X-Subject-Token"]}
N, G = E["NOVA_URL"], E["GLANCE_URL"] + "/v2"
flavors = [f for f in requests.get(N + "/flavors", headers=H).json()["flavors"] if f["name"] == "peer.tiny"]
if not flavors:
    r = requests.post(N + "/flavors", headers=H, json={"flavor": {
        "name": "peer.tiny", "ram": 64, "vcpus": 1, "disk": 1}})
    r.raise_for_status()
    flavors = [r.json()["flavor"]]
images = requests.get(G + "/images", params={"name": "peer-image"}, headers=H).json()["images"]
image = images[0] if images else None
if not image:
    r = requests.post(G + "/images", headers=H, json={
        "name": "peer-image", "disk_format": "raw", "container_format": "bare",
        "visibility": "public"})
    r.raise_for_status()
    image = r.json()
if image["status"] != "active":
    requests.put(f"{G}/images/{image['id']}/file", data=b"os-peer fake disk\n".ljust(4096, b"\0"),
                 headers=dict(H, **{"Content-Type": "application/octet-stream"})).raise_for_status()
out = json.load(open(sys.argv[1]))
out.update(flavor_id=flavors[0]["id"], image_id=image["id"])
json.dump(out, open(sys.argv[1], "w"), indent=1)
EOF
    touch "$DIR/nova/.data-ready"
    say "flavor peer.tiny and image peer-image created"
  fi
fi
[ "$PEER_AMPHORA" != 0 ] && amp_start

# ---------------------------------------------------------------- clouds.yaml and peer.env
j() { "$PY" -c "import json,sys; print(json.load(open(sys.argv[1])).get(sys.argv[2], ''))" "$DIR/identity.json" "$1"; }
APPCRED_ID=$(j appcred_id)
AUTH_URL="http://$HOST:$KEYSTONE_PORT/v3"
pwcloud() { cat <<EOF
  $1:
    auth:
      auth_url: $AUTH_URL
      username: $2
      password: $3
      project_name: $4
      user_domain_name: Default
      project_domain_name: Default
    region_name: ${5:-$REGION}
    interface: public
    identity_api_version: 3
EOF
}
{
  echo "clouds:"
  pwcloud peer-admin admin "$ADMIN_PASSWORD" admin
  pwcloud peer-demo demo "$DEMO_PASSWORD" demo
  pwcloud peer-demo-noovn demo "$DEMO_PASSWORD" demo RegionNoOvn
  pwcloud peer-demo-bare demo "$DEMO_PASSWORD" demo RegionBare
  cat <<EOF
  peer-demo-appcred:
    auth_type: v3applicationcredential
    auth:
      auth_url: $AUTH_URL
      application_credential_id: $APPCRED_ID
      application_credential_secret: $APPCRED_SECRET
    region_name: $REGION
    interface: public
    identity_api_version: 3
  peer-demo-appcred-noovn:
    auth_type: v3applicationcredential
    auth:
      auth_url: $AUTH_URL
      application_credential_id: $APPCRED_ID
      application_credential_secret: $APPCRED_SECRET
    region_name: RegionNoOvn
    interface: public
    identity_api_version: 3
$([ "$PEER_AMPHORA" = region ] && cat <<EOA
  peer-demo-appcred-amphora:
    auth_type: v3applicationcredential
    auth:
      auth_url: $AUTH_URL
      application_credential_id: $APPCRED_ID
      application_credential_secret: $APPCRED_SECRET
    region_name: $AMP_REGION
    interface: public
    identity_api_version: 3
EOA
)
  peer-demo-appcred-name:
    auth_type: v3applicationcredential
    auth:
      auth_url: $AUTH_URL
      application_credential_name: peer-appcred
      application_credential_secret: $APPCRED_SECRET
      user_id: $(j demo_user_id)
    region_name: $REGION
    interface: public
    identity_api_version: 3
EOF
} > "$DIR/clouds.yaml.tmp.$$"
# Both files are replaced whole (written aside, then renamed): tests restart services with this
# script while others read clouds.yaml and peer.env, and a truncated file read as "no clouds.yaml
# found" (CI run of 2026-11-27, test/integration/openstack/auth.test.ts). They hold passwords: 0600.
chmod 600 "$DIR/clouds.yaml.tmp.$$" && mv -f "$DIR/clouds.yaml.tmp.$$" "$DIR/clouds.yaml"
cat > "$DIR/peer.env.tmp.$$" <<EOF
OS_CLIENT_CONFIG_FILE=$DIR/clouds.yaml
OS_PEER_AUTH_URL=$AUTH_URL
OS_PEER_REGION=$REGION
OS_PEER_ADMIN_PASSWORD=$ADMIN_PASSWORD
OS_PEER_DEMO_PASSWORD=$DEMO_PASSWORD
OS_PEER_DEMO_PROJECT_ID=$(j demo_project_id)
OS_PEER_APPCRED_ID=$APPCRED_ID
OS_PEER_APPCRED_SECRET=$APPCRED_SECRET
OS_PEER_OCTAVIA_URL=http://$HOST:$OCTAVIA_PORT
OS_PEER_OCTAVIA_NOOVN_URL=http://$HOST:$OCTAVIA_NOOVN_PORT
OS_PEER_DEMO_USER_ID=$(j demo_user_id)
OS_PEER_DIR=$DIR
OS_PEER_OCTAVIA_WORKER=$OCTAVIA_WORKER
OS_PEER_OVN_PROVIDER=$OVN_PROVIDER
OS_PEER_EXTERNAL_CIDR=$([ "$NEUTRON" = 1 ] && echo "$PEER_EXTERNAL_CIDR")
OS_PEER_NEUTRON_URL=$([ "$NEUTRON" = 1 ] && echo "http://$HOST:$NEUTRON_PORT")
OS_PEER_PRIVATE_SUBNET_ID=$(j private_subnet_id)
OS_PEER_PUBLIC_NETWORK_ID=$(j public_network_id)
OS_PEER_PRIVATE_NETWORK_ID=$(j private_network_id)
OS_PEER_NOVA_URL=$([ "$NOVA" = 1 ] && echo "http://$HOST:$NOVA_PORT/v2.1")
OS_PEER_GLANCE_URL=$([ "$NOVA" = 1 ] && echo "http://$HOST:$GLANCE_PORT")
OS_PEER_PLACEMENT_URL=$([ "$NOVA" = 1 ] && echo "http://$HOST:$PLACEMENT_PORT")
OS_PEER_FLAVOR=$([ "$NOVA" = 1 ] && echo peer.tiny)
OS_PEER_IMAGE_ID=$([ "$NOVA" = 1 ] && j image_id)
OS_PEER_COMPUTE_HOST=$([ "$NOVA" = 1 ] && echo "$COMPUTE_HOST")
EOF
# With the data path (lines only then): servers' network namespaces are listed in OS_PEER_VM_NETNS_DIR
# (one file per server uuid holding kaas-vm-<uuid8>); the external network is br-ex.
[ "$PEER_DATAPATH" = 1 ] && cat >> "$DIR/peer.env.tmp.$$" <<EOF
OS_PEER_DATAPATH=1
OS_PEER_OVN_PROVIDER_VERSION=$([ "$PEER_OVN_PROVIDER" = fixed ] && echo "$DP_PROVIDER_VERSION" || dpkg-query -W -f='${Version}' python3-ovn-octavia-provider)
OS_PEER_VM_NETNS_DIR=$DIR/vm-netns
EOF
[ "$PEER_AMPHORA" != 0 ] && amp_env >> "$DIR/peer.env.tmp.$$"
chmod 600 "$DIR/peer.env.tmp.$$" && mv -f "$DIR/peer.env.tmp.$$" "$DIR/peer.env"

# A last check that both kinds of credentials work against keystone.
for body in \
  "{\"auth\":{\"identity\":{\"methods\":[\"password\"],\"password\":{\"user\":{\"name\":\"demo\",\"domain\":{\"id\":\"default\"},\"password\":\"$DEMO_PASSWORD\"}}},\"scope\":{\"project\":{\"name\":\"demo\",\"domain\":{\"id\":\"default\"}}}}}" \
  "{\"auth\":{\"identity\":{\"methods\":[\"application_credential\"],\"application_credential\":{\"id\":\"$APPCRED_ID\",\"secret\":\"$APPCRED_SECRET\"}}}}"; do
  code=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' -d "$body" "$AUTH_URL/auth/tokens")
  [ "$code" = 201 ] || die "keystone rejected a peer credential (HTTP $code)"
done

if [ -n "$STARTED" ]; then say "ready (started:$STARTED)"; else say "ready (all services were already running)"; fi
echo "  clouds.yaml: $DIR/clouds.yaml   env: $DIR/peer.env   logs: $LOG"
echo "  pids ($PIDS):"; sed 's/^/    /' "$PIDS"
echo "  stop with: $(dirname "$0")/stop.sh $DIR"
