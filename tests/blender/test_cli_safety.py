"""The headless command never reports success over a broken file and never loses the input: a full
disk, an empty --output, a link, frames beyond Blender's, a folder as input and Ctrl-C each end in
one line naming the problem, with the exit code the README gives (0 saved, 1 failed, 130 cancelled)."""
import os
import shutil
import signal
import subprocess
import time

import bpy
import pytest

from headless import module_command, run_module, saved_pendulum
from keys import curves


def small_disk(folder, kilobytes: int, copy_in=None) -> list[str]:
    """The command prefix that runs a command with `folder` on a tmpfs of that size, in a mount namespace
    of its own (`copy_in` copied into it first), and exits with the command's code; after the command it
    lists the folder into listing.txt beside it and copies `copy_in`'s copy back out beside it as after.blend."""
    if not shutil.which("unshare") or subprocess.run(["unshare", "-rm", "true"], capture_output=True).returncode:
        pytest.skip("a small disk needs unshare with user and mount namespaces")
    script = (f'mount -t tmpfs -o size={kilobytes}k tmpfs "$0" || exit 97; '
              + (f'cp "{copy_in}" "$0/in.blend" || exit 98; ' if copy_in else '')
              + '"$@"; code=$?; ls -A "$0" > "$0.listing.txt"; '
              + ('cp "$0/in.blend" "$0.after.blend"; ' if copy_in else '') + 'exit $code')
    return ["unshare", "-rm", "sh", "-c", script, str(folder)]


def test_a_full_disk_fails_with_nothing_written_and_the_input_intact(tmp_path):
    """A compressed save onto a full disk returns as if done (bpy 5.0.1): the command checks the file."""
    source = tmp_path / "in.blend"
    saved_pendulum(source, compress=True)
    full = tmp_path / "full"
    full.mkdir()
    size_kb = os.path.getsize(source) // 1024
    # --output onto a disk too small for the baked file
    done = run_module(tmp_path, "bake", str(source), "--output", str(full / "out.blend"),
                      prefix=small_disk(full, size_kb // 2))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "out.blend: " in done.stderr and "nothing was written" in done.stderr and "saved" not in done.stdout
    assert (tmp_path / "full.listing.txt").read_text() == ""  # no partial file left behind
    # in place, on a disk that holds the input but not a second, baked copy
    original = source.read_bytes()
    done = run_module(tmp_path, "bake", str(full / "in.blend"), prefix=small_disk(full, size_kb * 3 // 2, source))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "nothing was written" in done.stderr
    assert (tmp_path / "full.listing.txt").read_text().split() == ["in.blend"]
    assert (tmp_path / "full.after.blend").read_bytes() == original


def test_an_empty_output_is_refused_and_the_input_untouched(tmp_path):
    source = tmp_path / "in.blend"
    saved_pendulum(source)
    original = source.read_bytes()
    done = run_module(tmp_path, "bake", str(source), "--output", "")
    assert done.returncode == 1 and "--output is empty" in done.stderr and "%" not in done.stdout
    assert source.read_bytes() == original and sorted(p.name for p in tmp_path.iterdir()) == ["in.blend"]


def test_baking_a_link_in_place_keeps_the_link_and_bakes_the_file_it_points_to(tmp_path):
    (tmp_path / "files").mkdir()
    real = tmp_path / "files" / "in.blend"
    saved_pendulum(real)
    link = tmp_path / "link.blend"
    link.symlink_to(real)
    done = run_module(tmp_path, "bake", str(link), "--frames", "1:10")
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and link.resolve() == real
    assert sorted(p.name for p in real.parent.iterdir()) == ["in.blend", "in.blend1"]  # Blender's backup
    bpy.ops.wm.open_mainfile(filepath=str(real))
    assert all(len(c.keyframe_points) == 10 for c in curves(bpy.data.objects["Rod"]).values())


def test_frames_beyond_blenders_and_negative_frames(tmp_path):
    source = tmp_path / "in.blend"
    saved_pendulum(source)
    for frames in ("1:2000000000", "1:" + "9" * 20, "-2000000:5"):
        done = run_module(tmp_path, "bake", str(source), "--frames", frames)
        assert done.returncode == 1, done.stderr
        (line,) = done.stderr.strip().splitlines()
        assert line.startswith("mechbake: error: frame range") and "beyond Blender's frames" in line
    done = run_module(tmp_path, "bake", str(source), "--frames", "-20:-5")  # a value, not an option
    assert done.returncode == 0, done.stderr
    bpy.ops.wm.open_mainfile(filepath=str(source))
    keys = curves(bpy.data.objects["Rod"])["location", 0].keyframe_points
    assert [key.co[0] for key in keys] == list(range(-20, -4))


def test_a_folder_as_input_is_named_as_a_folder_and_blenders_errors_take_one_line(tmp_path):
    done = run_module(tmp_path, "bake", str(tmp_path))
    assert done.returncode == 1 and f"{tmp_path}: is a folder, not a .blend file" in done.stderr
    junk = tmp_path / "junk.blend"
    junk.write_text("not a blend file")
    done = run_module(tmp_path, "bake", str(junk))
    assert done.returncode == 1
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"mechbake: error: {junk}: Blender cannot open it")


def test_ctrl_c_during_a_bake_cancels_in_one_line_with_exit_130_and_nothing_written(tmp_path):
    source = tmp_path / "in.blend"
    saved_pendulum(source)
    original = source.read_bytes()
    process = subprocess.Popen(module_command("bake", str(source), "--frames", "1:1000000"), cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in process.stdout:
        if line.startswith("mechbake:   0 %"):
            break
    time.sleep(0.5)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert err.strip().splitlines() == ["mechbake: cancelled; nothing was written"]
    assert source.read_bytes() == original and sorted(p.name for p in tmp_path.iterdir()) == ["in.blend"]
