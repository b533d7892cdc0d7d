#!/bin/bash
# Proof of the peer's compute (needs NOVA=1): flavor + tiny image, boot a fake-driver server on
# the tenant network: ACTIVE with a bound port; a floating IP from "public" associated with it
# shows in its addresses. Exits non-zero on any failure.
#   test/peer/prove-nova.sh PEER_DIR   (inside the peer's network namespace, if it has one)
D=${1:?usage: prove-nova.sh PEER_DIR}
# The openstack CLI's caches (stevedore, novaclient) go to DIR/cli-home, not root's home.
export HOME=$D/cli-home XDG_CACHE_HOME=$D/cli-home/.cache
mkdir -p "$HOME"
export OS_CLIENT_CONFIG_FILE=$D/clouds.yaml
O=/usr/bin/openstack
A() { OS_CLOUD=peer-admin $O "$@"; }
U() { OS_CLOUD=peer-demo $O "$@"; }
set -e
now() { date +%s.%N; }
command -v bc >/dev/null || bc() { python3 -c "import sys; print(round(eval(sys.stdin.read()), 3))"; }
echo "+ openstack catalog list (demo)"; U catalog list -f value -c Name -c Type | sort | paste -sd' '
echo "+ openstack flavor create --vcpus 1 --ram 128 --disk 1 --public test.small (admin)"
A flavor create --vcpus 1 --ram 128 --disk 1 --public test.small -f value -c id -c name | paste -sd' '
head -c 8192 /dev/urandom > "$D/tiny.img"
echo "+ openstack image create --disk-format raw --container-format bare --file tiny.img (8 KiB) test-image (demo)"
U image create --disk-format raw --container-format bare --file "$D/tiny.img" test-image -f value -c id -c status -c size | paste -sd' '
echo "+ openstack image list"; U image list
echo "+ openstack availability zone list --compute"; U availability zone list --compute
echo "+ openstack availability zone list --compute --long (admin)"; A availability zone list --compute --long
echo "+ openstack compute service list (admin)"; A compute service list -c Binary -c Host -c Zone -c Status -c State
echo "+ openstack hypervisor list (admin)"; A hypervisor list
echo "+ openstack network agent list (admin)"; A network agent list -c "Agent Type" -c Host -c Alive -c State
T=$(now)
echo "+ openstack server create --flavor test.small --image test-image --network private vm1 (demo)"
U server create --flavor test.small --image test-image --network private vm1 -f value -c id -c status | paste -sd' '
SID=$(U server show vm1 -f value -c id)
for i in $(seq 1 300); do
  st=$(U server show vm1 -f value -c status)
  case $st in ACTIVE|ERROR) break;; esac; sleep 0.2
done
echo "server create -> $st: $(echo "$(now) - $T" | bc) s"
echo "+ openstack server show vm1"
U server show vm1 -c id -c name -c status -c OS-EXT-STS:vm_state -c OS-EXT-STS:power_state -c OS-EXT-AZ:availability_zone -c addresses -c flavor -c image -c fault
echo "+ openstack server show \$SID -c OS-EXT-SRV-ATTR:host -c OS-EXT-SRV-ATTR:hypervisor_hostname (admin)"
A server show "$SID" -f value -c OS-EXT-SRV-ATTR:host -c OS-EXT-SRV-ATTR:hypervisor_hostname | paste -sd' '
[ "$st" = ACTIVE ] || { echo "server vm1 is $st, not ACTIVE"; exit 1; }
PORT=$(U port list --server vm1 -f value -c ID)
echo "+ openstack port show $PORT (admin)"
A port show "$PORT" -c device_owner -c binding_host_id -c binding_vif_type -c binding_vnic_type -c fixed_ips -c status
echo "+ openstack floating ip create public (demo)"
FIP=$(U floating ip create public -f value -c floating_ip_address)
echo "floating IP $FIP"
echo "+ openstack server add floating ip vm1 $FIP"
U server add floating ip vm1 "$FIP"
for i in $(seq 1 100); do U server show vm1 -f value -c addresses | grep -qF "$FIP" && break; sleep 0.3; done
echo "+ openstack server show vm1 -c addresses"; U server show vm1 -f value -c addresses
U server show vm1 -f value -c addresses | grep -qF "$FIP" || { echo "floating IP $FIP not in vm1's addresses"; exit 1; }
echo "+ openstack floating ip show $FIP"; U floating ip show "$FIP" -c floating_ip_address -c fixed_ip_address -c port_id -c status
echo "+ openstack floating ip delete $FIP"; U floating ip delete "$FIP"
echo "+ openstack server delete --wait vm1"
T=$(now)
U server delete --wait vm1
echo "server delete: $(echo "$(now) - $T" | bc) s"
echo "+ openstack server list"; U server list
echo "+ openstack port show $PORT (after delete)"; A port show "$PORT" -c id 2>&1 || true
U image delete test-image; A flavor delete test.small
echo "test image and flavor deleted"
