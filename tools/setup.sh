#!/usr/bin/env bash
# Creates the virtual environments and links this checkout into each as the package `mechbake`, so
# `python -m mechbake ...` works from anywhere:
#   .venv            numpy, numba, pytest and the bpy module of Blender 5.0 (tools/requirements.txt)
#   .venv/bpy-4.2    the same with Blender 4.2 LTS's bpy (tools/requirements-bpy42.txt), for the Blender tests
#   .venv/bpy-4.5    the same with Blender 4.5 LTS's bpy (tools/requirements-bpy45.txt)
#   .venv-typecheck  mypy and fake-bpy-module
# The two older Blenders live inside .venv so that git and the extension build leave them out as
# they leave .venv. The first set-up downloads about 1.5 GB and takes minutes; later runs take seconds.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-$(command -v python3.11 || true)}"
if [ -z "$python" ]; then
    echo "setup: Python 3.11 is needed (the bpy module is built for it); set PYTHON=/path/to/python3.11" >&2
    exit 1
fi

make_venv() {  # make_venv DIR REQUIREMENTS
    local venv="$root/$1"
    echo "setup: $1: $(grep -v '^#' "$root/tools/$2" | sed 's/ *#.*//' | tr '\n' ' ')"
    [ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
    # pip's own lines show what is downloaded and installed; what is already there is not repeated
    "$venv/bin/python" -m pip install --disable-pip-version-check --progress-bar off -r "$root/tools/$2" \
        | { grep -v -e "^Requirement already satisfied" || true; }
    mkdir -p "$venv/checkout"
    ln -sfn "$root" "$venv/checkout/mechbake"
    local site
    site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    echo "$venv/checkout" > "$site/mechbake-checkout.pth"
}

make_venv .venv requirements.txt
make_venv .venv/bpy-4.2 requirements-bpy42.txt
make_venv .venv/bpy-4.5 requirements-bpy45.txt
make_venv .venv-typecheck requirements-typecheck.txt
echo "setup: done"
