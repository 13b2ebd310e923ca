"""The test suite's own PostgreSQL: found on this machine, or a failure that says what to install."""

from __future__ import annotations

import pytest
from postgres_cluster import PostgresMissing, find_binaries


def test_missing_postgresql_programs_say_exactly_what_to_install(tmp_path):
    with pytest.raises(PostgresMissing) as err:
        find_binaries([tmp_path, tmp_path / "nowhere"])
    assert "apt-get install postgresql-15" in str(err.value) and "TABLETOP_PG_BIN" in str(err.value)


def test_the_programs_on_this_machine_are_found():
    folder = find_binaries()
    assert all((folder / name).is_file() for name in ("initdb", "pg_ctl", "postgres"))
