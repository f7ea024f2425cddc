#!/usr/bin/env bash
# The main job: set-up on a fresh machine, then simulate the 8-Loop sample mechanism for 10 s.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/tools/setup.sh"
mkdir -p "$root/out"
exec "$root/.venv/bin/python" -m mechbake.solver run "$root/sample_scenes/eight_loop.json" --duration 10 \
    --out "$root/out/eight_loop.csv" "$@"
