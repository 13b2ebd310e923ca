"""A TCP proxy on 127.0.0.1 between a store and PostgreSQL that can cut connections at chosen moments.

Real connection failures, made to order: ``cut_before(marker)`` drops the connection that is about to send a
message containing ``marker`` (the server never sees it); ``cut_after(marker)`` forwards that message, lets the
server answer it completely (so a write has committed) and drops the connection without passing the answer on
(the client cannot know it committed); ``down()`` drops every connection and refuses new ones until ``up()``.
"""

from __future__ import annotations

import socket
import threading

READY_FOR_QUERY = b"Z\x00\x00\x00\x05"  # the server's last message after a statement: ReadyForQuery


class CuttingProxy:
    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self._lock = threading.Lock()
        self._armed: tuple[str, bytes] | None = None
        self._down = False
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self.cuts = 0
        self.cut_done = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, postgres_url: str) -> str:
        """``postgres_url`` with the proxy's address instead of the server's."""
        rest = postgres_url.split("@", 1)[1].split("/", 1)[1]
        user = postgres_url.split("://", 1)[1].split("@", 1)[0]
        return f"postgresql://{user}@127.0.0.1:{self.port}/{rest}"

    def cut_before(self, marker: bytes) -> None:
        with self._lock:
            self._armed, _ = ("before", marker), self.cut_done.clear()

    def cut_after(self, marker: bytes) -> None:
        with self._lock:
            self._armed, _ = ("after", marker), self.cut_done.clear()

    def down(self) -> None:
        with self._lock:
            self._down = True
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            self._close(pair)

    def up(self) -> None:
        with self._lock:
            self._down = False

    def close(self) -> None:
        self.down()
        self._server.close()

    # ---- plumbing ---------------------------------------------------------------------------
    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._server.accept()
            except OSError:
                return
            with self._lock:
                refuse = self._down
            if refuse:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            pair = (client, upstream)
            with self._lock:
                self._pairs.append(pair)
            state = {"swallow": False}
            threading.Thread(target=self._to_server, args=(pair, state), daemon=True).start()
            threading.Thread(target=self._to_client, args=(pair, state), daemon=True).start()

    @staticmethod
    def _close(pair: tuple[socket.socket, socket.socket]) -> None:
        for sock in pair:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()

    def _cut(self, pair) -> None:
        self.cuts += 1
        self._close(pair)
        self.cut_done.set()

    def _to_server(self, pair, state) -> None:
        client, upstream = pair
        while True:
            try:
                data = client.recv(65536)
            except OSError:
                return
            if not data:
                self._close(pair)
                return
            with self._lock:
                armed = self._armed
                if armed and armed[1] in data:
                    self._armed = None
                else:
                    armed = None
            if armed and armed[0] == "before":
                self._cut(pair)
                return
            if armed:
                state["swallow"] = True
            try:
                upstream.sendall(data)
            except OSError:
                self._close(pair)
                return

    def _to_client(self, pair, state) -> None:
        client, upstream = pair
        swallowed = b""
        while True:
            try:
                data = upstream.recv(65536)
            except OSError:
                return
            if not data:
                self._close(pair)
                return
            if state["swallow"]:
                swallowed += data
                if READY_FOR_QUERY in swallowed:  # the statement is done (committed): its answer is never delivered
                    self._cut(pair)
                    return
                continue
            try:
                client.sendall(data)
            except OSError:
                self._close(pair)
                return
