"""Octavia's controller side for prove-amphora-vm.sh, with Octavia's own code (python3-octavia 11.0.0).

  prove-amphora-vm.py P build NET_ID          -> last line "AMPHORA_ID SERVER_ID LB_MGMT_IP"
  prove-amphora-vm.py P info AMP_ID IP         the agent's /info (JSON), retried while it boots
  prove-amphora-vm.py P plug_vip AMP_ID IP VIP CIDR GATEWAY MAC VRRP_IP

P is the proof's directory (controller.conf, ca.pem, ca.key). build does what octavia-worker's
create-amphora flow does up to the server: a server certificate signed by the CA (CN = amphora id,
as local_cert_generator does), the agent config from AgentJinjaTemplater, the cloud-config from
UserDataJinjaCfg with the files CertComputeCreate and ComputeCreate put there (user_data_config_drive
= True), then compute/drivers/nova_driver.py VirtualMachineManager.build() and wait for ACTIVE.
"""
import json
import subprocess
import sys
import time
import uuid
import warnings

from oslo_config import cfg
from oslo_log import log as logging

from octavia.common import config  # noqa: F401 (registers octavia's options)

warnings.filterwarnings("ignore")  # urllib3: the amphora certificate has no subjectAltName
P, CMD, ARGS = sys.argv[1], sys.argv[2], sys.argv[3:]
logging.register_options(cfg.CONF)
cfg.CONF(["--config-file", P + "/controller.conf"], project="octavia")

from octavia.amphorae.backends.agent import agent_jinja_cfg  # noqa: E402
from octavia.amphorae.drivers.haproxy import rest_api_driver  # noqa: E402
from octavia.common.jinja import user_data_jinja_cfg  # noqa: E402
from octavia.common.jinja.logging import logging_jinja_cfg  # noqa: E402
from octavia.compute.drivers import nova_driver  # noqa: E402


def server_pem(amp_id):
    key = f"{P}/server-{amp_id}.key"
    subprocess.run(["openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={amp_id}",
                    "-keyout", key, "-out", f"{P}/server.csr"], check=True, capture_output=True)
    subprocess.run(["openssl", "x509", "-req", "-in", f"{P}/server.csr", "-CA", f"{P}/ca.pem",
                    "-CAkey", f"{P}/ca.key", "-CAcreateserial", "-days", "30",
                    "-out", f"{P}/server.crt"], check=True, capture_output=True)
    pem = open(f"{P}/server.crt").read() + open(key).read()
    return pem


def build(net_id):
    amp_id = str(uuid.uuid4())
    files = {"/etc/octavia/certs/server.pem": server_pem(amp_id),
             "/etc/octavia/certs/client_ca.pem": open(f"{P}/ca.pem").read(),
             "/etc/octavia/amphora-agent.conf":
                 agent_jinja_cfg.AgentJinjaTemplater().build_agent_config(amp_id, "SINGLE"),
             "/etc/rsyslog.d/10-rsyslog.conf":
                 logging_jinja_cfg.LoggingJinjaTemplater(None).build_logging_config()}
    user_data = user_data_jinja_cfg.UserDataJinjaCfg().build_user_data_config(files)
    compute = nova_driver.VirtualMachineManager()
    t0 = time.time()
    server_id = compute.build(name="amphora-" + amp_id, amphora_flavor=find_flavor(compute),
                              image_tag=cfg.CONF.controller_worker.amp_image_tag,
                              network_ids=[net_id], user_data=user_data)
    for _ in range(240):
        amp, _fault = compute.get_amphora(server_id)
        if amp.status in ("ACTIVE", "ERROR"):
            break
        time.sleep(0.5)
    print(f"server {server_id} {amp.status} after {time.time() - t0:.1f} s, "
          f"lb_network_ip {amp.lb_network_ip}", file=sys.stderr)
    if amp.status != "ACTIVE":
        sys.exit(f"server {server_id} is {amp.status}")
    print(amp_id, server_id, amp.lb_network_ip)


def find_flavor(compute):
    return compute.manager.api.flavors.find(name="peer.tiny").id


def amphora(amp_id, ip):
    return type("Amp", (), {"id": amp_id, "lb_network_ip": ip, "api_version": "1.0"})()


def main():
    if CMD == "build":
        build(ARGS[0])
    elif CMD == "info":
        client = rest_api_driver.AmphoraAPIClient1_0()
        t0 = time.time()
        info = client.get_info(amphora(*ARGS[:2]))
        print(f"agent /info answered after {time.time() - t0:.1f} s of retries", file=sys.stderr)
        print(json.dumps(info, sort_keys=True))
    elif CMD == "plug_vip":
        amp_id, ip, vip, cidr, gateway, mac, vrrp = ARGS
        r = rest_api_driver.AmphoraAPIClient1_0().plug_vip(amphora(amp_id, ip), vip, {
            "subnet_cidr": cidr, "gateway": gateway, "mac_address": mac, "vrrp_ip": vrrp,
            "mtu": 1442, "host_routes": []})
        print("plug_vip:", r.status_code, r.text.strip())
    else:
        sys.exit(f"unknown command {CMD}")


main()
