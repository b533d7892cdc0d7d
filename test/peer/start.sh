#!/usr/bin/env bash
# kaas test peer: a real (unmocked) OpenStack control plane on loopback, from Debian packages.
# Used by the integration tests (jest globalSetup starts it) and by `npm run bench`.
#
#   test/peer/start.sh [DIR]     DIR defaults to .kaas-test/peer under the repository
#
# What runs (all bound to 127.0.0.1, all state under DIR):
#   keystone     :5000   Keystone (Debian bookworm = OpenStack Zed) under uwsgi, sqlite, fernet tokens
#   octavia-api  :9876   Octavia API under uwsgi, sqlite, providers "amphora" and "ovn"
#   octavia-api-noovn :9877  a second Octavia API on the same database offering only "amphora";
#                        it is the load-balancer endpoint of region RegionNoOvn (a cloud without OVN)
#   octavia-driver-agent Octavia provider status agent (needed by the ovn provider)
#   ovsdb-server :6641   OVN northbound DB (the ovn provider and neutron write load balancers,
#   ovsdb-server :6642   OVN southbound DB  switches and routers into it; no datapath is run)
#   neutron      :9696   Neutron server, ML2/OVN, no agents (networks, subnets, ports, routers,
#                        floating IPs and Octavia VIP ports all work at the API level)
#
# Regions in the catalog: RegionOne (everything), RegionNoOvn (octavia-api-noovn + neutron) and
# RegionBare (no endpoints at all: every service is "missing from the catalog").
#
# Set OVN_PROVIDER=0 to offer only the amphora provider on :9876 too (a cloud without OVN load balancers). The
# provider list is read when octavia-api starts: stop.sh DIR, then start.sh DIR with the new value.
#
# Set NEUTRON=0 to skip neutron (and the OVN southbound DB): saves ~7 s and ~360 MB of RAM, but
# load balancer creation then fails with "publicURL endpoint for network service not found".
#
# Outputs in DIR:
#   clouds.yaml  clouds "peer-admin", "peer-demo" (password; "peer-demo-noovn" and "peer-demo-bare"
#                are the same user in regions RegionNoOvn and RegionBare), "peer-demo-appcred"
#                (v3applicationcredential by id) and "peer-demo-appcred-name" (by name + user);
#                use with OS_CLIENT_CONFIG_FILE=DIR/clouds.yaml
#   peer.env     the same facts as shell variables (source it)
#   pids         one "name pid" line per started process group; stop.sh DIR stops exactly those
#   log/         service logs
#
# Running it again on the same DIR is cheap: packages and databases are reused, services that are
# still running are left alone. Loopback ports are fixed (5000, 9876, 9877, 9696, 6641, 6642) and the
# ovn provider insists on its agent sockets in /run/octavia, so run one peer per machine.
# Needs root (apt-get install; /run/octavia).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:-$HERE/../../.kaas-test/peer}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
# Two test runs may start the peer at once (two jest processes); the second waits for the first.
# stop.sh takes the same lock. KAAS_PEER_LOCK_HELD=1: the caller already holds it (flock DIR/.lock).
if [ -z "${KAAS_PEER_LOCK_HELD:-}" ]; then exec 9>"$DIR/.lock"; flock 9; fi
NEUTRON=${NEUTRON:-1}
OVN_PROVIDER=${OVN_PROVIDER:-1}
HOST=127.0.0.1
KEYSTONE_PORT=5000
OCTAVIA_PORT=9876
OCTAVIA_NOOVN_PORT=9877
NEUTRON_PORT=9696
OVN_NB_PORT=6641
OVN_SB_PORT=6642
REGION=RegionOne
ADMIN_PASSWORD=${ADMIN_PASSWORD:-admin-secret}
DEMO_PASSWORD=${DEMO_PASSWORD:-demo-secret}
APPCRED_SECRET=${APPCRED_SECRET:-demo-appcred-secret}
SERVICE_PASSWORD=service-secret
AGENT_SOCKET_DIR=/run/octavia      # fixed by octavia-lib's defaults, used by the ovn provider
PY=/usr/bin/python3                # the distribution's Python, which has the OpenStack modules
PIDS="$DIR/pids"
LOG="$DIR/log"
T0=$(date +%s%N)

say() { local ms=$((($(date +%s%N) - T0) / 1000000)); printf '[os-peer %3d.%01ds] %s\n' $((ms / 1000)) $((ms % 1000 / 100)) "$*"; }
die() { echo "start.sh: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || die "run as root"

# ---------------------------------------------------------------- packages
PACKAGES="python3-keystone python3-octavia python3-ovn-octavia-provider python3-openstackclient python3-octaviaclient
  uwsgi-core uwsgi-plugin-python3 ovn-central curl"
[ "$NEUTRON" = 1 ] && PACKAGES="$PACKAGES python3-neutron"
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
  apt-get install -y -q --no-install-recommends $missing >"$DIR/apt.log" 2>&1 \
    || { [ -n "$guard" ] && rm -f /usr/sbin/policy-rc.d; tail -20 "$DIR/apt.log"; die "apt-get install failed"; }
  [ -n "$guard" ] && rm -f /usr/sbin/policy-rc.d
  say "packages installed"
fi
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
STARTED=""
mkdir -p "$LOG" "$DIR/keystone" "$DIR/octavia" "$DIR/ovn" "$DIR/neutron/lock" "$AGENT_SOCKET_DIR"
SERVICE_PORTS="keystone:$KEYSTONE_PORT octavia-api:$OCTAVIA_PORT octavia-api-noovn:$OCTAVIA_NOOVN_PORT ovn-nb:$OVN_NB_PORT"
[ "$NEUTRON" = 1 ] && SERVICE_PORTS="$SERVICE_PORTS neutron-server:$NEUTRON_PORT ovn-sb:$OVN_SB_PORT"
for pair in $SERVICE_PORTS; do
  running "${pair%%:*}" || port_free "${pair##*:}" || die "port ${pair##*:} is in use by a process this script did not start"
done

# ---------------------------------------------------------------- configuration files
cat > "$DIR/keystone/keystone.conf" <<EOF
[DEFAULT]
log_dir = $LOG
log_file = keystone.log
[database]
connection = sqlite:///$DIR/keystone/keystone.db
[token]
provider = fernet
[fernet_tokens]
key_repository = $DIR/keystone/fernet-keys
[fernet_receipts]
key_repository = $DIR/keystone/fernet-keys
[credential]
key_repository = $DIR/keystone/credential-keys
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
octavia_conf() { # port logfile providers
  cat <<EOF
[DEFAULT]
log_dir = $LOG
log_file = $2
# No message bus: the amphora provider's casts to octavia-worker go nowhere, so amphora load
# balancers stay PENDING_CREATE. The ovn provider needs no bus and completes (ACTIVE/ONLINE).
transport_url = fake://
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
EOF
}
AMPHORA="amphora:'The Octavia Amphora driver.'"
OVN="ovn:'Octavia OVN driver.'"
octavia_conf "$OCTAVIA_PORT" octavia-api.log "$AMPHORA$([ "$OVN_PROVIDER" = 1 ] && echo ",$OVN")" > "$DIR/octavia/octavia.conf"
octavia_conf "$OCTAVIA_NOOVN_PORT" octavia-api-noovn.log "$AMPHORA" > "$DIR/octavia/octavia-noovn.conf"

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
notify_nova_on_port_status_changes = false
notify_nova_on_port_data_changes = false
[database]
connection = sqlite:///$DIR/neutron/neutron.db
$(authtoken keystone_authtoken neutron)
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

# ---------------------------------------------------------------- databases (first run only)
# The steps are independent, so they run side by side (each is mostly Python start-up time).
quiet() { "$@" >>"$LOG/setup.log" 2>&1 || { tail -30 "$LOG/setup.log" >&2; echo "failed: $*" >&2; exit 1; }; }
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

OVN_DBS="nb"; [ "$NEUTRON" = 1 ] && OVN_DBS="nb sb"
for d in $OVN_DBS; do
  [ -f "$DIR/ovn/ovn${d}_db.db" ] || quiet ovsdb-tool create "$DIR/ovn/ovn${d}_db.db" "/usr/share/ovn/ovn-${d}.ovsschema"
done

if [ -n "$SETUP_JOBS" ]; then
  for j in $SETUP_JOBS; do wait "$j" || die "database setup failed (log: $LOG/setup.log)"; done
  [ -d "$DIR/keystone/fernet-keys" ] && chmod 700 "$DIR/keystone/fernet-keys" "$DIR/keystone/credential-keys"
  touch "$DIR/keystone/.db-ready" "$DIR/octavia/.db-ready"
  [ "$NEUTRON" = 1 ] && touch "$DIR/neutron/.db-ready"
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

launch keystone "$LOG/keystone-uwsgi.log" env OS_KEYSTONE_CONFIG_FILES="$DIR/keystone/keystone.conf" \
  uwsgi "${UWSGI_COMMON[@]}" --processes 2 --http-socket "$HOST:$KEYSTONE_PORT" \
  --wsgi-file /usr/bin/keystone-wsgi-public --chdir "$DIR/keystone"

for d in $OVN_DBS; do  # OVN needs its NB_Global/SB_Global rows, normally made by ovn-ctl
  port=$OVN_NB_PORT; [ "$d" = sb ] && port=$OVN_SB_PORT
  for _ in $(seq 1 40); do ovn-${d}ctl --db="tcp:$HOST:$port" --timeout=5 init 2>/dev/null && break; sleep 0.25; done
done

if ! running octavia-driver-agent; then rm -f "$AGENT_SOCKET_DIR"/{status,stats,get}.sock; fi
launch octavia-driver-agent "$LOG/octavia-driver-agent.out" \
  octavia-driver-agent --config-file "$DIR/octavia/octavia.conf" --log-file "$LOG/octavia-driver-agent.log"
for _ in $(seq 1 80); do [ -S "$AGENT_SOCKET_DIR/get.sock" ] && break; sleep 0.25; done

# Neither octavia nor neutron needs keystone until the first request, so all start at once.
launch octavia-api "$LOG/octavia-uwsgi.log" uwsgi "${UWSGI_COMMON[@]}" --processes 1 \
  --http-socket "$HOST:$OCTAVIA_PORT" --wsgi-file /usr/bin/octavia-wsgi \
  --pyargv "--config-file $DIR/octavia/octavia.conf" --chdir "$DIR/octavia"
launch octavia-api-noovn "$LOG/octavia-noovn-uwsgi.log" uwsgi "${UWSGI_COMMON[@]}" --processes 1 \
  --http-socket "$HOST:$OCTAVIA_NOOVN_PORT" --wsgi-file /usr/bin/octavia-wsgi \
  --pyargv "--config-file $DIR/octavia/octavia-noovn.conf" --chdir "$DIR/octavia"

if [ "$NEUTRON" = 1 ]; then
  launch neutron-server "$LOG/neutron-server.out" "$PY" -c \
    "import sys; sys.argv[0] = 'neutron-server'; from neutron.cmd.eventlet.server import main; main()" \
    --config-file "$DIR/neutron/neutron.conf"
fi

wait_http keystone "http://$HOST:$KEYSTONE_PORT/v3" 60 "$LOG/keystone-uwsgi.log"
say "keystone up"

# ---------------------------------------------------------------- identity data (first run only)
# Service users and catalog entries, project "demo" with user "demo" (roles member and
# load-balancer_member, which Octavia's default policy requires), an application credential for
# demo, and (with neutron) an external network "public" plus demo's "private" network, subnet and
# router, so that a load balancer can be created on private-subnet straight away.
# The marker records whether neutron's part was done, so a later run with neutron adds it.
IDENTITY_MARK=$(cat "$DIR/.identity-ready" 2>/dev/null || true)
if [ "$IDENTITY_MARK" != "kaas-v1 neutron=1" ] && [ "$IDENTITY_MARK" != "kaas-v1 neutron=$NEUTRON" ]; then
  quiet env ADMIN_PASSWORD="$ADMIN_PASSWORD" DEMO_PASSWORD="$DEMO_PASSWORD" \
    APPCRED_SECRET="$APPCRED_SECRET" SERVICE_PASSWORD="$SERVICE_PASSWORD" \
    KEYSTONE="http://$HOST:$KEYSTONE_PORT" OCTAVIA="http://$HOST:$OCTAVIA_PORT" \
    OCTAVIA_NOOVN="http://$HOST:$OCTAVIA_NOOVN_PORT" \
    NEUTRON_URL="$([ "$NEUTRON" = 1 ] && echo "http://$HOST:$NEUTRON_PORT")" REGION="$REGION" \
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
svc_users = ["octavia"] + (["neutron"] if E["NEUTRON_URL"] else [])
for name in svc_users:
    u = ensure("users", "user", {"name": name},
               {"name": name, "domain_id": "default", "password": E["SERVICE_PASSWORD"]})
    grant(service["id"], u["id"], roles["admin"])
for region in ("RegionNoOvn", "RegionBare"):
    if requests.get(f"{K}/regions/{region}", headers=H).status_code == 404:
        requests.post(f"{K}/regions", json={"region": {"id": region}}, headers=H).raise_for_status()
catalog = [("octavia", "load-balancer", E["OCTAVIA"], E["REGION"]),
           ("octavia", "load-balancer", E["OCTAVIA_NOOVN"], "RegionNoOvn")]
if E["NEUTRON_URL"]:
    catalog += [("neutron", "network", E["NEUTRON_URL"], r) for r in (E["REGION"], "RegionNoOvn")]
for name, stype, url, region in catalog:
    s = ensure("services", "service", {"type": stype}, {"name": name, "type": stype, "enabled": True})
    for iface in ("public", "internal"):
        ensure("endpoints", "endpoint", {"service_id": s["id"], "interface": iface, "region_id": region},
               {"service_id": s["id"], "interface": iface, "url": url, "region_id": region})
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
    nensure(H, "subnets", "subnet", {"name": "public-subnet", "network_id": pub["id"], "ip_version": 4,
            "cidr": "172.24.4.0/24", "gateway_ip": "172.24.4.1"})
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
  echo "kaas-v1 neutron=$NEUTRON" > "$DIR/.identity-ready"
  say "identity data created"
fi

wait_http octavia-api "http://$HOST:$OCTAVIA_PORT/" 180 "$LOG/octavia-uwsgi.log"
wait_http octavia-api-noovn "http://$HOST:$OCTAVIA_NOOVN_PORT/" 180 "$LOG/octavia-noovn-uwsgi.log"
say "octavia up"
if [ "$NEUTRON" = 1 ]; then
  wait_http neutron-server "http://$HOST:$NEUTRON_PORT/" 120 "$LOG/neutron-server.out"
  say "neutron up"
fi

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
} > "$DIR/clouds.yaml"
cat > "$DIR/peer.env" <<EOF
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
OS_PEER_NEUTRON_URL=$([ "$NEUTRON" = 1 ] && echo "http://$HOST:$NEUTRON_PORT")
OS_PEER_PRIVATE_SUBNET_ID=$(j private_subnet_id)
OS_PEER_PUBLIC_NETWORK_ID=$(j public_network_id)
EOF

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
