"""Every tool's input and output JSON Schema, and the Cthulhu Wars map-file schema, as files in schemas/ (generated,
checked in, and shipped in the wheel as ``tabletop/_schemas``)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import anyio


def schemas_dir() -> Path:
    """The schemas this installation ships: ``tabletop/_schemas`` inside an installed wheel, else schemas/ at the
    top of the source checkout (an editable install)."""
    packaged = Path(str(resources.files("tabletop"))) / "_schemas"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "schemas"


def tool_schemas() -> dict[str, dict]:
    """File name -> schema: each tool's input schema as clients see it in tools/list, and its output
    schema with every field described (tools/list leaves output schemas out unless asked)."""
    from .app.server import build_server
    from .sessions.manager import GameSessions
    from .sessions.store import GameStore

    server = build_server(GameSessions(GameStore(":memory:")))
    files: dict[str, dict] = {}
    for name, (given, returned) in anyio.run(server.documented_schemas).items():
        files[f"{name}.input.json"] = given
        if returned is not None:
            files[f"{name}.output.json"] = returned
    return files


def document_schemas() -> dict[str, dict]:
    """File name -> schema of the data files users write: the Cthulhu Wars map file (rules_text
    ``cthulhu-wars/map-files``)."""
    from .games.cthulhu_wars.maps.fileformat import schema

    return {"cthulhu-wars-map.schema.json": schema()}


def all_schemas() -> dict[str, dict]:
    return {**tool_schemas(), **document_schemas()}


def render(schema: dict) -> str:
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def write_schemas(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    wanted = all_schemas()
    for old in folder.glob("*.json"):
        if old.name not in wanted:
            old.unlink()
    written = []
    for name, schema in sorted(wanted.items()):
        path = folder / name
        path.write_text(render(schema), encoding="utf-8")
        written.append(path)
    return written


def check_schemas(folder: Path) -> list[str]:
    """Names of schema files that are missing, different or no longer wanted."""
    wanted = all_schemas()
    present = {p.name for p in folder.glob("*.json")}
    problems = [n for n, s in wanted.items() if n not in present or (folder / n).read_text(encoding="utf-8") != render(s)]
    return sorted(problems + [n for n in present if n not in wanted])
