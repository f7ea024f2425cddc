"""Tests of the extension in real Blender: the bpy module from PyPI, an empty file before each test."""
import os
import pathlib
import subprocess
import sys
import tomllib
import urllib.error
import urllib.request

import pytest

if os.environ.get("CI"):
    import bpy  # in CI these tests must run: a missing bpy is a failure, not a skip
else:
    bpy = pytest.importorskip("bpy")

import mechbake  # noqa: E402  (the checkout, loaded by the root conftest)


@pytest.fixture(scope="session", autouse=True)
def registered():
    mechbake.register()
    yield
    mechbake.unregister()


@pytest.fixture(autouse=True)
def empty_file():
    bpy.ops.wm.read_factory_settings(use_empty=True)
    yield


ROOT = pathlib.Path(mechbake.__file__).resolve().parent


def _pypi_unreachable() -> str | None:
    """Why PyPI cannot be reached, or None."""
    try:
        urllib.request.urlopen("https://pypi.org/simple/numba/", timeout=15).close()
    except (urllib.error.URLError, OSError) as error:
        return str(error)
    return None


@pytest.fixture(scope="session")
def built_extension(tmp_path_factory) -> dict[str, pathlib.Path]:
    """The zips tools/build_extension.py builds, by Blender platform ("linux-x64": ..., with kernels compiled
    by this Python, once per machine, in the user's kernel cache). The first time
    on a machine it downloads the wheels the manifest lists (about 200 MB) from PyPI into wheels/."""
    with open(ROOT / "blender_manifest.toml", "rb") as file:
        listed = tomllib.load(file)["wheels"]
    if any(not (ROOT / wheel).is_file() for wheel in listed):
        offline = _pypi_unreachable()
        if offline:
            pytest.skip(f"the wheels of numba and llvmlite are not in wheels/ and PyPI cannot be reached to "
                        f"download them ({offline})")
    output = tmp_path_factory.mktemp("extension")
    built = subprocess.run([sys.executable, str(ROOT / "tools" / "build_extension.py"), "--output-dir", str(output)],
                           capture_output=True, text=True, timeout=1800)
    assert built.returncode == 0, built.stdout + built.stderr
    return {package.stem.rsplit("-", 1)[1].replace("_", "-"): package for package in output.glob("mechbake-*.zip")}
