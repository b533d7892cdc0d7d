# Sourced by test/peer/start.sh with PEER_AMPHORA=1 (needs PEER_DATAPATH=1): Nova boots amphorae.
#
# The Nova side of a real amphora provider. nova-compute's driver (os_peer_nova.py) hands every
# amphora server (Octavia names them "amphora-<amphora id>") to DIR/nova/plugin/os_peer_amphora.py,
# which writes the files of Octavia's user data and boots a systemd-nspawn container running Octavia's
# amphora agent in the server's network namespace (amphora-vm.sh). The Octavia side (octavia-worker's
# real drivers, lb-mgmt network, health manager, certificates, the amphora image and flavor) is not
# here. Recipe: shared/reference/testbed/datapath-feasibility.md section 3; proof: prove-amphora-vm.sh.
#
# Uses start.sh's DIR, HERE and its say/die helpers, and amphora.sh's PEER_AMPHORA.

# What the amphora image needs besides python3-octavia (which ships /usr/bin/amphora-agent and
# amphora-interface): haproxy (the agent's /info and its haproxy-<lb> units), keepalived (the agent's
# /info asks dpkg for its version) and systemd-nspawn. Installed with the peer's other packages.
AMPVM_PACKAGES="haproxy keepalived systemd-container"
AMPVM_STORE=/usr/local/lib/kaas-peer

# The switch PEER_AMPHORA is read, checked (0 or 1; with 1, PEER_DATAPATH=1 and OCTAVIA_WORKER=1) and
# recorded by amphora.sh, which start.sh sources just before this file: one place for it.
: "${PEER_AMPHORA:?test/peer/amphora.sh must be sourced before amphora-nova.sh (it reads the switch PEER_AMPHORA)}"

ampvm_agent_dir() { # where the octavia-agent package of python3-octavia's exact version is unpacked
  echo "$AMPVM_STORE/octavia-agent-$(dpkg-query -W -f='${Version}' python3-octavia)"
}

ampvm_install() { # Debian's octavia-agent, unpacked (machine-wide, once), unless already there
  # The package is the amphora side of python3-octavia's own source package, pinned to its version:
  # octavia-agent-lvs-masquerade (amphora-interface runs it) and haproxy's user/group include. It is
  # unpacked, not installed: its dependencies are a whole amphora image's worth of packages.
  local dir ver tmp
  dir=$(ampvm_agent_dir); ver=${dir##*/octavia-agent-}
  [ -x "$dir/usr/bin/octavia-agent-lvs-masquerade" ] && return 0
  tmp=$(mktemp -d); chmod 755 "$tmp"
  ( cd "$tmp" && { apt-get download "octavia-agent=$ver" || { apt-get update -q && apt-get download "octavia-agent=$ver"; }; } ) \
    >"$tmp/apt.log" 2>&1 \
    || { tail -5 "$tmp/apt.log" >&2; rm -rf "$tmp"; die "could not download octavia-agent $ver (Debian's registry): install where it is reachable first (PEER_INSTALL_ONLY=1 PEER_DATAPATH=1 PEER_AMPHORA=1 $0 SOME_DIR, outside the peer's network namespace)"; }
  rm -rf "$dir.new"; mkdir -p "$dir.new"
  dpkg-deb -x "$tmp"/octavia-agent_*.deb "$dir.new" || { rm -rf "$tmp" "$dir.new"; die "could not unpack octavia-agent $ver"; }
  rm -rf "$tmp" "$dir"; mv "$dir.new" "$dir"
  say "octavia-agent $ver unpacked in $dir"
}

ampvm_config() { # the image's files and the container script under DIR
  local img="$DIR/amphora/image" agent
  agent=$(ampvm_agent_dir)
  [ -x "$agent/usr/bin/octavia-agent-lvs-masquerade" ] || die "octavia-agent is not unpacked in $agent (start.sh installs it)"
  rm -rf "$img"; mkdir -p "$img/etc/systemd/system" "$img/usr/bin" "$img/var/lib/octavia" "$DIR/amphora/vm"
  # Upstream's unit (octavia 11.0.0 elements/amphora-agent/install.d/amphora-agent-source-install/
  # amphora-agent.service) without the certificate ramfs: /etc/octavia is in the tmpfs upper layer.
  cat > "$img/etc/systemd/system/amphora-agent.service" <<'EOF'
[Unit]
Description=OpenStack Octavia Amphora Agent
After=network.target syslog.service
[Service]
ExecStart=/usr/bin/amphora-agent --config-file /etc/octavia/amphora-agent.conf
KillMode=mixed
Restart=always
EOF
  cp -a "$agent/usr/bin/octavia-agent-lvs-masquerade" "$img/usr/bin/"
  cp -a "$agent/var/lib/octavia/haproxy-default-user-group.conf" "$img/var/lib/octavia/"
  cp "$HERE/amphora-vm.sh" "$DIR/amphora/amphora-vm.sh"
}
