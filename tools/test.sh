#!/usr/bin/env bash
# The test command: set-up on a fresh machine, every test (the solver alone, then the extension in
# real Blender through the bpy module), then static type checking of the add-on.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/tools/setup.sh"
cd "$root"
.venv/bin/python -m pytest "$@"
echo "type check (mypy against fake-bpy-module):"
cd "$root/.venv-typecheck/checkout"
"$root/.venv-typecheck/bin/mypy" --config-file mechbake/pyproject.toml -p mechbake
