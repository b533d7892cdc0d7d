"""os-peer: nova's fake driver, plus a real network for each server (start.sh with PEER_DATAPATH=1).

Copied by test/peer/start.sh into DIR/nova/plugin and loaded by nova-compute as
compute_driver = os_peer_nova.PluggingFakeDriver. nova.virt.fake.FakeDriver (python3-nova 26.2.2,
Zed) plugs nothing (plug_vifs is a no-op, spawn and attach_interface only record the VIF); this
subclass gives every server what a hypervisor and os-vif would:

- a network namespace kaas-vm-<first 8 hex of the instance uuid> (recorded in
  $OS_PEER_VM_NETNS_DIR/<instance uuid>, which stop.sh reads to delete it);
- per VIF a veth whose server end is eth0, eth1, ... in that namespace, with the port's MAC, MTU and
  fixed IPv4 address/prefix, the default route via the first VIF's subnet gateway, and transmit
  checksum offload off (the userspace datapath gets unchecksummed packets otherwise: ovn-org/ovn
  tests/system-userspace-macros.at@v23.03.1, lines 55-63);
- its host end (the VIF's devname, tap<port id>) on br-int with the external_ids os-vif writes
  (openstack/os-vif vif_plug_ovs/ovs.py@3.0.0 _create_vif_port: iface-id, iface-status, attached-mac,
  vm-uuid), so ovn-controller binds the port and neutron marks it ACTIVE.

The namespace name and "eth0 addressed and routed" are a contract with the testbed's workload side
(which runs processes in these namespaces). attach/detach_interface plug synchronously, as libvirt
does; destroy kills what runs in the namespace and deletes it with its OVS ports.

With PEER_AMPHORA=1 an Octavia amphora server also runs its amphora agent in a container in that
namespace (os_peer_amphora.py: booted by spawn, stopped first by destroy), and a port attached to it
comes without an address, as on a real amphora, whose agent configures the NIC it finds by MAC.
"""
import ipaddress
import os

from oslo_concurrency import processutils
from oslo_log import log as logging

from nova.virt import fake

import os_peer_amphora  # DIR/nova/plugin is on nova-compute's PYTHONPATH

LOG = logging.getLogger(__name__)


def netns_name(instance_uuid):
    """The server's network namespace: kaas-vm-<first 8 hex digits of its uuid>."""
    return "kaas-vm-" + instance_uuid[:8]


def _run(*cmd, ok_codes=(0,)):
    out, _ = processutils.execute(*cmd, check_exit_code=list(ok_codes))
    return out


def _vsctl(*args):
    # OVS_RUNDIR (set by start.sh) points ovs-vsctl at the peer's own ovsdb-server. 120 s, the default of
    # os-vif's [os_vif_ovs] ovs_vsctl_timeout: on a loaded 2-core machine the userspace
    # vswitchd took more than 10 s to add a port, ovs-vsctl died of SIGALRM and the amphora's build was
    # aborted (the LB went ERROR; seen 2026-11-28 under load 17-24, several times in one run).
    return _run("ovs-vsctl", "--timeout=120", *args)


def _ipv4(vif):
    """(address/prefix, gateway or None, mtu or None) of the VIF's first IPv4 fixed IP."""
    network = vif["network"] or {}
    mtu = (network.get("meta") or {}).get("mtu")
    for subnet in network.get("subnets") or []:
        cidr = ipaddress.ip_network(subnet["cidr"])
        if cidr.version != 4:
            continue
        for ip in subnet.get("ips") or []:
            gateway = (subnet.get("gateway") or {}).get("address")
            return f"{ip['address']}/{cidr.prefixlen}", gateway, mtu
    return None, None, mtu


class PluggingFakeDriver(fake.FakeDriver):
    """FakeDriver whose servers are network namespaces plugged into br-int."""

    def _record(self, instance_uuid):
        state_dir = os.environ.get("OS_PEER_VM_NETNS_DIR")
        if state_dir:
            os.makedirs(state_dir, exist_ok=True)
            with open(os.path.join(state_dir, instance_uuid), "w") as f:
                f.write(netns_name(instance_uuid) + "\n")

    def _ensure_netns(self, instance_uuid):
        ns = netns_name(instance_uuid)
        if not os.path.exists(os.path.join("/run/netns", ns)):
            self._record(instance_uuid)
            _run("ip", "netns", "add", ns)
            _run("ip", "-n", ns, "link", "set", "lo", "up")
        return ns

    @staticmethod
    def _devname(vif):
        return vif.get("devname") or ("tap" + vif["id"])[:14]

    @staticmethod
    def _free_ifname(ns):
        names = {line.split(":")[1].strip().split("@")[0]
                 for line in _run("ip", "-n", ns, "-o", "link", "show").splitlines() if ":" in line}
        i = 0
        while f"eth{i}" in names:
            i += 1
        return f"eth{i}"

    def _plug(self, instance, vif, ifname=None, address=True):
        ns = self._ensure_netns(instance.uuid)
        host = self._devname(vif)
        if _run("ip", "link", "show", host, ok_codes=(0, 1)).strip():
            return  # already plugged (plug_vifs after a restart)
        ifname = ifname or self._free_ifname(ns)
        addr, gateway, mtu = _ipv4(vif)
        if not address:
            addr = gateway = None
        _run("ip", "link", "add", host, "type", "veth", "peer", "name", ifname, "netns", ns)
        _run("ip", "-n", ns, "link", "set", ifname, "address", vif["address"])
        if mtu:
            _run("ip", "link", "set", host, "mtu", str(mtu))
            _run("ip", "-n", ns, "link", "set", ifname, "mtu", str(mtu))
        if addr:
            _run("ip", "-n", ns, "addr", "add", addr, "dev", ifname)
        _run("ip", "-n", ns, "link", "set", ifname, "up")
        if gateway and ifname == "eth0":
            _run("ip", "-n", ns, "route", "replace", "default", "via", gateway, "dev", ifname)
        _run("ip", "netns", "exec", ns, "ethtool", "-K", ifname, "tx", "off")
        _run("ethtool", "-K", host, "tx", "off")
        _run("ip", "link", "set", host, "up")
        _vsctl("--", "--if-exists", "del-port", host, "--", "add-port", "br-int", host,
               "--", "set", "Interface", host,
               f"external_ids:iface-id={vif['id']}", "external_ids:iface-status=active",
               f"external_ids:attached-mac={vif['address']}", f"external_ids:vm-uuid={instance.uuid}")
        LOG.info("plugged port %s as %s in %s (%s), host end %s on br-int",
                 vif["id"], ifname, ns, addr, host, instance=instance)

    def _unplug(self, vif):
        host = self._devname(vif)
        _vsctl("--if-exists", "del-port", "br-int", host)
        _run("ip", "link", "del", host, ok_codes=(0, 1))

    def plug_vifs(self, instance, network_info):
        for i, vif in enumerate(network_info or []):
            self._plug(instance, vif, f"eth{i}")

    def unplug_vifs(self, instance, network_info):
        for vif in network_info or []:
            self._unplug(vif)

    def spawn(self, context, instance, image_meta, injected_files, admin_password, allocations,
              network_info=None, block_device_info=None, power_on=True, accel_info=None):
        super().spawn(context, instance, image_meta, injected_files, admin_password, allocations,
                      network_info, block_device_info, power_on, accel_info)
        ns = self._ensure_netns(instance.uuid)
        self.plug_vifs(instance, network_info)
        os_peer_amphora.maybe_boot(instance, ns, injected_files)

    def attach_interface(self, context, instance, image_meta, vif):
        super().attach_interface(context, instance, image_meta, vif)
        self._plug(instance, vif, address=not os_peer_amphora.has_container(instance))

    def detach_interface(self, context, instance, vif):
        super().detach_interface(context, instance, vif)
        self._unplug(vif)

    def destroy(self, context, instance, network_info, block_device_info=None,
                destroy_disks=True, destroy_secrets=True):
        os_peer_amphora.stop(instance)  # before its namespace's processes are killed below
        super().destroy(context, instance, network_info, block_device_info, destroy_disks,
                        destroy_secrets)
        self.unplug_vifs(instance, network_info)
        for port in _vsctl("--bare", "--columns=name", "find", "Interface",
                           f"external_ids:vm-uuid={instance.uuid}").split():
            _vsctl("--if-exists", "del-port", "br-int", port)
        ns = netns_name(instance.uuid)
        if os.path.exists(os.path.join("/run/netns", ns)):
            for pid in _run("ip", "netns", "pids", ns).split():
                _run("kill", "-KILL", pid, ok_codes=(0, 1))
            _run("ip", "netns", "del", ns)
        state_dir = os.environ.get("OS_PEER_VM_NETNS_DIR")
        if state_dir:
            try:
                os.unlink(os.path.join(state_dir, instance.uuid))
            except FileNotFoundError:
                pass
        LOG.info("deleted network namespace %s", ns, instance=instance)
