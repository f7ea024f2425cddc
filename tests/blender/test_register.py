"""Registering and unregistering, twice, leaves Blender as it found it."""
import bpy

import mechbake


def test_register_and_unregister_twice():
    for _ in range(2):
        mechbake.unregister()
        assert not hasattr(bpy.types.Object, "mechbake")
        assert not hasattr(bpy.types.Scene, "mechbake")
        assert "MECHBAKE_PT_main" not in dir(bpy.types)
        mechbake.register()
        assert hasattr(bpy.types.Object, "mechbake") and hasattr(bpy.types.Scene, "mechbake")
        assert hasattr(bpy.ops.mechbake, "bake") and hasattr(bpy.ops.mechbake, "add_joint")
        assert "MECHBAKE_PT_main" in dir(bpy.types)


def test_solver_never_imports_bpy():
    import subprocess
    import sys

    code = ("import sys; sys.path.insert(0, 'tools'); import checkout; checkout.import_checkout_as_mechbake(); "
            "import mechbake.solver; assert 'bpy' not in sys.modules, 'bpy was imported'")
    root = __import__("pathlib").Path(mechbake.__file__).parent
    subprocess.run([sys.executable, "-c", code], cwd=root, check=True)
