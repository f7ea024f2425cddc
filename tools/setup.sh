#!/usr/bin/env bash
# Creates the virtual environments and links this checkout into each as the package `mechbake`, so
# `python -m mechbake ...` works from anywhere:
#   .venv            numpy, numba, pytest and the bpy module of Blender 5.0 (tools/requirements.txt)
#   .venv/bpy-4.2    the same with Blender 4.2 LTS's bpy (tools/requirements-bpy42.txt), for the Blender tests
#   .venv/bpy-4.5    the same with Blender 4.5 LTS's bpy (tools/requirements-bpy45.txt)
#   .venv/bpy-5.1, .venv/bpy-5.2, .venv/bpy-5.3   Blender 5.1, 5.2 LTS and 5.3's bpy, on Python 3.13
#                    with numpy 2 (tools/requirements-bpy51.txt ...)
#   .venv-typecheck  mypy, fake-bpy-module and ruff
# The other Blenders live inside .venv so that git and the extension build leave them out as they
# leave .venv. The first set-up downloads about 3 GB and takes minutes; later runs take seconds.
# Blender 4.2 to 5.0 embed Python 3.11, 5.1 and later 3.13: both are needed, found on the PATH, under
# pyenv, or where PYTHON311 and PYTHON313 say.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

find_python() {  # find_python 3.11: the path of a Python of that version, or nothing
    local version="$1" candidate
    for candidate in "$(command -v "python$version" || true)" \
                     "$(pyenv root 2>/dev/null || echo "$HOME/.pyenv")"/versions/"$version"*/bin/python"$version"; do
        if [ -x "$candidate" ] && "$candidate" -c "import sys, venv; assert sys.version.startswith('$version')" 2>/dev/null; then
            echo "$candidate"
            return
        fi
    done
}

python311="${PYTHON311:-${PYTHON:-$(find_python 3.11)}}"
python313="${PYTHON313:-$(find_python 3.13)}"
for pair in "3.11:$python311:4.2 to 5.0" "3.13:$python313:5.1 to 5.3"; do
    IFS=: read -r version path blenders <<< "$pair"
    if [ -z "$path" ]; then
        echo "setup: Python $version is needed (the bpy modules of Blender $blenders are built for it) and was" \
             "not found on the PATH or under pyenv; install it, or set PYTHON${version/./}=/path/to/python$version" >&2
        exit 1
    fi
done

make_venv() {  # make_venv DIR REQUIREMENTS PYTHON
    local venv="$root/$1"
    echo "setup: $1: $(grep -v '^#' "$root/tools/$2" | sed 's/ *#.*//' | tr '\n' ' ')"
    [ -x "$venv/bin/python" ] || "$3" -m venv "$venv"
    # pip's own lines show what is downloaded and installed; what is already there is not repeated
    "$venv/bin/python" -m pip install --disable-pip-version-check --progress-bar off -r "$root/tools/$2" \
        | { grep -v -e "^Requirement already satisfied" || true; }
    mkdir -p "$venv/checkout"
    ln -sfn "$root" "$venv/checkout/mechbake"
    local site
    site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    echo "$venv/checkout" > "$site/mechbake-checkout.pth"
}

make_venv .venv requirements.txt "$python311"
make_venv .venv/bpy-4.2 requirements-bpy42.txt "$python311"
make_venv .venv/bpy-4.5 requirements-bpy45.txt "$python311"
for version in 5.1 5.2 5.3; do
    make_venv ".venv/bpy-$version" "requirements-bpy${version/./}.txt" "$python313"
done
make_venv .venv-typecheck requirements-typecheck.txt "$python311"
echo "setup: done"
