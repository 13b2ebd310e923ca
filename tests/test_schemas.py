"""schemas/ holds every tool's JSON Schemas exactly as the server advertises them."""

from pathlib import Path

import json

from tabletop.games.cthulhu_wars.maps.fileformat import MapFile
from tabletop.schemas import check_schemas, document_schemas, tool_schemas

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"


def test_checked_in_schemas_are_up_to_date():
    assert check_schemas(SCHEMAS) == [], "run `./tabletop schemas` and commit the result"


def test_every_tool_has_an_input_and_an_output_schema():
    files = tool_schemas()
    tools = {name.split(".")[0] for name in files}
    for tool in tools:
        assert f"{tool}.input.json" in files and f"{tool}.output.json" in files


def test_a_changed_schema_is_reported_as_stale(tmp_path):
    for name, schema in tool_schemas().items():
        (tmp_path / name).write_text("{}\n")
    assert "ping.input.json" in check_schemas(tmp_path)


def test_the_map_file_schema_is_checked_in_and_describes_the_map_file():
    """schemas/cthulhu-wars-map.schema.json is generated from the pydantic map-file model (`./tabletop schemas`)."""
    name = "cthulhu-wars-map.schema.json"
    assert name in document_schemas()
    checked_in = json.loads((SCHEMAS / name).read_text())
    assert checked_in == json.loads(json.dumps(document_schemas()[name]))
    assert set(checked_in["required"]) == {"format", "map", "title", "provenance", "boards", "layouts"}
    assert set(checked_in["properties"]) == set(MapFile.model_fields)
