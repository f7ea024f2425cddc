"""MechBake: exact mechanism simulation baked to keyframes (Blender extension).

The solver in `solver/` never imports bpy, so `import mechbake.solver` works in any Python with
numpy. Blender is imported only when Blender registers the extension.
"""


def register() -> None:
    from . import blender

    blender.register()


def unregister() -> None:
    from . import blender

    blender.unregister()
