"""A throwaway PostgreSQL cluster for the tests and the fleet benchmark.

``Cluster.start()`` runs ``initdb`` in a new temporary folder, starts the server on a free port of
127.0.0.1 (its unix socket in the same folder, trust authentication, this machine only) and
``stop()`` ends it and deletes the folder. PostgreSQL refuses to run as root, so as root every server
command runs as the ``postgres`` user (``runuser``). The binaries are found in ``$TABLETOP_PG_BIN``,
else in ``/usr/lib/postgresql/<newest>/bin`` (Debian and Ubuntu), else on ``PATH``; when they are
missing, :class:`PostgresMissing` says exactly what to install.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

INSTALL_HINT = (
    "PostgreSQL's server programs (initdb, pg_ctl, postgres) were not found. The PostgreSQL tests start their own "
    "throwaway server from them: install them (Debian/Ubuntu: `apt-get install postgresql-15`, or any postgresql-NN "
    "package; macOS: `brew install postgresql@15`), or set TABLETOP_PG_BIN to the folder that holds initdb"
)

#: Settings for a cluster only tests use: nothing it holds must survive a crash of the machine.
TEST_SETTINGS = {"fsync": "off", "full_page_writes": "off", "max_connections": "300", "shared_buffers": "32MB"}
#: Settings for measuring: durable commits, as in production.
DURABLE_SETTINGS = {"max_connections": "300", "shared_buffers": "128MB"}


class PostgresMissing(RuntimeError):
    """The PostgreSQL server programs are not on this machine."""


def find_binaries(candidates: list[Path] | None = None) -> Path:
    """The folder holding initdb, pg_ctl and postgres: the first of ``candidates`` that does (by default
    ``$TABLETOP_PG_BIN``, Debian's folders newest first, then ``PATH``)."""
    if candidates is None:
        candidates = []
        if env := os.environ.get("TABLETOP_PG_BIN"):
            candidates.append(Path(env))
        versions = sorted(
            glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0
        )
        candidates += [Path(p) for p in reversed(versions)]
        if found := shutil.which("initdb"):
            candidates.append(Path(found).parent)
    for folder in candidates:
        if all((folder / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return folder
    raise PostgresMissing(INSTALL_HINT)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Cluster:
    """One PostgreSQL server in a temporary folder, reachable at ``postgresql://postgres@127.0.0.1:<port>/``."""

    def __init__(self, settings: dict[str, str] | None = None) -> None:
        self.bin = find_binaries()
        self.settings = TEST_SETTINGS if settings is None else settings
        self.folder = Path(tempfile.mkdtemp(prefix="tabletop-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.port = 0
        self._as_postgres = os.geteuid() == 0
        self._databases = 0

    def _run(self, *command: str) -> subprocess.CompletedProcess:
        prefix = ["runuser", "-u", "postgres", "--"] if self._as_postgres else []
        done = subprocess.run([*prefix, *command], capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{' '.join(command[:2])} failed ({done.returncode}): {done.stderr.strip()}\n{log}")
        return done

    def start(self) -> "Cluster":
        if self._as_postgres:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise PostgresMissing(
                    "PostgreSQL refuses to run as root and there is no 'postgres' user to run it as: "
                    "`apt-get install postgresql-15` creates one (or run the tests as an ordinary user)"
                ) from None
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--locale=C", "--no-sync")  # fmt: skip
        options = " ".join(["-c listen_addresses=127.0.0.1", f"-k {self.folder}", *(f"-c {k}={v}" for k, v in self.settings.items())])
        for _ in range(5):  # a free port can be taken by someone else before the server binds it: try another
            self.port = free_port()
            try:
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60",
                          "-o", f"-p {self.port} {options}", "start")  # fmt: skip
                return self
            except RuntimeError:
                if "could not bind" not in (self.log.read_text(errors="replace") if self.log.exists() else ""):
                    raise
        raise RuntimeError(f"PostgreSQL could not bind a free port on 127.0.0.1: {self.log.read_text()[-1000:]}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, prefix: str = "test") -> str:
        """A new empty database; returns its URL."""
        import psycopg

        self._databases += 1
        name = f"{prefix}_{os.getpid()}_{self._databases}_{int(time.time() * 1000) % 100000}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        try:
            if self.port:
                self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> "Cluster":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
