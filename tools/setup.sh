#!/usr/bin/env bash
# Creates .venv with what the solver, the tests and the benchmarks need, and links this checkout
# into it as the package `mechbake` (so `python -m mechbake.solver` works from anywhere).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-$(command -v python3.11 || command -v python3)}"
if [ ! -x "$root/.venv/bin/python" ]; then
    "$python" -m venv "$root/.venv"
fi
"$root/.venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/tools/requirements.txt"
mkdir -p "$root/.venv/checkout"
ln -sfn "$root" "$root/.venv/checkout/mechbake"
site="$("$root/.venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
echo "$root/.venv/checkout" > "$site/mechbake-checkout.pth"
