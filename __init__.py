"""MechBake: exact mechanism simulation baked to keyframes (Blender extension).

The solver in `solver/` never imports bpy, so `import mechbake.solver` works in any Python with
numpy. Blender is imported only when Blender registers the extension.
"""


def _modules():
    from . import cli, operators, panels, preparation, properties

    return (preparation, properties, operators, panels, cli)  # preparation first: it chooses the kernel cache


def register() -> None:
    from .module_exit import guard_module_exit

    for module in _modules():
        module.register()
    guard_module_exit()


def unregister() -> None:
    for module in reversed(_modules()):
        module.unregister()
