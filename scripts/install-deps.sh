#!/usr/bin/env bash
# Installs the C libraries Understudy links against (libevent with its OpenSSL bufferevents, OpenSSL's libssl and
# libcrypto, libfyaml for OpenAPI documents in YAML) when they are missing, and on Debian/Ubuntu makes sure
# `python3 -m venv` works (`make test` creates a venv for the contract check).
# Safe to run repeatedly: it does nothing, and prints nothing, when everything is already there.
# `install-deps.sh browser` adds Debian's chromium, chromium-driver, libnss3-tools and node-ws for `make browser`.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1; }
found() { have pkg-config && pkg-config --exists libevent libevent_pthreads libevent_openssl libssl libcrypto libfyaml; }
# Debian and Ubuntu ship venv's ensurepip separately (python3-venv); without it `python3 -m venv` fails.
venv_works() { python3 -m venv --help >/dev/null 2>&1 && python3 -c "import ensurepip" >/dev/null 2>&1; }

sudo=""; if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then $sudo apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

# `install-deps.sh browser`: Debian's chromium, chromium-driver and libnss3-tools (certutil, which puts the local CA
# in Chromium's NSS database) for the browser check (scripts/browser.sh), when any is missing. Nothing is downloaded
# outside the package manager; without apt-get it fails, naming them.
if [ "${1:-}" = browser ]; then
  # Node's ws, an outside WebSocket client (Tests/Browser/websocket_clients.py), from Debian's node-ws.
  node_ws() { have node && NODE_PATH=/usr/share/nodejs:/usr/lib/nodejs node -e 'require("ws")' >/dev/null 2>&1; }
  if have chromium && have chromedriver && have certutil && node_ws; then exit 0; fi
  if ! have apt-get; then
    echo "install-deps: the browser check needs chromium, chromedriver, certutil (NSS tools), node and its ws module; install them with your package manager" >&2
    exit 1
  fi
  echo "install-deps: installing chromium, chromium-driver, libnss3-tools and node-ws with apt-get (the browser check)" >&2
  packages="chromium chromium-driver libnss3-tools node-ws"
  have node || packages="$packages nodejs"
  apt_install $packages
  have chromium && have chromedriver && have certutil && node_ws || { echo "install-deps: chromium, chromedriver, certutil or node's ws still missing" >&2; exit 1; }
  exit 0
fi

# `install-deps.sh TOOL…` installs extra tools (wrk for the soak and benchmarks) by their package name.
if [ "$#" -gt 0 ]; then
  if have apt-get; then
    apt_install "$@"
  elif have brew; then
    brew install "$@"
  else
    echo "install-deps: install $* with your package manager" >&2; exit 1
  fi
  exit 0
fi

# Debian/Ubuntu only: python3-venv, when `python3 -m venv` cannot work. It only helps a python3 that Debian
# packaged; another one (pyenv, a source build) gets a warning instead of an install it would ignore, so a rerun
# stays quiet apart from that warning. Not fatal: only `make test` (the contract check) needs a venv.
ensure_venv() {
  if ! have apt-get || ! have dpkg; then return 0; fi
  if have python3 && venv_works; then return 0; fi
  if have python3; then
    local interpreter
    interpreter=$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))' 2>/dev/null) \
      || interpreter=$(command -v python3)
    if ! dpkg -S "$interpreter" >/dev/null 2>&1; then
      echo "install-deps: warning: $interpreter (python3) cannot create a venv (no venv or ensurepip), and it is" \
        "not Debian's python3, so python3-venv would not help; make test needs a python3 whose venv works" >&2
      return 0
    fi
  fi
  echo "install-deps: installing python3-venv with apt-get (python3 -m venv needs it)" >&2
  apt_install python3 python3-venv
  venv_works || echo "install-deps: warning: python3 -m venv still fails after installing python3-venv" >&2
}

# Homebrew's pkgconfig folders, Apple silicon's (/opt/homebrew) and Intel's (/usr/local), with keg-only openssl@3's,
# which brew does not link; the Makefile passes the same to SwiftPM.
if [ "$(uname -s)" = Darwin ]; then
  for prefix in /opt/homebrew /usr/local; do
    PKG_CONFIG_PATH="${PKG_CONFIG_PATH:+$PKG_CONFIG_PATH:}$prefix/lib/pkgconfig:$prefix/opt/openssl@3/lib/pkgconfig"
  done
  export PKG_CONFIG_PATH
fi

if found; then ensure_venv; exit 0; fi

case "$(uname -s)" in
  Linux)
    if ! have apt-get; then
      echo "install-deps: need libevent (with pthreads and openssl), OpenSSL (libssl, libcrypto) and libfyaml development files; install them with your package manager" >&2
      exit 1
    fi
    echo "install-deps: installing libevent-dev, libssl-dev, libfyaml-dev and pkg-config with apt-get" >&2
    apt_install libevent-dev libssl-dev libfyaml-dev pkg-config
    ;;
  Darwin)
    if ! have brew; then
      echo "install-deps: install Homebrew, then run: brew install libevent openssl@3 libfyaml pkg-config" >&2
      exit 1
    fi
    echo "install-deps: installing libevent, openssl@3, libfyaml and pkg-config with brew" >&2
    brew install libevent openssl@3 libfyaml pkg-config
    ;;
  *)
    echo "install-deps: unsupported system $(uname -s)" >&2
    exit 1
    ;;
esac

found || { echo "install-deps: libevent, libevent_openssl, libssl, libcrypto or libfyaml still not found by pkg-config" >&2; exit 1; }
ensure_venv
