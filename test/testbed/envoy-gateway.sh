#!/usr/bin/env bash
# Envoy Gateway's controller (github.com/envoyproxy/gateway v1.9.0, built by build.sh) for a cluster without
# kubelets: it stands in for the envoy-gateway Deployment kaas applies (KWOK only pretends to run its pod),
# as workload.sh's occm loop stands in for kaas's OCCM DaemonSet. It turns kaas's GatewayClass + EnvoyProxy +
# Gateway into the envoy proxy Deployment and its LoadBalancer Service (which KWOK and OCCM then take on).
#
#   envoy-gateway.sh start DIR KUBECONFIG BIN NETNS
#       DIR         the testbed's directory: process bookkeeping in DIR/pids (`testbed.sh stop DIR` stops it),
#                   log in DIR/log/envoy-gateway.log, its files in DIR/envoy-gateway/
#       KUBECONFIG  an admin kubeconfig of the cluster (system:masters: no RBAC of its own is needed)
#       BIN         build.sh's BIN_DIR (BIN/envoy-gateway)
#       NETNS       the network namespace it runs in (the one the kubeconfig's server is reachable from)
#
# It returns at once; the loop it starts waits for Deployment envoy-gateway-system/envoy-gateway (kaas's
# apply-gateway step 2, after the CRDs are Established: the controller watches GatewayClass, Gateway and
# EnvoyProxy from the start), then, as the chart's certgen Job and Deployment would:
#   - `envoy-gateway certgen` (the Job's command, from outside the cluster through KUBECONFIG) once, when
#     Secret envoy-gateway is missing: it writes Secrets envoy-gateway, envoy, envoy-rate-limit and
#     envoy-oidc-hmac (--disable-topology-injector: the webhook it would patch is never called, see below);
#   - the config of ConfigMap envoy-gateway-config (what kaas rendered) with four testbed overrides:
#     leader election off (one process, no Lease wait), the proxy topology injector off (its webhook server
#     would bind :9443, capi-manager's port in the testbed namespace; kaas's MutatingWebhookConfiguration has
#     failurePolicy Ignore, so pod bindings pass without it), Prometheus off (no 0.0.0.0:19001) and the admin
#     server on 127.0.0.1:19000;
#   - `envoy-gateway server` with ENVOY_GATEWAY_NAMESPACE (the Deployment's namespace) and
#     KUBERNETES_CLUSTER_DOMAIN (the Deployment's env), restarted when the ConfigMap or the pod template
#     changes, stopped when the Deployment is gone.
# The xDS server reads its certificate from the fixed path /certs (the Secret's mount in the pod; no flag):
# the server runs in a mount namespace of its own whose root is the machine's root plus /certs (DIR's copy of
# Secret envoy-gateway), entered with chroot; nothing is written outside DIR.
# Listeners (inside NETNS only; none configurable in v1.9.0 but the admin one): xDS 0.0.0.0:18000, wasm cache
# :18002, health probes :8081, controller-runtime metrics :8080, admin 127.0.0.1:19000 (measured with ss).
# Nothing dials out but the API server.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CMD=${1:-}

# ---------------------------------------------------------------- start: launch the loop (testbed.sh's bookkeeping)
if [ "$CMD" = start ]; then
  DIR=${2:-}; KC=${3:-}; BIN=${4:-}; NS=${5:-}
  [ -n "$DIR" ] && [ -f "$KC" ] && [ -x "$BIN/envoy-gateway" ] && [ -n "$NS" ] \
    || { echo "usage: envoy-gateway.sh start DIR KUBECONFIG BIN NETNS (BIN/envoy-gateway built by build.sh)" >&2; exit 2; }
  DIR=$(cd "$DIR" && pwd); KC=$(cd "$(dirname "$KC")" && pwd)/$(basename "$KC"); BIN=$(cd "$BIN" && pwd)
  PIDS="$DIR/pids" LOG="$DIR/log" E="$DIR/envoy-gateway"
  mkdir -p "$LOG" "$E"
  ours() { ps -eo pgid=,args= | awk -v g="$1" -v d="$DIR/" '$1==g && index($0,d){f=1} END{exit !f}'; }
  running() { [ -f "$PIDS" ] && awk -v n="$1" '$1==n{print $2}' "$PIDS" | { read -r p && ours "$p"; }; }
  record() { { [ -f "$PIDS" ] && grep -v "^$1 " "$PIDS"; echo "$1 $2"; } > "$PIDS.new" || true; mv "$PIDS.new" "$PIDS"; }
  running envoy-gateway && exit 0
  ip netns exec "$NS" setsid env PATH="$PATH" bash "$HERE/envoy-gateway.sh" loop "$E" "$KC" "$BIN" "$ROOT" \
    </dev/null >>"$LOG/envoy-gateway.log" 2>&1 &
  record envoy-gateway $!
  exit 0
fi

# ---------------------------------------------------------------- loop (inside the namespace, its own process group)
[ "$CMD" = loop ] || { echo "usage: envoy-gateway.sh start DIR KUBECONFIG BIN NETNS" >&2; exit 2; }
E=$2 KC=$3 BIN=$4 ROOT=$5
EGNS=envoy-gateway-system   # kaas applies the control plane there (the chart's namespace)
set +e
k() { kubectl --kubeconfig "$KC" "$@"; }
log() { echo "$(date -u +%T) $*"; }

# ConfigMap envoy-gateway-config's envoy-gateway.yaml (stdin) with the testbed's overrides, as JSON (a YAML
# document the server reads alike); the repo's `yaml` package, as manifests.mjs reads upstream YAML.
config() {
  node --input-type=module -e '
    import fs from "node:fs"; import { createRequire } from "node:module";
    const YAML = createRequire(process.argv[1])("yaml");
    const c = YAML.parse(fs.readFileSync(0, "utf8")) ?? {};
    c.provider ??= { type: "Kubernetes" }; c.provider.kubernetes ??= {};
    c.provider.kubernetes.leaderElection = { ...c.provider.kubernetes.leaderElection, disable: true };
    c.provider.kubernetes.proxyTopologyInjector = { disabled: true };
    c.telemetry ??= {}; c.telemetry.metrics ??= {};
    c.telemetry.metrics.prometheus = { ...c.telemetry.metrics.prometheus, disable: true };
    c.admin = { ...c.admin, address: { host: "127.0.0.1", port: 19000 } };
    process.stdout.write(JSON.stringify(c, null, 2) + "\n");
  ' "$ROOT/package.json"
}

# The server, with /certs = $E/certs: a private mount namespace whose root is a tmpfs holding the machine's
# top-level directories (recursive binds) and /certs, entered with chroot (the binary is static).
server() { # env...
  exec unshare --mount --propagation private -- bash -c '
    set -e; R=$1 C=$2; shift 2
    mount -t tmpfs -o mode=0755 kaas-envoy-gateway-root "$R"
    for d in /*; do
      if [ -L "$d" ]; then ln -s "$(readlink "$d")" "$R${d}"
      elif [ -d "$d" ]; then mkdir "$R${d}"; mount --rbind "$d" "$R${d}"; fi
    done
    mkdir "$R/certs"; mount --bind "$C" "$R/certs"
    exec chroot "$R" "$@"
  ' server "$E/root" "$E/certs" env "$@" "$BIN/envoy-gateway" server --config-path "$E/config.json"
}

child=""; running_tpl=""
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; exit 0' TERM INT
mkdir -p "$E/root" "$E/certs"
log "waiting for Deployment $EGNS/envoy-gateway (kaas apply-gateway)"
while :; do
  dep=$(k -n "$EGNS" get deployment envoy-gateway -o json 2>/dev/null)
  cm=$(k -n "$EGNS" get configmap envoy-gateway-config -o jsonpath='{.data.envoy-gateway\.yaml}' 2>/dev/null)
  if [ -n "$dep" ] && [ -n "$cm" ]; then
    tpl=$({ printf '%s' "$dep" | jq -c '.spec.template'; printf '%s' "$cm"; } | sha256sum | cut -c1-16)
    if [ "$tpl" != "$running_tpl" ] || { [ -n "$child" ] && ! kill -0 "$child" 2>/dev/null; }; then
      domain=$(printf '%s' "$dep" | jq -r '[.spec.template.spec.containers[] | select(.name == "envoy-gateway") | .env // [] | .[] | select(.name == "KUBERNETES_CLUSTER_DOMAIN") | .value][0] // "cluster.local"')
      envs=(ENVOY_GATEWAY_NAMESPACE="$EGNS" KUBERNETES_CLUSTER_DOMAIN="$domain" KUBECONFIG="$KC")
      if ! k -n "$EGNS" get secret envoy-gateway >/dev/null 2>&1; then
        log "certgen (Secrets envoy-gateway, envoy, envoy-rate-limit, envoy-oidc-hmac in $EGNS)"
        env "${envs[@]}" "$BIN/envoy-gateway" certgen --disable-topology-injector || { sleep 3; continue; }
      fi
      # The server reloads its config file when it changes: the old one is stopped before anything is rewritten.
      [ -n "$child" ] && { kill "$child" 2>/dev/null; wait "$child" 2>/dev/null; child=""; log "config or pod template changed: restarting"; }
      umask 077
      ok=1
      for f in ca.crt tls.crt tls.key; do
        k -n "$EGNS" get secret envoy-gateway -o jsonpath="{.data.${f//./\\.}}" | base64 -d > "$E/certs/$f.new" && [ -s "$E/certs/$f.new" ] || ok=""
        mv "$E/certs/$f.new" "$E/certs/$f"
      done
      printf '%s\n' "$cm" | config > "$E/config.json.new" || ok=""
      mv "$E/config.json.new" "$E/config.json"
      umask 022
      [ -n "$ok" ] || { log "Secret $EGNS/envoy-gateway or the config not readable yet"; sleep 3; continue; }
      log "starting envoy-gateway server (config from ConfigMap $EGNS/envoy-gateway-config + testbed overrides, pod template $tpl)"
      server "${envs[@]}" &
      child=$!; running_tpl=$tpl
    fi
  elif [ -n "$child" ]; then
    kill "$child" 2>/dev/null; wait "$child" 2>/dev/null; child=""; running_tpl=""; log "Deployment gone: envoy-gateway stopped"
  fi
  sleep 3
done
