#!/usr/bin/env bash
# The main job: set-up on a fresh machine, build the 8-Loop sample as a .blend file, and bake it
# headless to keyframes (250 frames), as a pipeline would.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/tools/setup.sh"
mkdir -p "$root/out"
python="$root/.venv/bin/python"
"$python" "$root/sample_scenes/build_blend.py" "${1:-eight_loop}" "$root/out/${1:-eight_loop}.blend"
"$python" -m mechbake bake "$root/out/${1:-eight_loop}.blend" --output "$root/out/${1:-eight_loop}_baked.blend"
