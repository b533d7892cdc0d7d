#!/usr/bin/env bash
# Stop the kaas test peer that test/peer/start.sh started in DIR.
#
#   test/peer/stop.sh [DIR [SERVICE...]]   DIR defaults to .kaas-test/peer under the repository
#
# With SERVICE names (e.g. octavia-api-noovn) only those are stopped; start.sh DIR brings them back.
#
# Stops exactly the process groups listed in DIR/pids (start.sh runs every service with setsid, so
# each recorded pid is a process-group id covering the service and its workers). A group is only
# signalled while one of its processes still mentions DIR on its command line, so a recycled pid
# is never hit (RabbitMQ's Erlang helpers, erl_child_setup and inet_gethost, sit in groups of
# their own and exit with the broker). It works from any namespace: a peer started inside a
# network namespace is stopped from outside it just the same. Databases, keys and clouds.yaml stay
# in DIR: start.sh DIR brings the same cloud back (~20-40 s on 2 cores, with the same switches).
# Delete DIR after stopping for a fresh cloud.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
DIR=${1:-$HERE/../../.kaas-test/peer}
shift || true
ONLY=" $* "
[ -d "$DIR" ] || { echo "stop.sh: no such directory: $DIR" >&2; exit 1; }
DIR=$(cd "$DIR" && pwd)
PIDS="$DIR/pids"
if [ -z "${KAAS_PEER_LOCK_HELD:-}" ]; then exec 9>"$DIR/.lock"; flock 9; fi  # see start.sh
rm -f "$PIDS.keep"
[ -f "$PIDS" ] || { echo "stop.sh: nothing recorded in $PIDS"; exit 0; }

ours() { ps -eo pgid=,args= | awk -v g="$1" -v d="$DIR/" '$1==g && index($0,d){f=1} END{exit !f}'; }
alive() { ps -eo pgid=,stat= | awk -v g="$1" '$1==g && $2!~/^Z/{f=1} END{exit !f}'; }  # zombies do not count

# Stop in reverse start order: API servers before the databases and agents they use.
tac "$PIDS" | while read -r name pgid; do
  [ -n "${pgid:-}" ] || continue
  if [ "$ONLY" != "  " ] && [[ "$ONLY" != *" $name "* ]]; then echo "$name $pgid" >> "$PIDS.keep"; continue; fi
  if ! ours "$pgid"; then
    echo "  $name ($pgid): not running"
    continue
  fi
  # octavia-worker*: every process of the group first writes its Guru Meditation Report (oslo.reports,
  # on SIGUSR2: each thread's stack, the configuration) to its stderr, LOG/<name>.out: where a flow that
  # never finished (a load balancer left PENDING_*) waits.
  if [[ "$name" == octavia-worker* ]] && kill -USR2 -- "-$pgid" 2>/dev/null; then
    sleep 1
    echo "  $name ($pgid): thread stacks (Guru Meditation Report) written to its .out log"
  fi
  # The group leader shuts its own workers down cleanly; the rest of the group is signalled only
  # if that has not happened within 10 s.
  kill -TERM "$pgid" 2>/dev/null
  for _ in $(seq 1 40); do alive "$pgid" || break; sleep 0.25; done
  if alive "$pgid"; then
    kill -TERM -- "-$pgid" 2>/dev/null
    for _ in $(seq 1 40); do alive "$pgid" || break; sleep 0.25; done
  fi
  if alive "$pgid"; then
    kill -KILL -- "-$pgid" 2>/dev/null
    echo "  $name ($pgid): killed"
  else
    echo "  $name ($pgid): stopped"
  fi
done
rm -f "$PIDS"
# PEER_AMPHORA=1: every amphora container nova-compute booted (DIR/amphora/vm/<server uuid>/pid),
# stopped before the namespaces it runs in go; nova-compute boots them again only for new servers.
if [ "$ONLY" = "  " ] && [ -d "$DIR/amphora/vm" ]; then bash "$HERE/amphora-vm.sh" stop-all "$DIR" | sed 's/^/  /'; fi
# PEER_DATAPATH=1: each server's network namespace, recorded by DIR/nova/plugin/os_peer_nova.py as
# DIR/vm-netns/<server uuid> holding its name (kaas-vm-<uuid8>). Deleted on a full stop (the data
# survives in nova's database; nova-compute plugs a server again when it starts), with whatever
# runs inside (started there by the tests, for the servers they booted).
if [ "$ONLY" = "  " ] && [ -d "$DIR/vm-netns" ]; then
  for f in "$DIR"/vm-netns/*; do
    [ -f "$f" ] || continue
    ns=$(cat "$f")
    case $ns in kaas-vm-*) ;; *) continue;; esac
    if [ -e "/run/netns/$ns" ]; then
      for p in $(ip netns pids "$ns" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
      ip netns del "$ns" && echo "  network namespace $ns: deleted"
    fi
    rm -f "$f"
  done
fi
# Services not named on the command line stay recorded (start.sh keeps their order).
if [ -f "$PIDS.keep" ]; then tac "$PIDS.keep" > "$PIDS"; rm -f "$PIDS.keep"; fi
