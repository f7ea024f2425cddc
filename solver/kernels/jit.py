"""How every kernel is compiled: numba's `njit`, cached on disk in a writable per-user folder.

This module is the only place that imports numba, and only the kernels import it, so
`import mechbake.solver` (and Blender's `register()`) stays free of numba; the kernels are imported
when the first Simulation is made.

The cache folder is chosen before numba is imported, in this order: `set_cache_folder()` (Blender
passes the extension's user folder), the environment variable MECHBAKE_CACHE_DIR, the user's cache
folder. It holds one subfolder per version of the solver's source (a hash of every file in
`solver/`): numba checks only the stamp of the file a kernel is defined in, not of the kernels it
calls, so a cache keyed by the whole source can never hand back a kernel compiled against older
code. A folder that cannot be written is skipped; with none writable, kernels compile in memory
(slower start, same results). With NUMBA_DISABLE_JIT=1 the kernels run as plain Python.
"""
import hashlib
import os
import pathlib
import sys
import tempfile

SOLVER_FOLDER = pathlib.Path(__file__).resolve().parent.parent
_chosen_base: pathlib.Path | None = None


def set_cache_folder(folder) -> None:
    """Where compiled kernels are kept (call before the first Simulation; Blender's extension folder)."""
    global _chosen_base
    _chosen_base = pathlib.Path(folder)


def source_hash() -> str:
    """A short hash of every source file of the solver: the cache's key."""
    digest = hashlib.sha256()
    for path in sorted(SOLVER_FOLDER.rglob("*.py")):
        digest.update(str(path.relative_to(SOLVER_FOLDER)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


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


def cache_folder() -> pathlib.Path | None:
    """The folder compiled kernels are kept in, or None when no candidate can be written."""
    candidates = [_chosen_base, os.environ.get("MECHBAKE_CACHE_DIR"), _user_cache_base(),
                  pathlib.Path(tempfile.gettempdir()) / "mechbake-cache"]
    for base in candidates:
        if base:
            folder = pathlib.Path(base) / f"kernels-{source_hash()}"
            if _writable(folder):
                return folder
    return None


CACHE_FOLDER = cache_folder()
if CACHE_FOLDER is not None:
    os.environ["NUMBA_CACHE_DIR"] = str(CACHE_FOLDER)

import numba  # noqa: E402  (after NUMBA_CACHE_DIR is set: numba reads it on import)

numba.config.CACHE_DIR = str(CACHE_FOLDER) if CACHE_FOLDER is not None else ""

# error_model "numpy": a division by zero gives inf or nan as in numpy (the finiteness watch catches
# it) instead of raising from deep inside a kernel.
kernel = numba.njit(cache=CACHE_FOLDER is not None, error_model="numpy")
