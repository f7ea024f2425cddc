"""The manifest passes Blender's own extension validator, lists numba and llvmlite wheels for Python
3.11 on every platform Blender ships, and each built zip holds the add-on and its platform's wheels
only."""
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
PLATFORM_TAGS = {"windows-x64": ("win", "amd64"), "macos-arm64": ("macosx", "arm64"),
                 "macos-x64": ("macosx", "x86_64"), "linux-x64": ("manylinux", "x86_64")}
# Blender 4.2, 4.5 and 5.0 ship numpy 1.26 (the bpy module 5.0.1 requires numpy>=1.26,<2.0); the oldest of it
BLENDER_NUMPY = "1.26.0"


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


def test_every_platform_has_numba_and_llvmlite_for_python_3_11(built_extension):
    listed = manifest()
    assert sorted(listed["platforms"]) == sorted(PLATFORM_TAGS)
    for platform, (system, machine) in PLATFORM_TAGS.items():
        wheels = {}
        for entry in listed["wheels"]:
            path = ROOT / entry
            assert path.is_file(), f"{entry} was not downloaded"
            tags = wheel_metadata(path, "WHEEL").get_all("Tag")
            if any(tag.split("-")[2].startswith(system) and tag.endswith(machine) for tag in tags):
                assert all(tag.startswith("cp311-cp311-") for tag in tags), f"{entry}: {tags}"
                wheels[path.name.split("-")[0]] = path
        assert sorted(wheels) == ["llvmlite", "numba"], f"{platform}: {sorted(wheels)}"
        numba_needs = {Requirement(r).name: Requirement(r.split(";")[0])
                       for r in wheel_metadata(wheels["numba"], "METADATA").get_all("Requires-Dist")}
        llvmlite_version = wheel_metadata(wheels["llvmlite"], "METADATA")["Version"]
        assert numba_needs["llvmlite"].specifier.contains(llvmlite_version, prereleases=True), platform
        for blender_numpy in (BLENDER_NUMPY, numpy.__version__):  # Blender's numpy, and this bpy's
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
        assert bundled == sorted(w.removeprefix("./") for w in generated["wheels"]) and len(bundled) == 2
        assert not [n for n in names if n.startswith("numpy")]  # Blender's own
        subprocess.run([sys.executable, tool, "validate", str(package)], check=True, capture_output=True)
