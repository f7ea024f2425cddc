"""Import this checkout as the package `mechbake`, whatever its folder is called.

Blender loads the extension under a name of its choosing; tests, benchmarks and sample scripts load
the same folder as `mechbake` through this one function.
"""
import importlib.util
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def import_checkout_as_mechbake():
    # mechanisms.py and blender_build.py, whichever way `mechbake` was imported (pytest itself imports a
    # checkout whose folder is called mechbake as that package, before this runs)
    samples = str(ROOT / "sample_scenes")
    if samples not in sys.path:
        sys.path.insert(0, samples)
    if "mechbake" in sys.modules:
        return sys.modules["mechbake"]
    spec = importlib.util.spec_from_file_location("mechbake", ROOT / "__init__.py",
                                                  submodule_search_locations=[str(ROOT)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["mechbake"] = module
    spec.loader.exec_module(module)
    return module
