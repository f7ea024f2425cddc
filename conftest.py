"""Makes the checkout importable as `mechbake`, whatever its folder is called."""
import importlib.util
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent


def _import_checkout_as_mechbake() -> None:
    if "mechbake" in sys.modules:
        return
    spec = importlib.util.spec_from_file_location("mechbake", ROOT / "__init__.py",
                                                  submodule_search_locations=[str(ROOT)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["mechbake"] = module
    spec.loader.exec_module(module)


_import_checkout_as_mechbake()
# the sample mechanisms (plain dict builders) are shared by tests and benchmarks
sys.path.insert(0, str(ROOT / "sample_scenes"))
