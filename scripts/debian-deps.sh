#!/usr/bin/env bash
# Install the Debian packages named on the command line when they are missing.
#
#   scripts/debian-deps.sh PKG...
#
# Idempotent: only missing packages are considered. As root it installs them
# (apt-get update, then install without recommends); otherwise it prints the
# one apt-get line to run and carries on. Never fails the build: a failed
# install is reported and the caller goes on with what is there.
set -u

[ "$#" -eq 0 ] && exit 0
if ! command -v dpkg-query >/dev/null; then
  echo "not a Debian system: install these yourself (or their equivalents): $*"
  exit 0
fi
missing=""
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ]; then
  echo "installing Debian packages:$missing"
  # shellcheck disable=SC2086 # word splitting of the package list is intended
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null; } \
    || echo "could not install$missing; carrying on with what is there"
else
  echo "missing Debian packages; run:  sudo apt-get install -y$missing"
fi
exit 0
