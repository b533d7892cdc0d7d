# shellcheck shell=bash
# The checks of prove-nodes.sh (sourced after its stack and the data-path loop are up; uses its k, say,
# check, until_ok, DIR, LAB, CLIENT, VMA, VMB).

at() { ip netns exec "$CLIENT" "$@"; }
# curl from the client: prints the body, or "timeout"/"refused"/"error <rc>".
get() {
  local out rc=0
  out=$(at curl -sS -m "${2:-4}" "$1" 2>/dev/null) || rc=$?
  case $rc in 0) printf '%s' "$out" ;; 28) echo timeout ;; 7) echo refused ;; *) echo "error $rc" ;; esac
}
code() { at curl -s -o /dev/null -w '%{http_code}' -m 4 "$1" || true; }
# One raw request to node:port from the client, optionally behind a PROXY v1 header (forged source).
raw() { # host port [proxy-source]
  at timeout 5 bash -c 'exec 3<>/dev/tcp/$0/$1 || exit 1
    [ -n "$2" ] && printf "PROXY TCP4 %s %s 40000 %s\r\n" "$2" "$0" "$1" >&3
    printf "GET / HTTP/1.0\r\nHost: prove\r\n\r\n" >&3; cat <&3' "$1" "$2" "${3:-}" 2>/dev/null | tail -1 | tr -d '\r'
}

k apply -f - >/dev/null <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata: {name: echo, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: echo}}
  template:
    metadata: {labels: {app: echo}}
    spec:
      nodeName: node-a
      automountServiceAccountToken: false
      containers:
      - {name: agnhost, image: "registry.k8s.io/e2e-test-images/agnhost:2.53", args: [netexec, --http-port=8080]}
---
apiVersion: v1
kind: Service
metadata: {name: echo, namespace: default}
spec:
  type: LoadBalancer
  externalTrafficPolicy: Local
  selector: {app: echo}
  ports: [{port: 8080, targetPort: 8080}]
---
apiVersion: v1
kind: Namespace
metadata: {name: ingress-nginx}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ingress-nginx-controller, namespace: ingress-nginx}
data: {use-proxy-protocol: "true", proxy-real-ip-cidr: "10.8.0.0/24"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ingress-nginx-controller, namespace: ingress-nginx}
spec:
  replicas: 1
  selector: {matchLabels: {app.kubernetes.io/name: ingress-nginx, app.kubernetes.io/component: controller}}
  template:
    metadata: {labels: {app.kubernetes.io/name: ingress-nginx, app.kubernetes.io/component: controller}}
    spec:
      nodeName: node-b
      automountServiceAccountToken: false
      containers:
      - name: controller
        image: registry.k8s.io/ingress-nginx/controller:v1.14.5
        args: [/nginx-ingress-controller, "--configmap=$(POD_NAMESPACE)/ingress-nginx-controller"]
---
apiVersion: v1
kind: Service
metadata: {name: ingress-nginx-controller, namespace: ingress-nginx}
spec:
  type: NodePort
  externalTrafficPolicy: Local
  selector: {app.kubernetes.io/name: ingress-nginx, app.kubernetes.io/component: controller}
  ports: [{name: http, port: 80, targetPort: 80}]
EOF
NP=$(k get svc echo -o jsonpath='{.spec.ports[0].nodePort}')
HC=$(k get svc echo -o jsonpath='{.spec.healthCheckNodePort}')
INP=$(k -n ingress-nginx get svc ingress-nginx-controller -o jsonpath='{.spec.ports[0].nodePort}')
until_ok 120 "echo pod Ready" k wait --for condition=Ready pod -l app=echo --timeout 2s
POD=$(k get pod -l app=echo -o jsonpath='{.items[0].metadata.uid} {.items[0].status.podIP}')
say "echo: NodePort $NP, healthCheckNodePort $HC, pod ${POD#* } (uid ${POD:0:8}) on node-a; ingress-nginx NodePort $INP"
until_ok 90 "node-a:$NP answering" at curl -sf -m 3 "http://10.8.0.11:$NP/clientip"

# externalTrafficPolicy Local
client=$(get "http://10.8.0.11:$NP/clientip")
check "node-a:$NP/clientip (pod on node-a) -> the client's own address" "10.8.0.100" "${client%:*}"
check "node-b:$NP (no local endpoint) -> dropped" timeout "$(get "http://10.8.0.12:$NP/clientip" 3)"
check "healthCheckNodePort node-a:$HC" 200 "$(code "http://10.8.0.11:$HC/healthz")"
check "healthCheckNodePort node-b:$HC" 503 "$(code "http://10.8.0.12:$HC/healthz")"
say "  node-a:$HC says $(get "http://10.8.0.11:$HC/healthz" | tr -d '\n ')"
check "pod namespace kaas-pod-${POD:0:8} runs agnhost" 1 "$(ip netns pids "kaas-pod-${POD:0:8}" | xargs -r ps -o comm= -p | grep -c agnhost)"

# ingress-nginx controller (nginx from its ConfigMap: PROXY protocol on) on node-b
for _ in $(seq 1 90); do [ -n "$(raw 10.8.0.12 "$INP" 203.0.113.7)" ] && break; sleep 1; done
check "node-b:$INP with PROXY from 203.0.113.7" "node=node-b client=203.0.113.7 peer=10.8.0.100" "$(raw 10.8.0.12 "$INP" 203.0.113.7)"
check "node-b:$INP without the PROXY header -> no answer" "" "$(raw 10.8.0.12 "$INP" | grep node=)"
check "nginx logged the headerless request as a broken PROXY header" yes "$([ "$(cat "$DIR"/datapath/pods/*/nginx-error.log 2>/dev/null | grep -c "broken header")" -ge 1 ] && echo yes)"
check "node-a:$INP (no controller there) -> dropped" timeout "$(get "http://10.8.0.11:$INP/" 3)"

# externalTrafficPolicy Cluster: node-b forwards to the pod on node-a (through the tunnel to node-a)
k patch svc echo --type merge -p '{"spec": {"externalTrafficPolicy": "Cluster"}}' >/dev/null
until_ok 60 "node-b:$NP forwarding" at curl -sf -m 3 "http://10.8.0.12:$NP/clientip"
client=$(get "http://10.8.0.12:$NP/clientip")
# node-b masquerades to its own address toward the pod: its tunnel address (datapath-tunnel.sh), as with Calico.
check "ETP Cluster: node-b:$NP forwards to node-a's pod through the tunnel (source masqueraded to node-b's tunnel address)" "10.244.240.12" "${client%:*}"
k patch svc echo --type merge -p '{"spec": {"externalTrafficPolicy": "Local"}}' >/dev/null
HC=$(k get svc echo -o jsonpath='{.spec.healthCheckNodePort}')   # Local again: a new healthCheckNodePort

# The pod goes away
k scale deployment echo --replicas 0 >/dev/null
gone() { ! ip netns list | grep -q "kaas-pod-${POD:0:8}" && ! grep -q "^pod/${POD:0:8} " "$DIR/datapath/pids"; }
until_ok 90 "pod ${POD:0:8} removed" gone
check "scaled to 0: namespace kaas-pod-${POD:0:8} and its program" "gone" "$(gone && echo gone)"
end=$(($(date +%s) + 60))
while c=$(code "http://10.8.0.11:$HC/healthz"); [ "$c" != 503 ] && [ "$(date +%s)" -lt "$end" ]; do sleep 1; done
check "scaled to 0: healthCheckNodePort node-a:$HC" 503 "$c"
say "  node-a:$HC says $(get "http://10.8.0.11:$HC/healthz" | tr -d '\n ')"
say "loop log: $(grep -c . "$LOG/datapath-nodes.log") lines; kube-proxy errors: $(cat "$LOG"/kube-proxy-*.log | grep -c '^E' || true)"
[ "$FAILED" = 0 ] && say "RESULT: PASS" || { say "RESULT: FAIL (logs in $LOG; KEEP=1 to keep them)"; grep -h . "$LOG/datapath-nodes.log" | tail -20; exit 1; }
