"""Headless baking: `python -m mechbake bake IN.blend` (bpy from PyPI) and
`blender -b -c mechbake bake IN.blend` (a real Blender) both run `execute` below.

Exit codes: 0 baked and saved, 1 failed with nothing written, 130 cancelled (Ctrl-C) with nothing
written. The baked file is first saved beside its target under another name, checked, and only then
renamed over the target, so a full disk or a cancelled save never leaves a broken file in its place.
"""
import argparse
import os
import shutil
import sys
import tempfile

import bpy

from .bake import bake_scene
from .scene_model import check_frame_range
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
    check_frame_range(int(start), int(end))
    return int(start), int(end)


def _joined_values(argv: list[str]) -> list[str]:
    """`--frames -20:-5` as `--frames=-20:-5`: argparse takes a value that starts with '-' for an option."""
    joined: list[str] = []
    for word in argv:
        if joined and joined[-1] in ("--frames", "--output") and word.startswith("-"):
            joined[-1] = f"{joined[-1]}={word}"
        else:
            joined.append(word)
    return joined


def _one_line(error: Exception) -> str:
    return " ".join(line.strip() for line in str(error).splitlines() if line.strip())


def execute(argv: list[str]) -> int:
    """Bakes the file named in argv; 0 on success, 1 with a message on stderr otherwise, 130 when
    cancelled (Ctrl-C). Only a complete, checked file ever replaces the output."""
    try:
        args = _parser().parse_args(_joined_values(argv))
    except SystemExit as stop:
        return int(stop.code or 0)
    try:
        return _bake_file(args)
    except (ModelError, SimulationDiverged) as error:
        for line in str(error).split("\n"):
            print(f"mechbake: error: {line}", file=sys.stderr, flush=True)
        return 1
    except KeyboardInterrupt:
        print("mechbake: cancelled; nothing was written", file=sys.stderr, flush=True)
        return 130


def _bake_file(args) -> int:
    start, end = _frames(args.frames)
    if os.path.isdir(args.input):
        raise ModelError(f"{args.input}: is a folder, not a .blend file")
    if not os.path.isfile(args.input):
        raise ModelError(f"{args.input}: no such file")
    if args.output is not None and not args.output.strip():
        raise ModelError("--output is empty: give the file to write, or leave --output out to save over the input")
    output = os.path.abspath(args.output if args.output is not None else args.input)
    _check_writable(output)  # now, not after a bake of many minutes
    try:
        bpy.ops.wm.open_mainfile(filepath=os.path.abspath(args.input))
    except RuntimeError as error:
        raise ModelError(f"{args.input}: Blender cannot open it ({_one_line(error)})") from None
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

    said: list[str] = []

    def warn(message: str) -> None:
        said.append(message)
        print(f"mechbake: warning: {message}", file=sys.stderr, flush=True)

    report = bake_scene(scene, start, end, progress, warn)
    for warning in report.warnings:
        if warning not in said:  # a crawl is said as soon as it is seen
            warn(warning)
    _save_safely(output)
    print(f"mechbake: {report}", flush=True)
    print(f"mechbake: saved {output}", flush=True)
    return 0


def _save_safely(output: str) -> None:
    """Saves the open file to output: first as a copy beside it, checked, then renamed over it (a link
    stays a link: the file it points to is replaced). The file that was there becomes its .blend1
    backup, as Blender's own save makes it."""
    target = os.path.realpath(output)
    folder, name = os.path.split(target)
    saving = os.path.join(folder, f".{name}.mechbake-saving.blend")
    try:
        try:
            bpy.ops.wm.save_as_mainfile(filepath=saving, copy=True)
        except RuntimeError as error:
            raise ModelError(f"{output}: Blender could not save it ({_one_line(error)}); nothing was written") from None
        problem = _incomplete(saving)
        if problem:
            raise ModelError(f"{output}: the saved file is incomplete ({problem}; is the disk full?); nothing was "
                             f"written")
        preferences = bpy.context.preferences
        if os.path.isfile(target) and preferences is not None and preferences.filepaths.save_version > 0:
            shutil.copy2(target, target + "1")
        os.replace(saving, target)
    except OSError as error:
        raise ModelError(f"{output}: cannot be written ({error.strerror}); nothing was written") from None
    finally:
        if os.path.exists(saving):
            os.remove(saving)


ZSTD_MAGIC = bytes.fromhex("28b52ffd")
ZSTD_SEEK_TABLE_END = bytes.fromhex("b1ea928f")  # a compressed .blend ends with its seek table's magic


def _incomplete(path: str) -> str:
    """Why the .blend file at path is not whole, or "": its last block is there (the uncompressed
    ENDB block, or a compressed file's seek table) and Blender reads its blocks."""
    with open(path, "rb") as file:
        head = file.read(4)
        file.seek(max(os.path.getsize(path) - 64, 0))
        tail = file.read()
    if head == ZSTD_MAGIC:
        if not tail.endswith(ZSTD_SEEK_TABLE_END):
            return "its compressed data is cut short"
    elif b"ENDB" not in tail:
        return "it has no end block"
    try:
        with bpy.data.libraries.load(path) as (found, _):  # type: ignore[func-returns-value,attr-defined]  # stub: None
            list(found.scenes)
    except OSError as error:
        return _one_line(error)
    return ""


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
    """Whether the baked file can be saved to path: it is written beside the file (a link's target),
    then renamed over it."""
    folder = os.path.dirname(os.path.realpath(path))
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
