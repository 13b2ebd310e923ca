"""Reading a data file a user names (a Cthulhu Wars map file, a tournament file) without trusting it.

A file is read only if it is a regular file (a link to one is followed; a device such as ``/dev/zero``, a FIFO or a
folder is refused before it is opened, and again after, in case it was swapped meanwhile), of at most ``limit``
bytes (at most ``limit + 1`` bytes are ever read), in UTF-8. JSON is read strictly (no ``NaN`` nor ``Infinity``,
nor a number too large to be finite), with integers of at most :data:`MAX_DIGITS` digits and nesting (arrays and
objects inside each other) at most ``max_depth`` deep, checked before parsing. Parsed data of any format can be
checked for depth with :func:`depth`.
Every refusal is a :class:`DataFileError` whose message is one line naming the file.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any

#: The most digits an integer in a data file may have (Python refuses to read more than 4,300 at all).
MAX_DIGITS = 18
#: A JSON string (closed or not: an unclosed one runs to the end, so the scan stays linear) or a bracket.
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


class DataFileError(ValueError):
    """A data file that cannot be read; the message is one line naming the file and what is wrong."""


def read_text(path: Path, limit: int) -> str:
    """The text of the regular file at ``path``, if it holds at most ``limit`` bytes of UTF-8."""
    try:
        ahead = os.stat(path)
    except OSError as err:
        raise DataFileError(f"cannot read {path}: {err.strerror or err}") from None
    _check_kind(path, ahead, limit)
    try:  # O_NONBLOCK: a FIFO swapped in after the check cannot hang the open; fstat then refuses it
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        raise DataFileError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        _check_kind(path, os.fstat(fd), limit)
        data = _read_at_most(fd, limit + 1)
    except OSError as err:
        raise DataFileError(f"cannot read {path}: {err.strerror or err}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise DataFileError(f"{path} is larger than {_size(limit)}")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise DataFileError(f"{path} is not UTF-8 text (byte {err.start})") from None


def read_json(path: Path, limit: int, max_depth: int) -> Any:
    """The JSON document in the file at ``path`` (see the module docstring for what is refused)."""
    text = read_text(path, limit)
    deepest = json_depth(text, max_depth)
    if deepest > max_depth:
        raise DataFileError(f"{path.name} nests arrays and objects more than {max_depth} deep")
    try:
        return json.loads(text, parse_int=_small_int, parse_float=_finite_float, parse_constant=_no_constant)
    except (ValueError, RecursionError) as err:  # JSONDecodeError is a ValueError
        raise DataFileError(f"{path.name} is not JSON: {_one_line(err)}") from None


def json_depth(text: str, stop: int) -> int:
    """How deep arrays and objects nest in JSON ``text`` (strings skipped), counting no further than ``stop + 1``."""
    depth = deepest = 0
    for token in _JSON_TOKENS.finditer(text):
        mark = token.group()
        if mark in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > stop:
                break
        elif mark in "]}":
            depth -= 1
    return deepest


def depth(value: Any, stop: int) -> int:
    """How deep lists and dicts nest in parsed ``value`` (a scalar is 0), counting no further than ``stop + 1``;
    without recursion, so any depth is safe to measure."""
    deepest = 0
    todo = [(value, 1)]
    while todo:
        item, level = todo.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, level)
        if deepest > stop:
            break
        todo += [(child, level + 1) for child in children]
    return deepest


def _check_kind(path: Path, found: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(found.st_mode):
        raise DataFileError(f"{path} is not a regular file ({_kind(found.st_mode)})")
    if found.st_size > limit:
        raise DataFileError(f"{path} is larger than {_size(limit)} ({found.st_size:,} bytes)")


def _read_at_most(fd: int, count: int) -> bytes:
    parts: list[bytes] = []
    left = count
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 16))
        if not chunk:
            break
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket")):  # fmt: skip
        if test(mode):
            return name
    return "not a file"


def _size(limit: int) -> str:
    return f"{limit // 1024:,} KiB" if limit < 1 << 20 else f"{limit / (1 << 20):g} MiB"


def _small_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"a number of {len(digits.lstrip('-')):,} digits (at most {MAX_DIGITS})")
    return int(digits)


def _finite_float(digits: str) -> float:
    value = float(digits)
    if not math.isfinite(value):
        raise ValueError(f"the number {digits[:20]} is too large")
    return value


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def _one_line(err: BaseException) -> str:
    if isinstance(err, RecursionError):
        return "nested too deeply"
    text = " ".join(str(err).split())
    return text[:200] + ("..." if len(text) > 200 else "")
