"""Where the compiled kernels are kept on disk, and whether they are all there; never imports numba.

Blender's `register()` calls `set_cache_folder()` (the extension's user folder) and asks `is_warm()`
without loading numba, which costs seconds; jit.py reads `cache_folder()` once, when the kernels are
first imported.

The base folder is, in this order: `set_cache_folder()`, the environment variable
MECHBAKE_CACHE_DIR, the user's cache folder, the system's temporary folder. It holds one subfolder
per version of the solver's source (a hash of every file in `solver/`), of numba and of Python: numba checks
only the stamp of the file a kernel is defined in, not of the kernels it calls, so a cache keyed by
the whole source can never hand back a kernel compiled against older code, and a new numba starts
a new folder instead of quietly recompiling in an old one that says it is complete, and each Python
(Blender 5.0's 3.11, 5.1's 3.13) has its own mark of completeness. The hash also takes the name the
solver is imported under (`mechbake.solver`, or `bl_ext.user_default.mechbake.solver` in Blender):
numba imports a kernel's module by that name when it loads the kernel. The folder's path does not
count (jit.SolverCacheLocator): the same solver installed in several environments compiles once.
A folder that cannot be written is skipped (a read-only or missing folder never stops a bake);
with none writable, kernels compile in memory (slower start, same results).

The linux-x64 zip ships its kernels compiled for the generic x86-64 CPU under the name Blender
gives an extension installed from disk (tools/build_extension.py puts them in `compiled/`). When
they match this solver, numba and Python, the cache folder is the generic one, filled from them
the first time: no compile. Otherwise (another platform, repository or numba) the kernels compile
for this CPU into the cache folder.

The mark of completeness lists every cache file with its size and CRC-32. Before the kernels load,
`repair()` deletes a listed file that no longer matches (truncated, emptied, overwritten, a flipped
bit), which numba would fail to unpickle in every later run, and takes the mark away: numba
compiles that kernel again, and the next warm-up marks the folder complete again. An index (.nbi)
that numba rewrote with a new specialisation differs too, but still reads: it is kept.
"""
import hashlib
import importlib.metadata
import os
import pathlib
import pickle
import platform
import shutil
import sys
import tempfile
import zlib

SOLVER_FOLDER = pathlib.Path(__file__).resolve().parent.parent
SOLVER_PACKAGE = __name__.rsplit(".", 2)[0]  # numba imports each kernel's module by its full name
SHIPPED_FOLDER = SOLVER_FOLDER.parent / "compiled"  # kernels built with the extension, for a generic CPU
GENERIC_CPU = "MECHBAKE_GENERIC_CPU"  # "1": compile for this architecture's generic CPU, as shipped kernels are
COMPLETE_MARK = "complete"  # written by warm_up once every kernel is compiled into the folder
CACHE_FILES = ("*.nbi", "*.nbc")  # numba's index and data files
_chosen_base: pathlib.Path | None = None
_repaired: dict[pathlib.Path, list[str]] = {}  # folders checked by this process, and what was deleted


def set_cache_folder(folder) -> None:
    """Where compiled kernels are kept (Blender passes the extension's user folder). Takes effect for
    the kernels' first import: call it before the first Simulation."""
    global _chosen_base
    _chosen_base = pathlib.Path(folder)


def source_hash() -> str:
    """A short hash of every source file of the solver and of the name it is imported under: part of
    the cache's key."""
    digest = hashlib.sha256(SOLVER_PACKAGE.encode())
    for path in sorted(SOLVER_FOLDER.rglob("*.py")):
        digest.update(str(path.relative_to(SOLVER_FOLDER)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def numba_version() -> str:
    """The installed numba's version, read from its metadata (importing numba takes seconds)."""
    try:
        return importlib.metadata.version("numba")
    except importlib.metadata.PackageNotFoundError:
        return "none"  # the kernels' import will say that numba is missing


def _user_cache_base() -> pathlib.Path:
    if sys.platform == "win32":
        root = os.environ.get("LOCALAPPDATA") or tempfile.gettempdir()
        return pathlib.Path(root) / "MechBake" / "Cache"
    if sys.platform == "darwin":
        return pathlib.Path.home() / "Library" / "Caches" / "MechBake"
    return pathlib.Path(os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache") / "mechbake"


def _writable(folder: pathlib.Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder):
            pass
    except OSError:
        return False
    return True


def _temporary_base() -> pathlib.Path | None:
    try:
        return pathlib.Path(tempfile.gettempdir()) / "mechbake-cache"
    except FileNotFoundError:  # no usable temporary folder: the kernels compile in memory
        return None


def folder_name(generic: bool) -> str:
    """The cache folder's name: the solver's source, numba, Python, and for kernels compiled for a
    generic CPU, the platform they run on."""
    name = f"kernels-{source_hash()}-numba-{numba_version()}-py{sys.version_info.major}{sys.version_info.minor}"
    return f"{name}-{sys.platform}-{platform.machine().lower()}-generic" if generic else name


def is_generic(folder: pathlib.Path | None) -> bool:
    """Whether the kernels in this cache folder are (to be) compiled for a generic CPU."""
    return folder is not None and folder.name.endswith("-generic")


def shipped_kernels() -> pathlib.Path | None:
    """The complete folder of kernels shipped with the extension for this solver, numba, Python and
    platform, or None."""
    folder = SHIPPED_FOLDER / folder_name(generic=True)
    return folder if is_complete(folder) else None


def _install(shipped: pathlib.Path, folder: pathlib.Path) -> None:
    """Copies shipped kernels into the cache folder, each file whole or not at all (a bake in another
    process may be reading them), the mark of completeness last."""
    files = sorted(path for path in shipped.rglob("*") if path.is_file() and path.name != COMPLETE_MARK)
    for path in [*files, shipped / COMPLETE_MARK]:
        target = folder / path.relative_to(shipped)
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f"{target.name}.{os.getpid()}.part")
        shutil.copyfile(path, partial)
        os.replace(partial, target)


def cache_folder() -> pathlib.Path | None:
    """The folder compiled kernels are kept in, or None when no candidate can be written; filled
    from the shipped kernels when they fit."""
    candidates = [_chosen_base, os.environ.get("MECHBAKE_CACHE_DIR"), _user_cache_base(), _temporary_base()]
    shipped = shipped_kernels()
    name = folder_name(generic=shipped is not None or os.environ.get(GENERIC_CPU) == "1")
    for base in candidates:
        if base:
            folder = pathlib.Path(base) / name
            if _writable(folder):
                if shipped is not None and not is_complete(folder):
                    _install(shipped, folder)
                return folder
    return None


def is_complete(folder: pathlib.Path | None) -> bool:
    """Whether the folder holds the mark warm_up (or the shipped kernels' install) writes last."""
    return folder is not None and (folder / COMPLETE_MARK).is_file()


def is_warm() -> bool:
    """Whether every kernel is compiled in the cache folder (warm_up has run to its end there, and
    none of its files has been damaged since)."""
    folder = cache_folder()
    repair(folder)
    return is_complete(folder)


def _fingerprint(path: pathlib.Path) -> str:
    data = path.read_bytes()
    return f"{len(data)} {zlib.crc32(data):08x}"


def mark_warm(folder: pathlib.Path) -> None:
    """Marks the folder complete, listing each cache file's size and CRC-32 for repair()."""
    lines = [f"numba {numba_version()}"]
    for pattern in CACHE_FILES:
        for path in sorted(folder.rglob(pattern)):
            lines.append(f"{_fingerprint(path)} {path.relative_to(folder).as_posix()}")
    written = folder / f"{COMPLETE_MARK}.{os.getpid()}"
    written.write_text("\n".join(lines) + "\n")
    os.replace(written, folder / COMPLETE_MARK)  # a mark is whole or absent


def _index_reads(path: pathlib.Path) -> bool:
    """Whether numba's index file unpickles as numba reads it: its version, then (stamp, overloads)."""
    try:
        with open(path, "rb") as file:
            pickle.load(file)
            stamp_and_overloads = pickle.loads(file.read())
    except Exception:  # noqa: BLE001  (any failure to unpickle is a damaged file; numba would raise it)
        return False
    return isinstance(stamp_and_overloads, tuple) and len(stamp_and_overloads) == 2


def repair(folder: pathlib.Path | None) -> list[str]:
    """Deletes the listed cache files that are damaged, and then the mark (once per folder and
    process); the names deleted."""
    if folder is None or not is_complete(folder):
        return []
    mark = folder / COMPLETE_MARK
    if folder in _repaired:
        return _repaired[folder]
    damaged = []
    for line in mark.read_text(errors="replace").splitlines()[1:]:
        size, crc, name = (line.split(" ", 2) + ["", ""])[:3]
        path = folder / name
        try:
            matches = bool(name) and _fingerprint(path) == f"{size} {crc}"
        except OSError:
            matches = False
        if not matches and not (name.endswith(".nbi") and path.is_file() and _index_reads(path)):
            damaged.append(name)
    for name in damaged:
        if name:
            (folder / name).unlink(missing_ok=True)
    if damaged:
        mark.unlink(missing_ok=True)
    _repaired[folder] = damaged
    return damaged
