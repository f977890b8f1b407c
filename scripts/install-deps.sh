#!/usr/bin/env bash
# Installs the C libraries Understudy links against (libevent, OpenSSL's libcrypto) when they are missing.
# Safe to run repeatedly: it does nothing when pkg-config already finds them.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1; }
found() { have pkg-config && pkg-config --exists libevent libevent_pthreads libcrypto; }

# `install-deps.sh TOOL…` installs extra tools (wrk for the soak and benchmarks) by their package name.
if [ "$#" -gt 0 ]; then
  if have apt-get; then
    sudo=""; if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
  elif have brew; then
    brew install "$@"
  else
    echo "install-deps: install $* with your package manager" >&2; exit 1
  fi
  exit 0
fi

if found; then exit 0; fi

case "$(uname -s)" in
  Linux)
    if ! have apt-get; then
      echo "install-deps: need libevent (with pthreads) and libcrypto development files; install them with your package manager" >&2
      exit 1
    fi
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    echo "install-deps: installing libevent-dev, libssl-dev and pkg-config with apt-get" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libevent-dev libssl-dev pkg-config >/dev/null
    ;;
  Darwin)
    if ! have brew; then
      echo "install-deps: install Homebrew, then run: brew install libevent openssl@3 pkg-config" >&2
      exit 1
    fi
    brew install libevent openssl@3 pkg-config
    echo "install-deps: if pkg-config cannot find libcrypto, export PKG_CONFIG_PATH=\"$(brew --prefix openssl@3)/lib/pkgconfig\"" >&2
    ;;
  *)
    echo "install-deps: unsupported system $(uname -s)" >&2
    exit 1
    ;;
esac

found || { echo "install-deps: libevent or libcrypto still not found by pkg-config" >&2; exit 1; }
