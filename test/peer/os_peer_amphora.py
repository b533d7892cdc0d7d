"""os-peer: amphora servers boot Octavia's amphora agent (start.sh with PEER_AMPHORA=1).

Copied by test/peer/amphora-nova.sh into DIR/nova/plugin and used by os_peer_nova.PluggingFakeDriver when
nova-compute runs with OS_PEER_AMPHORA_DIR=DIR/amphora. An amphora server is one named
"amphora-<id>" (octavia 11.0.0 controller/worker/v2/tasks/compute_tasks.py ComputeCreate builds it
so: name="amphora-" + amphora_id, whatever image tag it is configured with; nova's ImageMeta, which
the virt driver gets, carries no image tags) or, as compute/drivers/nova_driver.py build() renames
it "a<random>" when [nova] random_amphora_name_length is set, one whose files hold the amphora
agent's config.

Its "VM disk" is what cloud-init would write from the user data: Octavia's
common/jinja/templates/user_data_config_drive.template (with [controller_worker]
user_data_config_drive = True) is a #cloud-config whose write_files hold /etc/octavia/amphora-agent.conf,
the server certificate /etc/octavia/certs/server.pem, the client CA and the rsyslog config. Nova hands
the driver instance.user_data base64-encoded; files sent as a config drive instead (the default,
user_data_config_drive = False) come as injected_files (path, bytes), already decoded by nova's
compute manager (_decode_files). Both are written under DIR/amphora/vm/<uuid>/files (in a 0700
directory; 0600 files: the server key is among them), which amphora-vm.sh copies into the container's root.
The cloud-config's runcmd (restart rsyslog and the agent) is not run: the agent starts after the
files are in place.
"""
import base64
import binascii
import os

import yaml
from oslo_concurrency import processutils
from oslo_log import log as logging

LOG = logging.getLogger(__name__)


def enabled():
    """True when nova-compute runs with amphora containers (OS_PEER_AMPHORA_DIR is set)."""
    return bool(os.environ.get("OS_PEER_AMPHORA_DIR"))


AGENT_CONF = "/etc/octavia/amphora-agent.conf"


def _is_amphora(instance, files):
    return (instance.display_name or "").startswith("amphora-") or AGENT_CONF in files


def has_container(instance):
    """True when the server runs an amphora container (booted by boot() below)."""
    return enabled() and os.path.isdir(_state_dir(instance.uuid))


def _state_dir(instance_uuid):
    return os.path.join(os.environ["OS_PEER_AMPHORA_DIR"], "vm", instance_uuid)


def user_data_files(user_data):
    """{path: bytes} of a base64 #cloud-config's write_files (cloud-init's plain and b64 encodings)."""
    if not user_data:
        return {}
    try:
        text = base64.b64decode(user_data).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError) as e:
        raise ValueError(f"the server's user data is not base64-encoded UTF-8 text: {e}") from e
    if not text.startswith("#cloud-config"):
        return {}
    try:
        doc = yaml.safe_load(text) or {}
    except yaml.YAMLError as e:
        raise ValueError(f"the server's #cloud-config user data is not YAML: {e}") from e
    files = {}
    for entry in doc.get("write_files") or []:
        path, content = entry.get("path"), entry.get("content", "")
        if not path or not path.startswith("/"):
            raise ValueError(f"write_files entry without an absolute path: {path!r}")
        encoding = (entry.get("encoding") or "").lower()
        if encoding in ("b64", "base64"):
            files[path] = base64.b64decode(content)
        elif encoding in ("", "text/plain"):
            files[path] = content.encode("utf-8")
        else:
            raise ValueError(f"write_files {path}: encoding {encoding!r} is not supported here")
    return files


def _write_files(state, files):
    # state (0700) guards the secrets; its files/ is the tree laid over the container's root, so
    # its mode (0755) becomes that of the container's "/" (cp -a) and haproxy's user can traverse it.
    os.makedirs(state, mode=0o700, exist_ok=True)
    os.chmod(state, 0o700)
    dest = os.path.join(state, "files")
    targets = {}
    for path in files:  # all checked before anything is written
        targets[path] = os.path.normpath(os.path.join(dest, path.lstrip("/")))
        if not targets[path].startswith(dest + os.sep):
            raise ValueError(f"file path {path!r} leaves the server's root")
    os.makedirs(dest, mode=0o755, exist_ok=True)
    os.chmod(dest, 0o755)
    for path, data in files.items():
        target = targets[path]
        os.makedirs(os.path.dirname(target), exist_ok=True)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)


def maybe_boot(instance, netns, injected_files=None):
    """For an amphora server: write its files and boot its container in netns (back once systemd runs)."""
    if not enabled():
        return
    files = {path: bytes(data) for path, data in injected_files or []}
    try:
        files.update(user_data_files(instance.user_data))
    except ValueError:
        if _is_amphora(instance, files):
            raise
        return  # another server's user data (gzip, a script, ...): none of our business
    if not _is_amphora(instance, files):
        return
    if AGENT_CONF not in files:
        raise ValueError(f"amphora server {instance.uuid} got no {AGENT_CONF} in its user data or "
                         "config drive: is octavia-worker's compute driver compute_nova_driver?")
    state = _state_dir(instance.uuid)
    _write_files(state, files)
    out, _ = processutils.execute(
        os.path.join(os.environ["OS_PEER_AMPHORA_DIR"], "amphora-vm.sh"), "boot",
        os.path.dirname(os.environ["OS_PEER_AMPHORA_DIR"]), instance.uuid, netns)
    LOG.info("amphora container booted (%d files from the user data): %s", len(files), out.strip(),
             instance=instance)


def stop(instance):
    """Stop the server's container, if it has one, and remove its state."""
    if not has_container(instance):
        return
    out, _ = processutils.execute(
        os.path.join(os.environ["OS_PEER_AMPHORA_DIR"], "amphora-vm.sh"), "stop",
        os.path.dirname(os.environ["OS_PEER_AMPHORA_DIR"]), instance.uuid)
    LOG.info("%s", out.strip(), instance=instance)
