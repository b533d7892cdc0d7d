"""Unit tests of the peer's usercustomize.py (written by start.sh into DIR/lib), without a peer.

  /usr/bin/python3 -m unittest discover -s test/peer -p 'test_os_peer_*.py'

The module is taken from start.sh's heredoc as the peer writes it, put on PYTHONPATH of a fresh
interpreter (it is imported at start-up, like in the peer's octavia processes) with python3-octavia
installed, and Octavia's own v2 ControllerWorker.run_flow is called with a recording flow factory.
"""
import json
import os
import re
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

# Calls ControllerWorker.run_flow as create_load_balancer does (octavia/controller/worker/v2/
# controller_worker.py: run_flow(get_create_load_balancer_flow, topology, listeners=..., store=...)) and
# prints what the flow factory and the taskflow engine were given.
PROBE = r"""
import contextlib, json
from octavia.controller.worker.v2 import controller_worker as m
seen = {}
class Engine:
    def taskflow_load(self, flow, **kwargs):
        seen["engine"] = sorted(kwargs)
        return type("Flow", (), {"run": lambda self: None})()
m.tf_logging.DynamicLoggingListener = lambda *a, **k: contextlib.nullcontext()
worker = m.ControllerWorker.__new__(m.ControllerWorker)
worker.tf_engine = Engine()
def factory(topology, listeners=None):
    seen["factory"] = [topology, listeners]
    return "flow"
worker.run_flow(factory, "SINGLE", listeners=[{"listener_id": "l1"}], store={"loadbalancer_id": "lb"})
print(json.dumps(seen))
"""


# Builds 11.0.0's create flow with listeners (what a one-call create gets once run_flow passes them on)
# for SINGLE topology and lets taskflow check that every task's inputs are provided.
FLOW = r"""
from unittest import mock
from oslo_config import cfg
from octavia.common import config, constants
cfg.CONF([], project="octavia")
cfg.CONF.set_override("event_notifications", False, group="controller_worker")
from taskflow import engines
with mock.patch("octavia.common.utils.get_network_driver"):
    from octavia.controller.worker.v2.flows import flow_utils
    flow = flow_utils.get_create_load_balancer_flow(constants.TOPOLOGY_SINGLE, listeners=[{"listener_id": "l1"}])
    store = dict.fromkeys(["loadbalancer_id", "build_type_priority", "flavor", "availability_zone",
                           "server_group_id", "update_dict"])
    engine = engines.load(flow, store=store)
    engine.compile()
    engine.prepare()
    engine.validate()
print("valid")
"""


def run_with_usercustomize(code):
    """Runs `code` in a fresh /usr/bin/python3 with start.sh's usercustomize.py on PYTHONPATH."""
    with tempfile.TemporaryDirectory() as lib:
        with open(os.path.join(lib, "usercustomize.py"), "w", encoding="utf-8") as f:
            f.write(usercustomize_source())
        env = {k: v for k, v in os.environ.items() if not k.startswith("OS_PEER")}
        env["PYTHONPATH"] = lib
        env["OS_PEER_OCTAVIA_FULL_GRAPH"] = "1"  # as octavia-worker and the health manager get it with PEER_AMPHORA=1
        return subprocess.run(["/usr/bin/python3", "-c", code], env=env, cwd=lib, capture_output=True,
                              text=True, timeout=600, check=False)


def usercustomize_source():
    with open(os.path.join(HERE, "start.sh"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^cat > \"\$DIR/lib/usercustomize\.py\" <<'EOF'\n(.*?)^EOF$", text, re.S | re.M)
    if not m:
        raise AssertionError("start.sh no longer writes DIR/lib/usercustomize.py from a heredoc")
    return m.group(1)


class RunFlowKeywordArguments(unittest.TestCase):
    def test_the_create_flow_factory_gets_the_listeners(self):
        """octavia 11.0.0 gave listeners= to the engine, so a one-call LB never got its listeners' flow."""
        r = run_with_usercustomize(PROBE)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        seen = json.loads(r.stdout.strip().splitlines()[-1])
        self.assertEqual(seen["factory"], ["SINGLE", [{"listener_id": "l1"}]])
        self.assertEqual(seen["engine"], ["store"])

    def test_the_create_flow_with_listeners_has_every_input(self):
        """octavia 11.0.0's listeners part needs amphorae_network_config, which nothing provided."""
        r = run_with_usercustomize(FLOW)
        self.assertEqual(r.returncode, 0, r.stderr[-2000:])
        self.assertEqual(r.stdout.strip().splitlines()[-1], "valid")


if __name__ == "__main__":
    unittest.main()
