"""python -m mechbake bake IN.blend [--output OUT.blend] [--frames START:END]  (needs the bpy module)"""
import sys

from . import register, unregister


def main() -> int:
    register()
    try:
        from .cli import execute

        return execute(sys.argv[1:])
    finally:
        unregister()


sys.exit(main())
