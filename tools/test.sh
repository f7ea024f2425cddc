#!/usr/bin/env bash
# The test command: set-up on a fresh machine, then every test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/tools/setup.sh"
cd "$root"
exec .venv/bin/python -m pytest "$@"
