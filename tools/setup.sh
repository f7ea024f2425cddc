#!/usr/bin/env bash
# Creates .venv (numpy, pytest, bpy) and .venv-typecheck (mypy, fake-bpy-module), and links this
# checkout into both as the package `mechbake`, so `python -m mechbake ...` works from anywhere.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-$(command -v python3.11 || true)}"
if [ -z "$python" ]; then
    echo "setup: Python 3.11 is needed (the bpy module is built for it); set PYTHON=/path/to/python3.11" >&2
    exit 1
fi

make_venv() {  # make_venv DIR REQUIREMENTS
    local venv="$root/$1"
    [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$root/tools/$2"
    mkdir -p "$venv/checkout"
    ln -sfn "$root" "$venv/checkout/mechbake"
    local site
    site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    echo "$venv/checkout" > "$site/mechbake-checkout.pth"
}

make_venv .venv requirements.txt
make_venv .venv-typecheck requirements-typecheck.txt
