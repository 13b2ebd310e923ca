"""server.json, the entry for the MCP registry, is valid against the registry's published JSON Schema
(server.schema.json beside this file; where it comes from: README.md beside this file) and agrees with the
project: its PyPI package is this one at this version, the README carries the `mcp-name:` line the registry looks
for on PyPI, and the licence is the MIT licence pyproject.toml names."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema

from .helpers import PROJECT, ROOT

HERE = Path(__file__).resolve().parent
SERVER = json.loads((ROOT / "server.json").read_text(encoding="utf-8"))
SCHEMA = json.loads((HERE / "server.schema.json").read_text(encoding="utf-8"))


def problems(document: dict) -> list[str]:
    validator = jsonschema.Draft7Validator(SCHEMA, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


def test_server_json_is_valid_against_the_registry_schema():
    assert SCHEMA["$id"] == SERVER["$schema"], "server.json names the schema it is checked against"
    assert problems(SERVER) == []


def test_the_schema_check_is_not_vacuous():
    broken = copy.deepcopy(SERVER)
    broken["name"] = "tabletop mcp"  # no namespace
    broken["description"] = "x" * 101
    broken["packages"][0]["version"] = "latest"
    del broken["packages"][0]["transport"]
    broken["remotes"][0]["url"] = "not a url"
    found = " ".join(problems(broken))
    for fragment in ("name", "description", "version", "transport", "url"):
        assert fragment in found, found


def test_the_package_entries_are_this_project():
    (package,) = SERVER["packages"]
    assert package["registryType"] == "pypi" and package["identifier"] == PROJECT["name"]
    assert SERVER["version"] == package["version"] == PROJECT["version"]
    assert package["transport"] == {"type": "stdio"} and package["packageArguments"][0]["value"] == "serve"
    (remote,) = SERVER["remotes"]
    assert remote["type"] == "streamable-http" and remote["url"].endswith("/mcp")


def test_the_readme_names_the_server_for_the_registrys_pypi_check():
    assert f"mcp-name: {SERVER['name']}" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_licence_is_mit_as_pyproject_says():
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert PROJECT["license"] == "MIT"
    assert licence.startswith("MIT License") and "Copyright (c) 2026 Tabletop MCP contributors" in licence
