"""Headless baking: `python -m mechbake bake IN.blend` (bpy from PyPI) and
`blender -b -c mechbake bake IN.blend` (a real Blender) both run `execute` below."""
import argparse
import os
import sys
import tempfile

import bpy

from .bake import bake_scene
from .solver import ModelError, SimulationDiverged, warm_up
from .solver.kernels import cache

COMMAND = "mechbake"
_handle = None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=COMMAND, description="Bake MechBake mechanisms to keyframes.")
    commands = parser.add_subparsers(dest="command", required=True)
    bake = commands.add_parser("bake", help="bake a .blend file's mechanism and save the result")
    bake.add_argument("input", help="the .blend file to bake")
    bake.add_argument("--output", help="where to save the baked file (default: over the input)")
    bake.add_argument("--frames", help="START:END instead of the scene's frame range")
    return parser


def _frames(text: str | None) -> tuple[int | None, int | None]:
    if text is None:
        return None, None
    start, separator, end = text.partition(":")
    if not separator or not start.strip().lstrip("-").isdigit() or not end.strip().lstrip("-").isdigit():
        raise ModelError(f"--frames must be START:END with whole numbers, got {text!r}")
    return int(start), int(end)


def execute(argv: list[str]) -> int:
    """Bakes the file named in argv; 0 on success, 1 with a message on stderr otherwise."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as stop:
        return int(stop.code or 0)
    try:
        start, end = _frames(args.frames)
        if not os.path.isfile(args.input):
            raise ModelError(f"{args.input}: no such file")
        output = os.path.abspath(args.output or args.input)
        _check_writable(output)  # now, not after a bake of many minutes
        try:
            bpy.ops.wm.open_mainfile(filepath=os.path.abspath(args.input))
        except RuntimeError as error:
            raise ModelError(f"{args.input}: Blender cannot open it ({str(error).strip()})") from None
        scene = bpy.context.scene
        if scene is None:
            raise ModelError(f"{args.input}: the file has no scene")
        if not cache.is_warm():
            _prepare_solver()
        print(f"mechbake: baking '{scene.name}' of {args.input}", flush=True)
        shown = [-1]

        def progress(fraction: float) -> None:
            tenth = int(10 * fraction)
            if tenth > shown[0]:
                shown[0] = tenth
                print(f"mechbake: {100 * fraction:3.0f} %", flush=True)

        report = bake_scene(scene, start, end, progress)
        for warning in report.warnings:
            print(f"mechbake: warning: {warning}", file=sys.stderr, flush=True)
        try:
            bpy.ops.wm.save_as_mainfile(filepath=output)
        except RuntimeError as error:
            raise ModelError(f"{output}: Blender could not save it ({str(error).strip()})") from None
        print(f"mechbake: {report}", flush=True)
        print(f"mechbake: saved {output}", flush=True)
        return 0
    except (ModelError, SimulationDiverged) as error:
        for line in str(error).split("\n"):
            print(f"mechbake: error: {line}", file=sys.stderr, flush=True)
        return 1


def _prepare_solver() -> None:
    """Compiles every kernel into the cache, saying so: the first bake on a machine (and after an
    update of MechBake or numba) would otherwise sit silent for minutes."""
    print(f"mechbake: compiling the solver for its first use on this machine (a few minutes, once; "
          f"kept in {cache.cache_folder() or 'memory: no cache folder can be written'})", flush=True)

    def progress(done: int, total: int, what: str) -> None:
        print(f"mechbake: compiling {what} ({done}/{total})" if done < total else "mechbake: the solver is ready",
              flush=True)

    warm_up.warm_up(progress)


def _check_writable(path: str) -> None:
    """Whether Blender can save to path: it writes a file beside it, then renames that over it."""
    folder = os.path.dirname(path)
    if os.path.isdir(path):
        raise ModelError(f"{path}: is a folder; give the file to write")
    if not os.path.isdir(folder):
        raise ModelError(f"{path}: cannot be written, the folder {folder} does not exist")
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as error:
        raise ModelError(f"{path}: cannot be written in {folder} ({error.strerror})") from None


def register() -> None:
    global _handle
    _handle = bpy.utils.register_cli_command(COMMAND, execute)  # type: ignore[func-returns-value]  # stub says None


def unregister() -> None:
    global _handle
    if _handle is not None:
        bpy.utils.unregister_cli_command(_handle)
        _handle = None
