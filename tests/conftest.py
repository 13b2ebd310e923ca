import os

import pytest
from hypothesis import settings

# CI runs the same examples every time (a failure there is reproducible); elsewhere Hypothesis explores.
settings.register_profile("ci", derandomize=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture
def anyio_backend():
    return "asyncio"
