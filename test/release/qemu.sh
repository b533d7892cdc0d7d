#!/usr/bin/env bash
# Usage: test/release/qemu.sh
#
# Makes sure this amd64 machine can run the release's arm64 executable under qemu-user (the release
# test test/release/arm64.test.ts), then prints two lines: the qemu-user program and the directory
# holding arm64's C and C++ runtime (qemu's -L).
# Installs what is missing from Debian the way test/peer/start.sh installs the peer's packages
# (apt-get update once, then apt-get install --no-install-recommends; needs root): qemu-user and
# the C library, libstdc++ and libgcc of that CPU as Debian's *-cross packages, which install into
# /usr/<triplet>/ as packages of this machine's own architecture (no `dpkg --add-architecture`:
# this machine's sources serve amd64 only). The Node.js binary in the executable needs nothing else
# (its dynamic section: libdl, libstdc++, libm, libgcc_s, libpthread, libc, ld-linux).
# Already installed: prints at once, changes nothing.
set -euo pipefail
die() { echo "[qemu.sh] $*" >&2; exit 1; }
[ "$(dpkg --print-architecture)" = amd64 ] || die "runs arm64 programs on amd64 machines only (this is $(dpkg --print-architecture))"
triplet=aarch64-linux-gnu qemu=qemu-aarch64 deb=arm64
PACKAGES="qemu-user libc6-$deb-cross libstdc++6-$deb-cross libgcc-s1-$deb-cross"
missing=""
for p in $PACKAGES; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
  [ "$(id -u)" = 0 ] || die "missing Debian packages:$missing; install them as root (apt-get install$missing) and run again"
  log=$(mktemp)
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -q && apt-get install -y -q --no-install-recommends $missing; } >"$log" 2>&1 \
    || { tail -20 "$log" >&2; rm -f "$log"; die "apt-get install$missing failed (Debian's registry must be reachable)"; }
  rm -f "$log"
  echo "[qemu.sh] installed:$missing" >&2
fi
sysroot=/usr/$triplet
[ -x "/usr/bin/$qemu" ] || die "/usr/bin/$qemu is missing although qemu-user is installed"
[ -e "$sysroot/lib/libc.so.6" ] || die "$sysroot/lib/libc.so.6 is missing although libc6-$deb-cross is installed"
echo "/usr/bin/$qemu"
echo "$sysroot"
