"""Scripted dice must be used up: a rigged roll that draws or rolls fewer dice than scripted fails."""

from __future__ import annotations

import pytest

from .rigged import Script


@pytest.fixture(autouse=True)
def scripts_used_up():
    Script.made.clear()
    yield
    left = [(script.values, script.unused()) for script in Script.made if script.unused()]
    Script.made.clear()
    assert not left, f"scripted values never used (script, unused part): {left}"
