#!/usr/bin/env bash
# The test command: set-up on a fresh machine, every test (the solver alone, then the extension in
# real Blender through the bpy module of Blender 5.0, then of 4.2 LTS, 4.5 LTS, 5.1, 5.2 LTS and 5.3),
# then static type checking of the add-on and the linter (ruff) on the whole checkout. Arguments go
# to pytest and run with Blender 5.0 only (`bash tools/test.sh tests/blender -x`).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# the set-up takes about 8 GB: a run that fails with "No space left on device" says here what it had
echo "tests: $(df -h --output=avail "$root" | tail -1 | tr -d ' ') free on the disk at the start"
bash "$root/tools/setup.sh"
cd "$root"
if [ $# -gt 0 ]; then
    .venv/bin/python -m pytest "$@"
else
    echo "tests: the solver, and the extension with Blender $(.venv/bin/python -c 'import bpy; print(bpy.app.version_string)'):"
    .venv/bin/python -m pytest
    for version in 4.2 4.5 5.1 5.2 5.3; do
        python=".venv/bpy-$version/bin/python"
        echo "tests: the extension with Blender $("$python" -c 'import bpy; print(bpy.app.version_string)'):"
        "$python" -m pytest tests/blender
    done
fi
echo "type check (mypy against fake-bpy-module):"
cd "$root/.venv-typecheck/checkout"
"$root/.venv-typecheck/bin/mypy" --config-file mechbake/pyproject.toml -p mechbake
echo "lint (ruff):"
"$root/.venv-typecheck/bin/ruff" check "$root"
