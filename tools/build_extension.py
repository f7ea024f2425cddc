"""Builds MechBake's extension zips, one for each platform Blender ships, each with the numba and
llvmlite wheels for that platform (numpy is not bundled: Blender ships it).

    .venv/bin/python tools/build_extension.py [--output-dir out/extension] [--newest] [--blender BLENDER]

1. Downloads from PyPI into wheels/ (ignored by git) every wheel that blender_manifest.toml lists
   under `wheels`, unless it is there already: pip, the exact file, for that wheel's own platform.
   With --newest it first asks pip for the newest numba that has a wheel for each of Blender's
   Pythons on each platform (PYTHONS), and for the llvmlite that numba requires, and writes those
   into the manifest. Blender installs from a zip only the wheels for its own Python.
2. Builds with Blender's own extension builder, as `blender --command extension build
   --split-platforms` does: mechbake-VERSION-PLATFORM.zip for every platform in the manifest, each
   with only its own wheels, then validates each zip. Without --blender the builder is the copy
   inside the bpy module of the Python running this script (the same code the Blender binary runs).
3. On a linux x86-64 machine, compiles the solver's kernels for the generic x86-64 CPU with each
   Python given by --kernels-python (default: the one running this script; a release build gives
   one of Blender 4.2–5.0's Python 3.11 and one of 5.1's 3.13, each with the bundled numba), under
   the name Blender gives an extension installed from disk, and adds them to the linux-x64 zip in
   `compiled/`: installed that way, its first bake compiles nothing (solver/kernels/cache.py).
   The kernels are compiled once and kept in the user's kernel cache, so a second build is quick.
"""
import argparse
import email.parser
import os
import pathlib
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "blender_manifest.toml"
WHEELS = ROOT / "wheels"
BUNDLED = ("numba", "llvmlite")  # numba's other dependency, numpy, is Blender's own
KERNELS_PACKAGE = "bl_ext.user_default.mechbake"  # Blender's name for the extension installed from disk
WARM_UP_PROCESS = ROOT / "solver" / "warm_up_process.py"

# The wheel platform each Blender platform can load, as pip's --platform (pip also takes older
# tags of the same kind): Blender's Linux builds need glibc 2.28; numba's wheels for Apple silicon
# are for macOS 12 from numba 0.65 on; Intel Macs run Blender up to 4.5 on macOS 11 or later.
PIP_PLATFORMS = {
    "windows-x64": "win_amd64",
    "windows-arm64": "win_arm64",
    "macos-arm64": "macosx_12_0_arm64",
    "macos-x64": "macosx_11_0_x86_64",
    "linux-x64": "manylinux_2_28_x86_64",
}
# The Pythons of the Blenders on each platform: 4.2 to 5.0 embed 3.11, 5.1 and later 3.13. Intel Macs
# run Blender up to 4.5 only; numba has no Windows-on-Arm wheel for 3.11, so there MechBake needs 5.1.
PYTHONS = {
    "windows-x64": ("3.11", "3.13"),
    "windows-arm64": ("3.13",),
    "macos-arm64": ("3.11", "3.13"),
    "macos-x64": ("3.11",),
    "linux-x64": ("3.11", "3.13"),
}


def say(message: str) -> None:
    print(f"build_extension: {message}", flush=True)


def manifest() -> dict:
    with open(MANIFEST, "rb") as file:
        return tomllib.load(file)


def wheel_fields(filename: str) -> tuple[str, str, str, str, str]:
    """(name, version, python tag, abi tag, platform tag) of a wheel's file name (PEP 427)."""
    name, version, python, abi, platform = pathlib.Path(filename).stem.split("-")
    return name, version, python, abi, platform


def pip_download(requirement: str, platform: str, python: str, destination: pathlib.Path) -> pathlib.Path:
    """Downloads the newest wheel meeting the requirement for the Python version ("3.13") on the platform
    (a pip platform tag); the file's path."""
    before = set(destination.glob("*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "download", requirement, "--only-binary=:all:", "--no-deps",
                    "--python-version", python, "--implementation", "cp", "--platform", platform,
                    "--dest", str(destination), "--disable-pip-version-check", "--progress-bar", "off", "--quiet"],
                   check=True)
    (new,) = set(destination.glob("*.whl")) - before
    return new


def requirement_of(wheel: pathlib.Path, dependency: str) -> str:
    """numba's requirement on `dependency` as its wheel's metadata states it, e.g. 'llvmlite<0.51,>=0.50.0dev0'."""
    with zipfile.ZipFile(wheel) as archive:
        (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        message = email.parser.Parser().parsestr(archive.read(metadata).decode())
    for requirement in message.get_all("Requires-Dist") or []:
        if re.match(rf"{dependency}\b", requirement):
            return requirement.split(";")[0].replace(" ", "")
    raise SystemExit(f"build_extension: {wheel.name} does not say which {dependency} it needs")


def newest_wheels() -> list[str]:
    """The newest numba with a wheel for each platform and Python and the llvmlite it needs, downloaded
    into wheels/; their paths relative to the manifest."""
    found = []
    with tempfile.TemporaryDirectory() as scratch:
        for (blender_platform, pip_platform), python in ((p, v) for p in PIP_PLATFORMS.items() for v in PYTHONS[p[0]]):
            folder = pathlib.Path(scratch) / f"{blender_platform}-{python}"
            folder.mkdir()
            numba = pip_download("numba", pip_platform, python, folder)
            llvmlite = pip_download(requirement_of(numba, "llvmlite"), pip_platform, python, folder)
            say(f"{blender_platform}: newest for Python {python}: {numba.name}, {llvmlite.name}")
            for wheel in (numba, llvmlite):
                shutil.move(str(wheel), WHEELS / wheel.name)
                found.append(f"./wheels/{wheel.name}")
    return sorted(found)


def write_wheel_list(wheels: list[str]) -> None:
    """Replaces the manifest's `wheels = [...]` list, one wheel a line, leaving the rest as written."""
    text = MANIFEST.read_text(encoding="utf-8")
    listed = "wheels = [\n" + "".join(f'  "{wheel}",\n' for wheel in wheels) + "]"
    updated, count = re.subn(r"^wheels = \[.*?^\]", listed, text, count=1, flags=re.MULTILINE | re.DOTALL)
    if count != 1:
        raise SystemExit(f"build_extension: {MANIFEST} has no `wheels = [...]` list to update")
    MANIFEST.write_text(updated, encoding="utf-8")
    say(f"wrote {len(wheels)} wheels into {MANIFEST.name}")


def download_listed_wheels(wheels: list[str]) -> None:
    """Every wheel the manifest lists, downloaded unless already in wheels/: the exact file from PyPI."""
    for listed in wheels:
        path = ROOT / listed
        if path.is_file():
            say(f"have {listed}")
            continue
        name, version, python_tag, _, platform = wheel_fields(path.name)
        python = f"{python_tag[2]}.{python_tag[3:]}"  # cp313 -> 3.13
        say(f"downloading {path.name}")
        with tempfile.TemporaryDirectory() as scratch:
            # a compound tag (manylinux_2_27_x86_64.manylinux_2_28_x86_64) is one file for each of its tags
            downloaded = pip_download(f"{name}=={version}", platform.split(".")[-1], python, pathlib.Path(scratch))
            if downloaded.name != path.name:
                raise SystemExit(f"build_extension: PyPI gave {downloaded.name} for {listed}; "
                                 "run with --newest to list what PyPI has")
            shutil.move(str(downloaded), path)


def blender_platform(wheel: str) -> str | None:
    """The Blender platform a wheel is for (its platform tag's system and machine), or None."""
    tag = wheel_fields(wheel)[4].split(".")[-1]
    for blender, (system, machine) in {"windows-x64": ("win", "amd64"), "windows-arm64": ("win", "arm64"),
                                       "macos-arm64": ("macosx", "arm64"), "macos-x64": ("macosx", "x86_64"),
                                       "linux-x64": ("manylinux", "x86_64")}.items():
        if tag.startswith(system) and tag.endswith(machine):
            return blender
    return None


def check_every_platform_has_its_wheels(listed: dict) -> None:
    """Each of Blender's platforms is in the manifest with numba and llvmlite for each of its Pythons,
    so no zip lacks them."""
    for platform_name, pythons in PYTHONS.items():
        if platform_name not in listed.get("platforms", []):
            raise SystemExit(f"build_extension: {MANIFEST.name} does not list the platform {platform_name}")
        for python in pythons:
            tag = "cp" + python.replace(".", "")
            packages = sorted(wheel_fields(w)[0] for w in listed.get("wheels", [])
                              if blender_platform(w) == platform_name and wheel_fields(w)[2] == tag)
            if packages != sorted(BUNDLED):
                raise SystemExit(f"build_extension: {MANIFEST.name} lists {packages or 'no wheels'} "
                                 f"for {platform_name} and Python {python}, not one each of {', '.join(BUNDLED)}")


def blender_builder(blender: str | None) -> list[str]:
    """The command that runs Blender's `extension` command line."""
    if blender:
        return [blender, "--command", "extension"]
    try:
        import bpy
    except ImportError:
        raise SystemExit("build_extension: needs the bpy module (run it with .venv/bin/python) or --blender "
                         "/path/to/blender") from None
    scripts = pathlib.Path(bpy.utils.resource_path("LOCAL")) / "scripts"
    return [sys.executable, str(scripts / "addons_core" / "bl_pkg" / "cli" / "blender_ext.py")]


def build(output: pathlib.Path, blender: str | None) -> list[pathlib.Path]:
    command = blender_builder(blender)
    output.mkdir(parents=True, exist_ok=True)
    version = manifest()["version"]
    for old in output.glob(f"mechbake-{version}-*.zip"):
        old.unlink()
    say(f"building into {output}: {' '.join(command[-2:])} build --split-platforms")
    subprocess.run([*command, "build", "--split-platforms", "--source-dir", str(ROOT), "--output-dir", str(output)],
                   check=True)
    zips = sorted(output.glob(f"mechbake-{version}-*.zip"))
    for package in zips:
        subprocess.run([*command, "validate", str(package)], check=True, stdout=subprocess.DEVNULL)
        say(f"built and validated {package.name} ({package.stat().st_size / 1e6:.1f} MB)")
    return zips


def compile_kernels(python: str) -> pathlib.Path:
    """The complete folder of generic-CPU kernels for that Python, compiled into the user's kernel
    cache unless they are there already."""
    env = dict(os.environ, MECHBAKE_GENERIC_CPU="1")
    arguments = [python, str(WARM_UP_PROCESS), KERNELS_PACKAGE, str(ROOT), "", ""]
    where = subprocess.run([*arguments, "--where"], env=env, check=True, capture_output=True, text=True)
    folder = pathlib.Path(where.stdout.strip().splitlines()[-1])
    if not (folder / "complete").is_file():
        say(f"compiling the kernels with {python} into {folder} (a few minutes)")
        subprocess.run(arguments, env=env, check=True, stdout=subprocess.DEVNULL)
    if not (folder / "complete").is_file():
        raise SystemExit(f"build_extension: the warm-up with {python} did not mark {folder} complete")
    return folder


def add_kernels(package: pathlib.Path, folders: list[pathlib.Path]) -> None:
    """Adds each folder's cache files, as its mark of completeness lists them, and the mark, to the zip
    under compiled/."""
    with zipfile.ZipFile(package, "a", compression=zipfile.ZIP_DEFLATED) as archive:
        for folder in folders:
            listed = [line.split(" ", 2)[2] for line in (folder / "complete").read_text().splitlines()[1:]]
            for name in [*listed, "complete"]:
                archive.write(folder / name, f"compiled/{folder.name}/{name}")
    say(f"added the kernels of {len(folders)} Python(s) to {package.name} ({package.stat().st_size / 1e6:.1f} MB)")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output-dir", default=str(ROOT / "out" / "extension"), help="where the zips go")
    parser.add_argument("--newest", action="store_true",
                        help="first list the newest numba and llvmlite for each platform in the manifest")
    parser.add_argument("--blender", help="build with this Blender binary instead of the bpy module's builder")
    parser.add_argument("--kernels-python", action="append", metavar="PYTHON",
                        help="compile the kernels the linux-x64 zip ships with this Python (repeatable; "
                             "default: this one)")
    parser.add_argument("--no-kernels", action="store_true", help="ship no compiled kernels")
    args = parser.parse_args(argv)
    WHEELS.mkdir(exist_ok=True)
    if args.newest:
        write_wheel_list(newest_wheels())
    listed = manifest()
    check_every_platform_has_its_wheels(listed)
    download_listed_wheels(listed["wheels"])
    zips = build(pathlib.Path(args.output_dir).resolve(), args.blender)
    if args.no_kernels:
        return 0
    if (sys.platform, platform.machine().lower()) != ("linux", "x86_64"):
        say("no compiled kernels shipped: they are built on linux x86-64")
        return 0
    folders = [compile_kernels(python) for python in args.kernels_python or [sys.executable]]
    (linux,) = [package for package in zips if package.stem.endswith("linux_x64")]
    add_kernels(linux, folders)
    blender_command = blender_builder(args.blender)
    subprocess.run([*blender_command, "validate", str(linux)], check=True, stdout=subprocess.DEVNULL)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
