#!/usr/bin/env bash
# Install the system packages the observatory needs on Debian/Ubuntu, and the deb-src entries from
# which the runner fetches Debian's orig tarballs of OpenSSL. Idempotent; needs root.
set -euo pipefail
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  echo "usage: sudo bash scripts/setup-machine.sh"
  echo "  Installs the Debian/Ubuntu packages the observatory needs and the deb-src entries the runner fetches"
  echo "  OpenSSL's orig tarballs from. Idempotent; needs root."
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "setup-machine: run as root (sudo bash scripts/setup-machine.sh)" >&2
  exit 1
fi
SRC=/etc/apt/sources.list.d/openssl-observatory-src.sources
if ! grep -rqs 'Types: deb-src' /etc/apt/sources.list.d/ || ! apt-cache showsrc openssl 2>/dev/null | grep -q '^Version: 3\.5\.'; then
  cat > "$SRC" <<'SOURCES'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm trixie sid experimental
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
  UPDATE=1
fi
need=()
# package:command. Building: gcc make perl. Sources (runner/sources.ts SOURCE_TOOLS): cargo for the
# openssl-src crates, apt + dpkg-dev for Debian's orig tarballs, ca-certificates for https downloads.
# The host lock and the benchmarks' process guard: flock and setpriv (util-linux). Instruction counts:
# valgrind. Site tests: chromium. Workflow lint: shellcheck. The other TLS libraries (runner/recipes.ts
# RECIPES tools): cmake and g++ for AWS-LC and BoringSSL, autoconf automake libtool for wolfSSL. Builds of
# single commits of OpenSSL's history (runner/bisect/commit-build.ts): ccache. The C programs' format
# check in the unit tier (runner/c-common/format.test.ts; it fails in CI without it): clang-format.
for pair in gcc:cc make:make perl:perl cargo:cargo apt:apt-get dpkg-dev:dpkg-source util-linux:flock util-linux:setpriv \
  valgrind:valgrind chromium:chromium git:git shellcheck:shellcheck clang-format:clang-format \
  cmake:cmake g++:c++ autoconf:autoreconf automake:automake libtool:libtoolize ccache:ccache; do
  command -v "${pair#*:}" >/dev/null 2>&1 || need+=("${pair%%:*}")
done
[ -f /usr/include/valgrind/callgrind.h ] || need+=(valgrind)
[ -f /etc/ssl/certs/ca-certificates.crt ] || need+=(ca-certificates)
if [ "${UPDATE:-0}" = 1 ] || [ ${#need[@]} -gt 0 ]; then
  apt-get update -q
fi
if [ ${#need[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${need[@]}" fonts-dejavu-core
fi
echo "setup-machine: system packages and deb-src entries are in place"
