"""The manifest passes Blender's own extension validator, lists numba and llvmlite wheels for each
Python of the Blenders on every platform Blender ships (3.11 for 4.2 to 5.0, 3.13 for 5.1 and later),
and each built zip holds the add-on and its platform's wheels only."""
import email.parser
import pathlib
import subprocess
import sys
import tomllib
import zipfile

import bpy
import numpy
from packaging.requirements import Requirement

ROOT = pathlib.Path(__file__).resolve().parents[2]
PLATFORM_TAGS = {"windows-x64": ("win", "amd64"), "windows-arm64": ("win", "arm64"), "macos-arm64": ("macosx", "arm64"),
                 "macos-x64": ("macosx", "x86_64"), "linux-x64": ("manylinux", "x86_64")}
# The Pythons of the Blenders that run on each platform: Intel Macs run Blender up to 4.5; numba has no
# Windows-on-Arm wheel for Python 3.11 (Blender 4.4 to 5.0 there), so MechBake needs 5.1 on it.
PLATFORM_PYTHONS = {"windows-x64": ("cp311", "cp313"), "windows-arm64": ("cp313",), "macos-arm64": ("cp311", "cp313"),
                    "macos-x64": ("cp311",), "linux-x64": ("cp311", "cp313")}
# The oldest numpy of the Blenders on each Python: 4.2 to 5.0 ship numpy 1.26 (the bpy module 5.0.1
# requires numpy>=1.26,<2.0); the bpy modules of 5.1 to 5.3 require numpy>=2.2,<3.0
BLENDER_NUMPY = {"cp311": "1.26.0", "cp313": "2.2.0"}
THIS_PYTHON = f"cp{sys.version_info.major}{sys.version_info.minor}"


def blender_ext() -> pathlib.Path:
    scripts = pathlib.Path(bpy.utils.resource_path("LOCAL")) / "scripts"
    return scripts / "addons_core" / "bl_pkg" / "cli" / "blender_ext.py"


def manifest(text: str | None = None) -> dict:
    return tomllib.loads(text if text is not None else (ROOT / "blender_manifest.toml").read_text())


def wheel_metadata(path: pathlib.Path, name: str) -> email.message.Message:
    """A file of the wheel's .dist-info folder (WHEEL, METADATA), parsed."""
    with zipfile.ZipFile(path) as archive:
        assert archive.testzip() is None, f"{path.name} is damaged"
        (found,) = [n for n in archive.namelist() if n.count("/") == 1 and n.endswith(f".dist-info/{name}")]
        return email.parser.Parser().parsestr(archive.read(found).decode())


def test_every_platform_has_numba_and_llvmlite_for_each_python_of_its_blenders(built_extension):
    listed = manifest()
    assert sorted(listed["platforms"]) == sorted(PLATFORM_TAGS)
    assert THIS_PYTHON in BLENDER_NUMPY, f"a Blender with Python {sys.version.split()[0]} is not provided for"
    for platform, (system, machine) in PLATFORM_TAGS.items():
        wheels: dict[str, dict[str, pathlib.Path]] = {}
        for entry in listed["wheels"]:
            path = ROOT / entry
            assert path.is_file(), f"{entry} was not downloaded"
            tags = wheel_metadata(path, "WHEEL").get_all("Tag")
            if any(tag.split("-")[2].startswith(system) and tag.endswith(machine) for tag in tags):
                (python,) = {tag.split("-")[0] for tag in tags}
                assert all(tag.startswith(f"{python}-{python}-") for tag in tags), f"{entry}: {tags}"
                wheels.setdefault(python, {})[path.name.split("-")[0]] = path
        assert sorted(wheels) == sorted(PLATFORM_PYTHONS[platform]), f"{platform}: {sorted(wheels)}"
        for python, pair in wheels.items():
            assert sorted(pair) == ["llvmlite", "numba"], f"{platform}, {python}: {sorted(pair)}"
            numba_needs = {Requirement(r).name: Requirement(r.split(";")[0])
                           for r in wheel_metadata(pair["numba"], "METADATA").get_all("Requires-Dist")}
            llvmlite_version = wheel_metadata(pair["llvmlite"], "METADATA")["Version"]
            assert numba_needs["llvmlite"].specifier.contains(llvmlite_version, prereleases=True), platform
            blender_numpys = [BLENDER_NUMPY[python]] + ([numpy.__version__] if python == THIS_PYTHON else [])
            for blender_numpy in blender_numpys:  # the Blenders' oldest numpy, and this bpy's
                assert numba_needs["numpy"].specifier.contains(blender_numpy), f"{platform}: {numba_needs['numpy']}"


def test_manifest_validates_and_each_zip_holds_the_add_on_and_its_own_wheels(built_extension):
    tool = str(blender_ext())
    subprocess.run([sys.executable, tool, "validate", str(ROOT)], check=True, capture_output=True)
    assert sorted(built_extension) == sorted(PLATFORM_TAGS)
    for platform, package in built_extension.items():
        names = zipfile.ZipFile(package).namelist()
        assert "blender_manifest.toml" in names and "solver/simulation.py" in names and "operators/__init__.py" in names
        assert not [n for n in names if n.startswith(("tests/", "benchmarks/", "tools/", ".ci/", ".venv/", ".git"))]
        generated = manifest(zipfile.ZipFile(package).read("blender_manifest.toml").decode())["build"]["generated"]
        assert generated["platforms"] == [platform]
        bundled = sorted(n for n in names if n.startswith("wheels/"))
        assert bundled == sorted(w.removeprefix("./") for w in generated["wheels"])
        assert len(bundled) == 2 * len(PLATFORM_PYTHONS[platform])
        assert not [n for n in names if n.startswith("numpy")]  # Blender's own
        subprocess.run([sys.executable, tool, "validate", str(package)], check=True, capture_output=True)
