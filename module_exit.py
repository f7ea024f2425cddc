"""A clean exit for scripts that use the bpy module of Blender 4.2 to 4.5 on Linux.

Those modules crash (4.2, 4.5: exit code 139) or hang in their C teardown, after Python has finished,
once an add-on has registered classes: Blender frees the Python classes of its space types when
Python is gone. A pipeline's script that baked and saved would see a failure. Once MechBake is
registered there, the process ends with Python's own exit status as soon as C's `exit()` starts,
before that teardown: glibc's `on_exit` passes the status to `_exit`, and C's buffered output is
flushed while Python still runs. Blender itself (not the module), 5.0 and later, and other systems
are left alone.
"""
import atexit
import ctypes
import sys

import bpy

_guarded = False


def needs_guard() -> bool:
    module = bpy.app.binary_path == ""  # the bpy module has no Blender binary
    return module and bpy.app.version < (5, 0, 0) and sys.platform.startswith("linux")


def guard_module_exit() -> None:
    """Ends the process with its exit status before the bpy module's C teardown (once per process)."""
    global _guarded
    if _guarded or not needs_guard():
        return
    libc = ctypes.CDLL(None)
    if not hasattr(libc, "on_exit"):  # not glibc
        return
    atexit.register(libc.fflush, None)
    libc.on_exit.argtypes = (ctypes.c_void_p, ctypes.c_void_p)
    libc.on_exit(ctypes.cast(libc._exit, ctypes.c_void_p), None)  # glibc calls it as _exit(status, NULL)
    _guarded = True
