# shellcheck shell=bash
# The pod plumber of the data-path loop (sourced by datapath-nodes.sh loop; uses its DP, LOG, wk, log,
# dp_* helpers and DP/nodes.tsv). For every Ready pod KWOK placed on a data-path node (not hostNetwork,
# pod IP set):
#   - netns kaas-pod-<uid8> with eth0 = the pod IP/32, default route via 169.254.1.1 (onlink); in the node's
#     VM namespace the other end "kp-<uid8>" with proxy ARP and a /32 route to the pod: Calico's own
#     layout (kaas's default CNI), so kube-proxy's DNAT on that node reaches the pod;
#   - in every other data-path node a /32 route to the pod through the tunnel to its node (datapath-tunnel.sh:
#     encapsulated, as Calico does), so kube-proxy on a pod-less node forwards (externalTrafficPolicy
#     Cluster, ClusterIPs). All these routes carry protocol 199 and are reconciled each pass (stale ones removed);
#   - the pod's program, in its own process group, restarted when it exits or its configuration changes:
#       image registry.k8s.io/e2e-test-images/agnhost  -> BIN/agnhost with the container's command/args
#                                                        (a leading /agnhost dropped; $(VAR) not expanded)
#       the ingress-nginx controller (app.kubernetes.io/name=ingress-nginx, component=controller)
#                                                     -> Debian nginx configured from the ConfigMap named by
#                                                        its --configmap= (ingress-nginx's own keys): port 80
#                                                        and 443 (plain HTTP: no certificates here) answer
#                                                        every request with one line
#                                                        "node=<node> client=$remote_addr peer=$realip_remote_addr";
#                                                        use-proxy-protocol "true" -> `listen … proxy_protocol`,
#                                                        real_ip_header proxy_protocol, set_real_ip_from each
#                                                        proxy-real-ip-cidr (default 0.0.0.0/0, as ingress-nginx);
#                                                        /healthz on 10254 (the controller's probes' port)
#       anything else                                 -> no program (the address answers, ports refuse)
# Pods that go away (deleted, not Ready, moved): program stopped, namespace deleted (its veth and route go).

# nginx.conf for an ingress-nginx controller pod: pod dir, node, ConfigMap data (JSON object).
nginx_conf() {
  local p=$1 node=$2 cm=$3 pp="" realip="" c
  if [ "$(jq -r '."use-proxy-protocol" // "false"' <<<"$cm")" = true ]; then
    pp=" proxy_protocol"; realip="    real_ip_header proxy_protocol;"$'\n'
    for c in $(jq -r '."proxy-real-ip-cidr" // "0.0.0.0/0"' <<<"$cm" | tr ',' ' '); do
      realip="$realip    set_real_ip_from $c;"$'\n'
    done
  fi
  cat <<EOF
# rendered by test/testbed/datapath-pods.sh from the controller's ConfigMap
worker_processes 1;
pid $p/nginx.pid;
error_log $p/nginx-error.log;
events { worker_connections 256; }
http {
  access_log off;
  default_type text/plain;
  client_body_temp_path $p/tmp/body; proxy_temp_path $p/tmp/proxy; fastcgi_temp_path $p/tmp/fastcgi;
  uwsgi_temp_path $p/tmp/uwsgi; scgi_temp_path $p/tmp/scgi;
  server {
    listen 80$pp;
    listen 443$pp;
$realip    location / { return 200 "node=$node client=\$remote_addr peer=\$realip_remote_addr\n"; }
  }
  server {
    listen 10254;
    location = /healthz { return 200 "ok\n"; }
  }
}
EOF
}

# Writes p/argv (NUL-separated program and arguments) for pod JSON $2; prints the kind (agnhost|nginx|none).
pod_program() { # pod-dir pod-json node
  local p=$1 pod=$2 node=$3 kind ref cm
  kind=$(jq -r 'if (.metadata.labels["app.kubernetes.io/name"] == "ingress-nginx" and .metadata.labels["app.kubernetes.io/component"] == "controller") then "nginx"
    elif any(.spec.containers[]; .image | startswith("registry.k8s.io/e2e-test-images/agnhost")) then "agnhost" else "none" end' <<<"$pod")
  case $kind in
    agnhost)
      jq -j '[.spec.containers[] | select(.image | startswith("registry.k8s.io/e2e-test-images/agnhost"))][0]
        | ((.command // []) + (.args // [])) | (if (.[0] // "" | endswith("agnhost")) then .[1:] else . end) | .[] | ., "\u0000"' <<<"$pod" \
        | { printf '%s\0' "$DP/bin/agnhost"; cat; } > "$p/argv" ;;
    nginx)
      ref=$(jq -r '[.spec.containers[].args // [] | .[] | select(startswith("--configmap="))][0] // "" | sub("--configmap="; "")' <<<"$pod")
      ref=${ref//\$(POD_NAMESPACE)/$(jq -r .metadata.namespace <<<"$pod")}
      cm='{}'
      [ -n "$ref" ] && cm=$(wk -n "${ref%%/*}" get configmap "${ref#*/}" -o json 2>/dev/null | jq -c '.data // {}') || cm='{}'
      [ -n "$cm" ] || cm='{}'
      mkdir -p "$p/tmp"
      nginx_conf "$p" "$node" "$cm" > "$p/nginx.conf"
      printf '%s\0' nginx -p "$p/" -e "$p/nginx-error.log" -c "$p/nginx.conf" -g 'daemon off;' > "$p/argv" ;;
    *) : > "$p/argv" ;;
  esac
  echo "$kind"
}

drop_pod() { # uid8
  local p=$DP/pods/$1
  dp_stop "pod/$1"
  ip netns del "kaas-pod-$1" 2>/dev/null
  log "pod $(cat "$p/name" 2>/dev/null) ($1): program stopped, namespace kaas-pod-$1 deleted"
  rm -rf "$p"
}

ensure_pod() { # uid8 namespace/name node ip pod-json
  local u=$1 name=$2 node=$3 ip=$4 pod=$5 p=$DP/pods/$1 pn=kaas-pod-$1 v kind sum
  v=$(awk -v n="$node" '$1==n{print $3}' "$DP/nodes.tsv")
  [ -d "$p" ] && [ "$(cat "$p/node" 2>/dev/null) $(cat "$p/ip" 2>/dev/null)" != "$node $ip" ] && drop_pod "$u"
  mkdir -p "$p"; echo "$pn" > "$p/netns"; echo "$name" > "$p/name"; echo "$node" > "$p/node"; echo "$ip" > "$p/ip"
  if ! ip -n "$pn" link show eth0 >/dev/null 2>&1 || ! ip -n "$v" link show "kp-$u" >/dev/null 2>&1; then
    dp_stop "pod/$u"; ip netns del "$pn" 2>/dev/null
    ip netns add "$pn" && ip -n "$v" link add "kp-$u" type veth peer name eth0 netns "$pn" &&
      ip -n "$pn" link set lo up && ip -n "$pn" link set eth0 up && ip -n "$pn" addr add "$ip/32" dev eth0 &&
      ip -n "$pn" route add 169.254.1.1 dev eth0 scope link && ip -n "$pn" route add default via 169.254.1.1 dev eth0 &&
      ip -n "$v" link set "kp-$u" up &&
      ip netns exec "$v" sysctl -qw "net.ipv4.conf.kp-$u.proxy_arp=1" "net.ipv4.neigh.kp-$u.proxy_delay=0" ||
      { log "pod $name: plumbing $pn on $node failed"; return 1; }
    log "pod $name ($u): $pn, $ip on $node ($v, kp-$u)"
  fi
  kind=$(pod_program "$p" "$pod" "$node")
  sum=$(cat "$p/argv" "$p/nginx.conf" 2>/dev/null | sha256sum | cut -c1-16)
  [ "$kind" = none ] && return 0
  if [ "$sum" = "$(cat "$p/sum" 2>/dev/null)" ] && dp_running "pod/$u"; then return 0; fi
  dp_stop "pod/$u"
  local argv=(); mapfile -d '' -t argv < "$p/argv"
  ip netns exec "$pn" setsid "${argv[@]}" </dev/null >>"$LOG/datapath-pods/${name//\//_}_$u.log" 2>&1 &
  dp_record "pod/$u" $!; echo "$sum" > "$p/sum"
  log "pod $name ($u): $kind started (pgid $!): ${argv[*]}"
}

sync_pods() {
  local pods u name node ip pod seen=" " n nip v want have r
  [ -s "$DP/nodes.tsv" ] || { for p in "$DP"/pods/*/; do [ -d "$p" ] && drop_pod "$(basename "$p")"; done; return 0; }
  pods=$(wk get pods -A -o json | jq -c --arg nodes " $(cut -f1 "$DP/nodes.tsv" | tr '\n' ' ')" '.items[]
    | select(.metadata.deletionTimestamp == null and (.spec.hostNetwork // false) == false and (.status.podIP // "") != ""
      and .status.phase == "Running" and any(.status.conditions[]?; .type == "Ready" and .status == "True")
      and (" \(.spec.nodeName) " as $n | $nodes | contains($n)))') || return 1
  while read -r pod; do
    [ -n "$pod" ] || continue
    read -r u name node ip < <(jq -r '[.metadata.uid[0:8], "\(.metadata.namespace)/\(.metadata.name)", .spec.nodeName, .status.podIP] | @tsv' <<<"$pod")
    ensure_pod "$u" "$name" "$node" "$ip" "$pod" && seen="$seen$u "
  done <<<"$pods"
  for p in "$DP"/pods/*/; do
    [ -d "$p" ] || continue; u=$(basename "$p")
    [[ "$seen" == *" $u "* ]] || drop_pod "$u"
  done
  # Routes to the pods, in every data-path node (protocol 199 marks them as this loop's): a local pod through
  # its veth, a pod on another node through the tunnel (datapath-tunnel.sh), and the other nodes' tunnel addresses.
  while IFS=$'\t' read -r n nip v; do
    want=""
    while read -r r; do
      # shellcheck disable=SC2086
      [ -n "$r" ] && ip -n "$v" route replace $r proto 199 2>/dev/null && want="$want ${r%% *} "
    done < <(tunnel_peers "$n" "$v")
    for p in "$DP"/pods/*/; do
      [ -f "$p/ip" ] || continue; u=$(basename "$p")
      if [ "$(cat "$p/node")" = "$n" ]; then r="$(cat "$p/ip") dev kp-$u scope link"
      else r="$(cat "$p/ip") via $(tunnel_ip "$(awk -v m="$(cat "$p/node")" '$1==m{print $2}' "$DP/nodes.tsv")") dev $TUN onlink"; fi
      # shellcheck disable=SC2086
      ip -n "$v" route replace $r proto 199 2>/dev/null && want="$want $(cat "$p/ip") "
    done
    for have in $(ip -n "$v" route show proto 199 | awk '{print $1}'); do
      [[ "$want" == *" $have "* ]] || ip -n "$v" route del "$have" proto 199 2>/dev/null
    done
  done < "$DP/nodes.tsv"
  return 0
}
