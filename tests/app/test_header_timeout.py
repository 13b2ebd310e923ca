"""Request headers have a time limit on `tabletop serve --http` (issue 37, finding 7): a real server process, its
limit set to 1 s through $TABLETOP_HEADER_SECONDS, closes a connection whose headers come a byte at a time, or never,
and still answers ordinary requests, several on one kept-alive connection."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from urllib.parse import urlsplit

import pytest

from tabletop.app.header_deadline import HEADER_SECONDS, HEADER_SECONDS_ENV, header_seconds

#: Far above the 1 s limit the server is given: only a server with no limit at all takes this long.
GENEROUS = 30.0


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``tabletop serve --http`` on a free port with a 1 s header limit; its (host, port)."""
    db = tmp_path_factory.mktemp("slow") / "games.sqlite3"
    env = {**os.environ, HEADER_SECONDS_ENV: "1"}
    env.pop("TABLETOP_TOKEN", None)
    process = subprocess.Popen([sys.executable, "-m", "tabletop", "serve", "--http", "--port", "0", "--db", str(db)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        first = process.stdout.readline()
        assert "serving streamable HTTP at " in first, first
        url = urlsplit(first.rsplit(" ", 1)[1].strip())
        yield url.hostname, url.port
    finally:
        process.terminate()
        process.wait(timeout=30)
        process.stdout.close()


def closed_within(sock: socket.socket, seconds: float, trickle: bytes = b"") -> float | None:
    """Seconds until the server closes ``sock`` while ``trickle`` is sent a byte every 0.2 s (None: still open)."""
    started = time.monotonic()
    sock.settimeout(0.2)
    sent = 0
    while time.monotonic() - started < seconds:
        try:
            if sock.recv(1024) == b"":
                return time.monotonic() - started
        except TimeoutError:
            pass
        except OSError:  # reset
            return time.monotonic() - started
        if sent < len(trickle):
            try:
                sock.sendall(trickle[sent : sent + 1])
            except OSError:
                return time.monotonic() - started
            sent += 1
    return None


def request(host: str, port: int, path: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode()


def read_response(sock: socket.socket) -> bytes:
    """One whole response with a Content-Length (the ones these tests ask for have one)."""
    sock.settimeout(GENEROUS)
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(4096)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
    while len(body) < length:
        body += sock.recv(4096)
    return head


def test_headers_sent_a_byte_at_a_time_are_cut_off(server):
    host, port = server
    with socket.create_connection(server) as sock:
        took = closed_within(sock, GENEROUS, request(host, port, "/watch/") + b"X-Slow: " + b"a" * 1000)
    assert took is not None, f"the connection was still open after {GENEROUS} s of headers"


def test_a_connection_that_sends_nothing_is_closed(server):
    with socket.create_connection(server) as sock:
        assert closed_within(sock, GENEROUS) is not None


def test_ordinary_requests_are_answered_and_a_kept_alive_connection_is_watched_again(server):
    host, port = server
    with socket.create_connection(server) as sock:
        for _ in range(2):  # two requests on one connection, each answered
            sock.sendall(request(host, port, "/watch/"))
            assert read_response(sock).startswith(b"HTTP/1.1 ")
        sock.sendall(request(host, port, "/watch/")[:10])  # then a third that never finishes its headers
        assert closed_within(sock, GENEROUS) is not None


def test_the_limit_is_ten_seconds_unless_the_environment_gives_a_good_one(monkeypatch):
    assert HEADER_SECONDS == 10.0
    for given, limit in (("", 10.0), ("2.5", 2.5), ("0", 10.0), ("-1", 10.0), ("soon", 10.0), ("1e9", 10.0)):
        monkeypatch.setenv(HEADER_SECONDS_ENV, given)
        assert header_seconds() == limit, given
