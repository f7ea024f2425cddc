"""python -m mechbake bake IN.blend [--output OUT.blend] [--frames START:END]  (needs the bpy module)"""
import os
import sys

from . import register, unregister


def main() -> int:
    register()
    try:
        from .cli import execute

        return execute(sys.argv[1:])
    finally:
        unregister()


code = main()
# The bpy module of Blender 4.2 crashes while the interpreter shuts down (a segfault, exit code 139)
# once a PointerProperty with a poll function has been registered, even after unregistering, so a
# pipeline would see a finished bake fail. Everything is done by now (the file is saved, or the
# error printed): flush what was printed and leave without Python's teardown, with the bake's code.
sys.stdout.flush()
sys.stderr.flush()
os._exit(code)
