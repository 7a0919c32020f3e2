#!/usr/bin/env bash
# Install the build and test dependencies on Debian 12 (as root, or with sudo).
set -euo pipefail
pkgs=(build-essential cmake pkg-config libssl-dev libsqlite3-dev libgit2-dev libarchive-dev zlib1g-dev
      git tar xz-utils zstd bzip2 zip unzip python3 python3-jsonschema sqlite3
      clang libclang-rt-14-dev valgrind
      strace # tests/e2e/outputs.sh kills a run at its commit
      libpq-dev postgresql # tests/e2e/pg.sh starts a server of its own
      chromium # chromium: tests/e2e/browser.sh renders the HTML report headless
      gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user) # scripts/cross-aarch64.sh
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	sudo_cmd=()
	[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
	"${sudo_cmd[@]}" apt-get update -qq
	DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
