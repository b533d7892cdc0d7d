#!/bin/bash
# Proof of the peer's load balancers (needs OCTAVIA_WORKER=1): an amphora LB + TCP listener +
# PROXY pool + member + HTTP health monitor reach ACTIVE, cascade delete removes it and its VIP
# port; then an ovn LB + listener + pool + member reach ACTIVE. Exits non-zero on any failure.
#   test/peer/prove-lb.sh PEER_DIR     (inside the peer's network namespace, if it has one)
D=${1:?usage: prove-lb.sh PEER_DIR}
# The openstack CLI's caches (stevedore, novaclient) go to DIR/cli-home, not root's home.
export HOME=$D/cli-home XDG_CACHE_HOME=$D/cli-home/.cache
mkdir -p "$HOME"
export OS_CLIENT_CONFIG_FILE=$D/clouds.yaml OS_CLOUD=${CLOUD:-peer-demo}
O=/usr/bin/openstack
set -e
now() { date +%s.%N; }
command -v bc >/dev/null || bc() { python3 -c "import sys; print(round(eval(sys.stdin.read()), 3))"; }
wait_lb() { # lb-name-or-id: until provisioning_status is ACTIVE (or ERROR)
  local st i
  for i in $(seq 1 600); do
    st=$($O loadbalancer show "$1" -f value -c provisioning_status)
    case $st in ACTIVE) return 0;; ERROR) echo "LB went ERROR"; return 1;; esac
    sleep 0.2
  done; echo "timeout, status $st"; return 1
}
echo "+ openstack loadbalancer provider list"; $O loadbalancer provider list
T=$(now)
echo "+ openstack loadbalancer create --name lb1 --provider amphora --vip-subnet-id private-subnet"
$O loadbalancer create --name lb1 --provider amphora --vip-subnet-id private-subnet -f value -c id -c provisioning_status
wait_lb lb1; echo "LB create -> ACTIVE: $(echo "$(now) - $T" | bc) s"
T=$(now)
echo "+ openstack loadbalancer listener create --name lis-tcp --protocol TCP --protocol-port 6443 lb1"
$O loadbalancer listener create --name lis-tcp --protocol TCP --protocol-port 6443 lb1 -f value -c id -c provisioning_status
wait_lb lb1; echo "listener -> LB ACTIVE: $(echo "$(now) - $T" | bc) s"
echo "+ openstack loadbalancer pool create --name pool-proxy --protocol PROXY --lb-algorithm ROUND_ROBIN --listener lis-tcp"
$O loadbalancer pool create --name pool-proxy --protocol PROXY --lb-algorithm ROUND_ROBIN --listener lis-tcp -f value -c id -c provisioning_status
wait_lb lb1
echo "+ openstack loadbalancer member create --name m1 --subnet-id private-subnet --address 10.0.0.10 --protocol-port 6443 pool-proxy"
$O loadbalancer member create --name m1 --subnet-id private-subnet --address 10.0.0.10 --protocol-port 6443 pool-proxy -f value -c id -c provisioning_status
wait_lb lb1
echo "+ openstack loadbalancer healthmonitor create --name hm1 --type HTTP --url-path /healthz --delay 5 --timeout 3 --max-retries 3 pool-proxy"
$O loadbalancer healthmonitor create --name hm1 --type HTTP --url-path /healthz --delay 5 --timeout 3 --max-retries 3 pool-proxy -f value -c id -c provisioning_status
wait_lb lb1
echo "+ openstack loadbalancer show lb1"; $O loadbalancer show lb1 -c id -c name -c provider -c provisioning_status -c operating_status -c vip_address -c vip_port_id -c created_at -c updated_at
for obj in "listener show lis-tcp" "pool show pool-proxy" "member show pool-proxy m1" "healthmonitor show hm1"; do
  echo "+ openstack loadbalancer $obj -c name -c provisioning_status -c operating_status"
  $O loadbalancer $obj -f yaml -c name -c provisioning_status -c operating_status | paste -sd' '
done
echo "+ openstack loadbalancer amphora list (admin)"; OS_CLOUD=peer-admin $O loadbalancer amphora list -c id -c status -c role -c lb_network_ip -c ha_ip || true
VIP_PORT=$($O loadbalancer show lb1 -f value -c vip_port_id)
echo "+ openstack port show VIP port"; $O port show "$VIP_PORT" -c id -c name -c device_owner -c fixed_ips -c status
echo "+ openstack loadbalancer delete --cascade lb1"
T=$(now)
$O loadbalancer delete --cascade lb1
for i in $(seq 1 300); do $O loadbalancer show lb1 >/dev/null 2>&1 || break; sleep 0.2; done
echo "cascade delete -> gone: $(echo "$(now) - $T" | bc) s"
echo "+ openstack loadbalancer list"; $O loadbalancer list
echo "+ openstack port show VIP port (after delete)"; $O port show "$VIP_PORT" -c id -c device_owner 2>&1 || true
echo "+ openstack port list --device-owner Octavia"; $O port list --device-owner Octavia -f value -c id -c name
T=$(now)
echo "+ openstack loadbalancer create --name lb-ovn --provider ovn --vip-subnet-id private-subnet"
$O loadbalancer create --name lb-ovn --provider ovn --vip-subnet-id private-subnet -f value -c id -c provisioning_status
wait_lb lb-ovn; echo "ovn LB create -> ACTIVE: $(echo "$(now) - $T" | bc) s"
echo "+ openstack loadbalancer listener create --name lis-ovn --protocol TCP --protocol-port 6443 lb-ovn"
$O loadbalancer listener create --name lis-ovn --protocol TCP --protocol-port 6443 lb-ovn -f value -c id -c provisioning_status
wait_lb lb-ovn
echo "+ openstack loadbalancer pool create --name pool-ovn --protocol TCP --lb-algorithm SOURCE_IP_PORT --listener lis-ovn"
$O loadbalancer pool create --name pool-ovn --protocol TCP --lb-algorithm SOURCE_IP_PORT --listener lis-ovn -f value -c id -c provisioning_status
wait_lb lb-ovn
echo "+ openstack loadbalancer member create --name m-ovn --subnet-id private-subnet --address 10.0.0.11 --protocol-port 6443 pool-ovn"
$O loadbalancer member create --name m-ovn --subnet-id private-subnet --address 10.0.0.11 --protocol-port 6443 pool-ovn -f value -c id -c provisioning_status
wait_lb lb-ovn
echo "+ openstack loadbalancer show lb-ovn"; $O loadbalancer show lb-ovn -c name -c provider -c provisioning_status -c operating_status -c vip_address
for obj in "listener show lis-ovn" "pool show pool-ovn" "member show pool-ovn m-ovn"; do
  echo "+ openstack loadbalancer $obj -c name -c provisioning_status -c operating_status"
  $O loadbalancer $obj -f yaml -c name -c provisioning_status -c operating_status | paste -sd' '
done
echo "+ openstack loadbalancer delete --cascade lb-ovn"
$O loadbalancer delete --cascade lb-ovn
for i in $(seq 1 300); do $O loadbalancer show lb-ovn >/dev/null 2>&1 || break; sleep 0.2; done
echo "+ openstack loadbalancer list"; $O loadbalancer list
