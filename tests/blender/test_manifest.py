"""The manifest passes Blender's own extension validator, and the built zip holds the add-on only."""
import pathlib
import subprocess
import sys
import zipfile

import bpy

ROOT = pathlib.Path(__file__).resolve().parents[2]


def blender_ext() -> pathlib.Path:
    scripts = pathlib.Path(bpy.utils.resource_path("LOCAL")) / "scripts"
    return scripts / "addons_core" / "bl_pkg" / "cli" / "blender_ext.py"


def test_manifest_validates_and_the_package_leaves_development_files_out(tmp_path):
    tool = str(blender_ext())
    subprocess.run([sys.executable, tool, "validate", str(ROOT)], check=True, capture_output=True)
    subprocess.run([sys.executable, tool, "build", "--source-dir", str(ROOT), "--output-dir", str(tmp_path)],
                   check=True, capture_output=True)
    (package,) = tmp_path.glob("mechbake-*.zip")
    names = zipfile.ZipFile(package).namelist()
    assert "blender_manifest.toml" in names and "solver/simulation.py" in names and "operators/__init__.py" in names
    assert not [n for n in names if n.startswith(("tests/", "benchmarks/", "tools/", ".ci/", ".venv/"))]
    subprocess.run([sys.executable, tool, "validate", str(package)], check=True, capture_output=True)
