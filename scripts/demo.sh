#!/usr/bin/env bash
# Install dependencies, build, and compare the example vendor tree with its upstream.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)"
td=build/cli/treedrift
db=$(mktemp -d)/upstream.db
"$td" scan examples/upstream -o "$db" --label example-1.2 --quiet
echo "\$ treedrift compare upstream.db examples/vendor"
status=0
"$td" compare "$db" examples/vendor || status=$?
rm -rf "$(dirname "$db")"
# 1 means drift was found, which is what the example shows.
[ "$status" -le 1 ]
