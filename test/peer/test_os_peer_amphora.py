"""Unit tests of os_peer_amphora.py (the Nova side of PEER_AMPHORA=1), without a peer.

  /usr/bin/python3 -m unittest discover -s test/peer -p 'test_os_peer_*.py'

The user data is rendered by Octavia's own templaters (python3-octavia, which the peer installs), so a
change in what Octavia sends shows here; amphora-vm.sh is replaced by a recorder.
"""
import base64
import os
import stat
import tempfile
import types
import unittest

from oslo_config import cfg
from oslo_log import log as logging

from octavia.common import config  # noqa: F401 (registers octavia's options)

import os_peer_amphora as amp

logging.register_options(cfg.CONF)
cfg.CONF([], project="octavia")

from octavia.amphorae.backends.agent import agent_jinja_cfg  # noqa: E402
from octavia.common.jinja import user_data_jinja_cfg  # noqa: E402

UUID = "11111111-2222-3333-4444-555555555555"
PEM = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----\nBBBB\n-----END PRIVATE KEY-----\n"


def octavia_user_data(amp_id="a1"):
    """base64 user data as ComputeCreate sends it with user_data_config_drive = True."""
    files = {"/etc/octavia/certs/server.pem": PEM, "/etc/octavia/certs/client_ca.pem": PEM,
             "/etc/octavia/amphora-agent.conf":
                 agent_jinja_cfg.AgentJinjaTemplater().build_agent_config(amp_id, "SINGLE")}
    text = user_data_jinja_cfg.UserDataJinjaCfg().build_user_data_config(files)
    return base64.b64encode(text.encode()).decode(), files


def server(name, user_data=None):
    return types.SimpleNamespace(display_name=name, user_data=user_data, uuid=UUID)


class MaybeBoot(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        os.environ["OS_PEER_AMPHORA_DIR"] = os.path.join(self.tmp.name, "amphora")
        self.calls = []
        self._execute = amp.processutils.execute
        amp.processutils.execute = lambda *args: (self.calls.append(args), ("booted", ""))[1]
        self.state = os.path.join(self.tmp.name, "amphora", "vm", UUID)

    def tearDown(self):
        amp.processutils.execute = self._execute
        os.environ.pop("OS_PEER_AMPHORA_DIR", None)
        self.tmp.cleanup()

    def test_octavias_files_are_written_as_cloud_init_would_and_the_container_booted(self):
        user_data, files = octavia_user_data()
        amp.maybe_boot(server("amphora-a1", user_data), "kaas-vm-11111111")
        self.assertEqual(self.calls[0][1:], ("boot", self.tmp.name, UUID, "kaas-vm-11111111"))
        for path, content in files.items():
            target = os.path.join(self.state, "files", path.lstrip("/"))
            with open(target) as f:  # YAML's "|" block keeps one final newline, as cloud-init writes
                self.assertEqual(f.read(), content.rstrip("\n") + "\n")
            self.assertEqual(stat.S_IMODE(os.stat(target).st_mode), 0o600)
        self.assertEqual(stat.S_IMODE(os.stat(self.state).st_mode), 0o700)
        self.assertTrue(amp.has_container(server("amphora-a1")))

    def test_a_renamed_amphora_is_known_by_its_agent_config(self):
        amp.maybe_boot(server("aRANDOM", octavia_user_data()[0]), "ns")
        self.assertEqual(len(self.calls), 1)

    def test_other_servers_are_left_alone_whatever_their_user_data(self):
        for ud in (None, base64.b64encode(b"\x1f\x8b\x08\x00gzip").decode(),
                   base64.b64encode(b"#cloud-config\nwrite_files:\n- path: /etc/x\n  content: hi\n").decode()):
            amp.maybe_boot(server("web-1", ud), "ns")
        self.assertEqual(self.calls, [])
        self.assertFalse(os.path.exists(self.state))

    def test_an_amphora_without_its_agent_config_fails_with_the_reason(self):
        with self.assertRaisesRegex(ValueError, "got no /etc/octavia/amphora-agent.conf.*compute_nova_driver"):
            amp.maybe_boot(server("amphora-a1"), "ns")
        self.assertEqual(self.calls, [])

    def test_a_path_outside_the_root_writes_nothing(self):
        ud = base64.b64encode(b"#cloud-config\nwrite_files:\n- path: /etc/octavia/amphora-agent.conf\n"
                              b"  content: x\n- path: /../../etc/evil\n  content: y\n").decode()
        with self.assertRaisesRegex(ValueError, "leaves the server's root"):
            amp.maybe_boot(server("amphora-a1", ud), "ns")
        self.assertFalse(os.path.exists(os.path.join(self.state, "files")))

    def test_disabled_without_the_switch(self):
        os.environ.pop("OS_PEER_AMPHORA_DIR")
        amp.maybe_boot(server("amphora-a1", octavia_user_data()[0]), "ns")
        amp.stop(server("amphora-a1"))
        self.assertEqual(self.calls, [])


if __name__ == "__main__":
    unittest.main()
