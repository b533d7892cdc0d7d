# Part B of test/peer/prove-amphora.sh (sourced by it once an amphora agent answers on :9443): a real
# amphora load balancer carrying traffic. Uses prove-amphora.sh's D, HERE, LB_ID, AMP_ID, CL, U/A, say/fail, RESP, FIP.
wait_lb() { local st; for _ in $(seq 1 "${2:-300}"); do st=$(U loadbalancer show "$LB_ID" -f value -c provisioning_status)
  case $st in ACTIVE) return 0;; ERROR) fail "prove-amp went ERROR ($1; worker log: $LOG/octavia-worker.log)";; esac; sleep 1; done
  fail "prove-amp stuck in $st ($1)"; }
ts=$(date +%s)
wait_lb "create" 600
say "B1 prove-amp ACTIVE $(($(date +%s) - ts)) s after the agent answered"
VRRP_IP=$(A loadbalancer amphora show "$AMP_ID" -f value -c vrrp_ip)
VIP=$(U loadbalancer show "$LB_ID" -f value -c vip_address)

# a member: a server on the private network with a responder on :8080 (/ and /healthz)
U security group rule create --protocol tcp --dst-port 8080 --remote-ip 0.0.0.0/0 default >/dev/null 2>&1 || true
U server delete --wait prove-amp-be >/dev/null 2>&1 || true
U server create --flavor "$OS_PEER_FLAVOR" --image "$OS_PEER_IMAGE_ID" --network private --wait prove-amp-be >/dev/null
BE=$(U server show prove-amp-be -f value -c id)
BE_NS=$(cat "$OS_PEER_VM_NETNS_DIR/$BE")
BE_IP=$(U port list --server prove-amp-be -f value -c "Fixed IP Addresses" | grep -o "[0-9]\+\.[0-9]\+\.[0-9]\+\.[0-9]\+" | head -1)
ip netns exec "$BE_NS" setsid /usr/bin/python3 "$HERE/http_responder.py" prove-amp-be </dev/null >"$D/prove-amp-responder.log" 2>&1 &
RESP=$!
say "B2 member server prove-amp-be $BE_IP ($BE_NS) with a responder on :8080"

U loadbalancer listener create --name prove-amp-http --protocol HTTP --protocol-port 80 "$LB_ID" >/dev/null; wait_lb listener
U loadbalancer pool create --name prove-amp-pool --protocol HTTP --lb-algorithm ROUND_ROBIN --listener prove-amp-http >/dev/null; wait_lb pool
U loadbalancer member create --name prove-amp-m --subnet-id private-subnet --address "$BE_IP" --protocol-port 8080 prove-amp-pool >/dev/null; wait_lb member
U loadbalancer healthmonitor create --name prove-amp-hm --type HTTP --url-path /healthz --delay 3 --timeout 2 \
  --max-retries 2 --max-retries-down 2 prove-amp-pool >/dev/null; wait_lb monitor
status() { echo "lb $(U loadbalancer show "$LB_ID" -f value -c operating_status) member $(U loadbalancer member show prove-amp-pool prove-amp-m -f value -c operating_status)"; }
for _ in $(seq 1 120); do [ "$(status)" = "lb ONLINE member ONLINE" ] && break; sleep 1; done
say "B3 operating_status (health manager, from the agent's heartbeats): $(status)"
[ "$(status)" = "lb ONLINE member ONLINE" ] || fail "not ONLINE (log: $LOG/octavia-health-manager.log)"

# the client: a namespace on br-ex (the external network) only, reaching a floating IP on the VIP
FIP=$(U floating ip create public --port "$(U loadbalancer show "$LB_ID" -f value -c vip_port_id)" -f value -c floating_ip_address)
read -r PREFIX CLIENT_IP <<<"$(/usr/bin/python3 -c "import ipaddress,sys; n=ipaddress.ip_network(sys.argv[1]); print(n.prefixlen, list(n.hosts())[-6])" "$OS_PEER_EXTERNAL_CIDR")"
ip netns add "$CL"; ip -n "$CL" link set lo up
ip link add ampcl-h type veth peer name eth0 netns "$CL"
ip -n "$CL" addr add "$CLIENT_IP/$PREFIX" dev eth0; ip -n "$CL" link set eth0 up
ip netns exec "$CL" ethtool -K eth0 tx off >/dev/null; ethtool -K ampcl-h tx off >/dev/null; ip link set ampcl-h up
ovs-vsctl --db="unix:$D/ovs/db.sock" --may-exist add-port br-ex ampcl-h
for _ in $(seq 1 60); do ip netns exec "$CL" curl -s --max-time 2 "http://$FIP/" >/dev/null && break; sleep 1; done
say "B4 client $CLIENT_IP ($CL) -> floating IP $FIP -> VIP $VIP:80 (amphora $VRRP_IP), 10 requests:"
for _ in $(seq 10); do ip netns exec "$CL" curl -s --max-time 3 "http://$FIP/" || echo TIMEOUT; done | sort | uniq -c | tee "$D/prove-amp-r1.txt"
[ "$(grep -c . "$D/prove-amp-r1.txt")" = 1 ] && grep -q " 10 vm=prove-amp-be client=$VRRP_IP$" "$D/prove-amp-r1.txt" \
  || fail "expected 10 answers from prove-amp-be seeing the amphora's address $VRRP_IP"

kill "$RESP"; RESP=""
for _ in $(seq 1 90); do [[ "$(status)" == *"member ERROR" ]] && break; sleep 1; done
say "B5 responder stopped: $(status)"
[[ "$(status)" == *"member ERROR" ]] || fail "the member was not marked ERROR by the health manager"
say "PASS: A and B ($(($(date +%s) - T0)) s)"
