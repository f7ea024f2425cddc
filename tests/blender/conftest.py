"""Tests of the extension in real Blender: the bpy module from PyPI, an empty file before each test."""
import os

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
