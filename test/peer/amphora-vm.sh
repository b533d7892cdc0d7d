#!/usr/bin/env bash
# The peer's amphora "VMs" (PEER_AMPHORA=1): one systemd-nspawn container per amphora server.
#
#   amphora-vm.sh boot DIR UUID NETNS   boot the container of server UUID in network namespace NETNS
#   amphora-vm.sh stop DIR UUID         stop it (by its recorded pid) and remove its state
#   amphora-vm.sh stop-all DIR          stop every container recorded under DIR (stop.sh)
#
# Called by nova-compute (DIR/nova/plugin/os_peer_amphora.py: spawn boots, destroy stops) and by
# stop.sh. State of server UUID in DIR/amphora/vm/UUID/: files/ (what Octavia's user data puts on the
# VM, written there by the driver, 0700), pid (systemd-nspawn's pid), machine (the container's name),
# console.log. The image: DIR/amphora/image/ (files laid over the host's own tree, amphora-nova.sh).
#
# The VM is the recipe of shared/reference/testbed/datapath-proof/amphora-agent.sh: the host's root
# tree through an overlay whose upper layer is a tmpfs, mounted in a private mount namespace (nothing
# reaches the host's tree; everything goes when the last process of that namespace exits), booted by
# systemd-nspawn with systemd as PID 1 (the agent picks its init system from /proc/1/comm: octavia
# 11.0.0 amphorae/backends/agent/api_server/util.py get_os_init_system; its sysvinit path is broken
# with Debian's start-stop-daemon) and only amphora-agent.service as the target, in the server's
# network namespace, with CAP_NET_ADMIN (the agent moves the VIP NIC into its amphora-haproxy netns).
set -euo pipefail

die() { echo "amphora-vm.sh: $*" >&2; exit 1; }
[ $# -ge 2 ] || die "usage: amphora-vm.sh boot DIR UUID NETNS | stop DIR UUID | stop-all DIR"
CMD=$1 DIR=$2
VMS="$DIR/amphora/vm"

machine_of() { echo "amp-${1:0:8}"; }

# The recorded pid is ours only while it is still systemd-nspawn running this machine.
nspawn_pid() { # state-dir: print the live nspawn pid, if any
  local s=$1 pid m
  pid=$(cat "$s/pid" 2>/dev/null) || return 0
  m=$(cat "$s/machine" 2>/dev/null) || return 0
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 0
  tr '\0' ' ' < "/proc/$pid/cmdline" | grep -q "systemd-nspawn .*-M $m " && echo "$pid"
  return 0
}

boot() { # uuid netns
  local uuid=$1 ns=$2 s="$VMS/$1" m pid i
  m=$(machine_of "$uuid")
  [ -e "/run/netns/$ns" ] || die "no network namespace $ns for amphora server $uuid"
  [ -d "$DIR/amphora/image" ] || die "no amphora image in $DIR/amphora/image (start.sh with PEER_AMPHORA=1 makes it)"
  [ -n "$(nspawn_pid "$s")" ] && return 0   # already running
  mkdir -p -m 0700 "$s"; mkdir -p "$s/root" "$s/ovl" "$s/files"
  echo "$m" > "$s/machine"
  # The image's files, then the server's own (the user data's write_files), go into the upper layer
  # before systemd starts: as cloud-init would have written them before amphora-agent starts.
  # `ip netns exec` (the testbed runs the peer under two) mounts a fresh /sys without the machine's cgroup
  # mounts, and systemd-nspawn then refuses: "Failed to determine whether the unified cgroups hierarchy is
  # used: No medium found". In this private mount namespace only, the machine's name=systemd hierarchy is
  # mounted again on a tmpfs (nspawn's legacy layout). Mounting an existing v1 hierarchy with its own
  # options changes nothing; cgroup2 is left out on purpose: its mount options are system-wide, and a mount
  # without the machine's own (nsdelegate, say) would change them for everyone.
  setsid unshare -m --propagation private sh -c '
    s=$1 img=$2; shift 2
    if [ "$(stat -f -c %T /sys/fs/cgroup 2>/dev/null)" != tmpfs ] && [ "$(stat -f -c %T /sys/fs/cgroup 2>/dev/null)" != cgroup2fs ]; then
      grep -q "^[0-9]*:name=systemd:" /proc/self/cgroup \
        || { echo "amphora-vm.sh: /sys/fs/cgroup is not mounted here and this machine has no name=systemd cgroup v1 hierarchy to mount again (cgroup2 only): run the peer outside ip netns exec, e.g. nsenter --net=/run/netns/NS" >&2; exit 1; }
      mount -t tmpfs -o mode=0755 tmpfs /sys/fs/cgroup && mkdir /sys/fs/cgroup/systemd &&
        mount -t cgroup -o none,name=systemd cgroup /sys/fs/cgroup/systemd || exit 1
    fi
    mount -t tmpfs -o mode=0755 tmpfs "$s/ovl" && mkdir "$s/ovl/u" "$s/ovl/w" &&
    mount -t overlay overlay -o lowerdir=/,upperdir="$s/ovl/u",workdir="$s/ovl/w" "$s/root" &&
    cp -a "$img/." "$s/root/" && cp -a "$s/files/." "$s/root/" || exit 1
    exec systemd-nspawn "$@"' sh "$s" "$DIR/amphora/image" \
    --quiet --register=no --keep-unit -D "$s/root" -M "$m" \
    --network-namespace-path="/run/netns/$ns" --capability=CAP_NET_ADMIN --console=pipe \
    -b -- --unit=amphora-agent.service </dev/null >"$s/console.log" 2>&1 &
  pid=$!
  echo "$pid" > "$s/pid"
  # Booted when the container's PID 1 (systemd, nspawn's child) runs; the agent itself answers a
  # second or two later, which Octavia waits for (AmphoraComputeConnectivityWait).
  local leader=""
  for i in $(seq 1 80); do
    kill -0 "$pid" 2>/dev/null || { tail -20 "$s/console.log" >&2; die "the container of $uuid exited during boot (log: $s/console.log)"; }
    leader=$(pgrep -P "$pid" 2>/dev/null | head -1 || true)
    [ -n "$leader" ] && [ "$(cat "/proc/$leader/comm" 2>/dev/null)" = systemd ] && break
    leader=""; sleep 0.25
  done
  [ -n "$leader" ] || { stop "$uuid"; die "the container of $uuid did not start systemd within 20 s (log: $s/console.log)"; }
  echo "amphora $uuid: container $m (nspawn pid $pid, PID 1 = $leader) in $ns"
}

stop() { # uuid
  local uuid=$1 s="$VMS/$1" m pid i
  [ -d "$s" ] || return 0
  m=$(cat "$s/machine" 2>/dev/null || machine_of "$uuid")
  pid=$(nspawn_pid "$s")
  if [ -n "$pid" ]; then
    # nspawn -b turns SIGTERM into a clean shutdown of the container's systemd.
    kill -TERM "$pid" 2>/dev/null || true
    for i in $(seq 1 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    if kill -0 "$pid" 2>/dev/null; then
      pkill -KILL -P "$pid" 2>/dev/null || true
      kill -KILL "$pid" 2>/dev/null || true
      for i in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    fi
  fi
  # The overlay and its tmpfs lived in the container's private mount namespace: they went with its
  # last process. What nspawn leaves on a host without systemd: its propagation directory (per
  # machine) and, once no container runs, its empty parents.
  rm -rf "/run/systemd/nspawn/propagate/$m"
  rmdir /run/systemd/nspawn/propagate /run/systemd/nspawn/locks /run/systemd/nspawn \
    /run/systemd/nspawn-root 2>/dev/null || true
  rm -rf "$s"
  echo "amphora $uuid: container $m stopped"
}

case $CMD in
  boot) [ $# = 4 ] || die "usage: amphora-vm.sh boot DIR UUID NETNS"; boot "$3" "$4" ;;
  stop) [ $# = 3 ] || die "usage: amphora-vm.sh stop DIR UUID"; stop "$3" ;;
  stop-all)
    for s in "$VMS"/*/; do [ -d "$s" ] && stop "$(basename "$s")"; done; true ;;
  *) die "unknown command $CMD (boot, stop, stop-all)" ;;
esac
