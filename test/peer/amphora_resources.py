"""os-peer (PEER_AMPHORA=1, test/peer/amphora.sh): the cloud objects Octavia's amphora controller needs.

    amphora_resources.py ensure   OUT.json   create what is missing, write the ids to OUT.json
    amphora_resources.py wait-port OUT.json  wait until the controller's port is ACTIVE (ovn-controller bound o-hm0)

Everything belongs to project "service" and is made as the octavia user (admin there), like devstack's
octavia plugin (octavia 11.0.0 devstack/plugin.sh: build_mgmt_network, create_mgmt_network_interface,
create_amphora_flavor, the image tagged with OCTAVIA_AMP_IMAGE_TAG). Environment: KEYSTONE (.../v3),
SERVICE_PASSWORD, NEUTRON (.../v2.0), GLANCE (.../v2), NOVA (.../v2.1), COMPUTE_HOST, MGMT_CIDR, HM_PORT.
"""
import ipaddress
import json
import os
import sys
import time

import requests

E = os.environ
IMAGE_NAME = "amphora-x64-haproxy"
IMAGE_TAG = "amphora"
FLAVOR_NAME = "amphora"


def session():
    """A token of the octavia user scoped to project service, and that project's id."""
    r = requests.post(E["KEYSTONE"] + "/auth/tokens", json={"auth": {
        "identity": {"methods": ["password"], "password": {"user": {
            "name": "octavia", "domain": {"id": "default"}, "password": E["SERVICE_PASSWORD"]}}},
        "scope": {"project": {"name": "service", "domain": {"id": "default"}}}}}, timeout=30)
    r.raise_for_status()
    return {"X-Auth-Token": r.headers["X-Subject-Token"]}, r.json()["token"]["project"]["id"]


def call(method, url, hdr, ok=(200, 201, 202, 204), **kw):
    r = requests.request(method, url, headers=hdr, timeout=60, **kw)
    if r.status_code not in ok:
        sys.exit(f"{method} {url}: HTTP {r.status_code} {r.text[:400]}")
    return r.json() if r.content else {}


def nfind(hdr, coll, **q):
    return call("GET", f"{E['NEUTRON']}/{coll}", hdr, params=q)[coll.replace("-", "_")]


def nensure(hdr, coll, key, match, body):
    found = nfind(hdr, coll, **match)
    if found:
        return found[0]
    return call("POST", f"{E['NEUTRON']}/{coll}", hdr, json={key: body})[key]


def secgroup(hdr, project, name, rules):
    """A security group of project service with exactly these extra ingress rules (egress stays open)."""
    sg = nensure(hdr, "security-groups", "security_group", {"name": name, "project_id": project},
                 {"name": name, "description": "os-peer amphora controller (amphora.sh)"})
    have = {(r["protocol"], r["port_range_min"], r["remote_ip_prefix"])
            for r in nfind(hdr, "security-group-rules", security_group_id=sg["id"], direction="ingress")}
    for proto, port, prefix in rules:
        if (proto, port, prefix) not in have:
            call("POST", f"{E['NEUTRON']}/security-group-rules", hdr, json={"security_group_rule": {
                "security_group_id": sg["id"], "direction": "ingress", "ethertype": "IPv4", "protocol": proto,
                "port_range_min": port, "port_range_max": port, "remote_ip_prefix": prefix}})
    return sg


def network(hdr, project):
    cidr = ipaddress.ip_network(E["MGMT_CIDR"])
    hosts = list(cidr.hosts())
    net = nensure(hdr, "networks", "network", {"name": "lb-mgmt-net", "project_id": project},
                  {"name": "lb-mgmt-net"})
    sub = nensure(hdr, "subnets", "subnet", {"name": "lb-mgmt-subnet", "network_id": net["id"]},
                  {"name": "lb-mgmt-subnet", "network_id": net["id"], "ip_version": 4, "cidr": str(cidr),
                   "allocation_pools": [{"start": str(hosts[1]), "end": str(hosts[-1])}]})
    amp_sg = secgroup(hdr, project, "lb-mgmt-sec-grp",
                      [("tcp", 9443, str(cidr)), ("icmp", None, str(cidr))])
    hm_sg = secgroup(hdr, project, "lb-health-mgr-sec-grp",
                     [("udp", int(E["HM_PORT"]), str(cidr)), ("icmp", None, str(cidr))])
    port = nensure(hdr, "ports", "port", {"name": "octavia-health-manager-listen-port", "network_id": net["id"]},
                   {"name": "octavia-health-manager-listen-port", "network_id": net["id"],
                    "device_owner": "Octavia:health-mgr", "device_id": "os-peer-o-hm0",
                    "security_groups": [hm_sg["id"]], "binding:host_id": E["COMPUTE_HOST"]})
    ip = next(f["ip_address"] for f in port["fixed_ips"] if f["subnet_id"] == sub["id"])
    return {"mgmt_net_id": net["id"], "mgmt_subnet_id": sub["id"], "mtu": net.get("mtu") or 1442,
            "prefixlen": cidr.prefixlen, "amp_secgroup_id": amp_sg["id"], "hm_secgroup_id": hm_sg["id"],
            "hm_port_id": port["id"], "hm_port_mac": port["mac_address"], "hm_port_ip": ip}


def image(hdr):
    """A private image of project service tagged "amphora": a tiny file (nothing boots it)."""
    g = E["GLANCE"]
    found = call("GET", g + "/images", hdr, params={"name": IMAGE_NAME})["images"]
    img = found[0] if found else call("POST", g + "/images", hdr, json={
        "name": IMAGE_NAME, "disk_format": "qcow2", "container_format": "bare", "visibility": "private",
        "tags": [IMAGE_TAG]})
    if img["status"] != "active":
        call("PUT", f"{g}/images/{img['id']}/file", dict(hdr, **{"Content-Type": "application/octet-stream"}),
             data=b"os-peer amphora image stand-in: the peer's nova boots the amphora agent in a container\n")
    if IMAGE_TAG not in img.get("tags", []):
        call("PUT", f"{g}/images/{img['id']}/tags/{IMAGE_TAG}", hdr)
    return img["id"]


def flavor(hdr, project):
    """devstack's private m1.amphora (1 GiB, 1 vCPU here; the fake virt driver has room), for project service."""
    n = E["NOVA"]
    found = [f for f in call("GET", n + "/flavors", hdr, params={"is_public": "None"})["flavors"]
             if f["name"] == FLAVOR_NAME]
    if found:
        return found[0]["id"]
    fl = call("POST", n + "/flavors", hdr, json={"flavor": {
        "name": FLAVOR_NAME, "ram": 1024, "vcpus": 1, "disk": 2, "os-flavor-access:is_public": False}})["flavor"]
    call("POST", f"{n}/flavors/{fl['id']}/action", hdr, json={"addTenantAccess": {"tenant": project}})
    return fl["id"]


def wait_port(hdr, port_id, seconds=120):
    for _ in range(seconds * 2):
        p = call("GET", f"{E['NEUTRON']}/ports/{port_id}", hdr)["port"]
        if p["status"] == "ACTIVE":
            return
        time.sleep(0.5)
    sys.exit(f"port {port_id} is {p['status']} (binding {p.get('binding:vif_type')} on {p.get('binding:host_id')})")


def main():
    what, out = sys.argv[1:3]
    hdr, project = session()
    if what == "ensure":
        facts = network(hdr, project)
        facts.update(project_id=project, image_id=image(hdr), flavor_id=flavor(hdr, project))
        with open(out + ".new", "w") as f:
            json.dump(facts, f, indent=1)
        os.replace(out + ".new", out)
    elif what == "wait-port":
        wait_port(hdr, json.load(open(out))["hm_port_id"])
    else:
        sys.exit(f"unknown command {what}: use ensure or wait-port")


if __name__ == "__main__":
    main()
