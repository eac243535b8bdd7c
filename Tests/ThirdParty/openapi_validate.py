"""Validates a JSON document against a schema of the emulator's openapi.json.

usage: openapi_validate.py OPENAPI.json SCHEMA_NAME DOCUMENT.json

OpenAPI 3.0's `nullable` is read as JSON Schema's null type, its boolean exclusive bounds as numbers. Exits 1 with the first error.
"""
import json
import sys

import jsonschema


def convert(node):
    if isinstance(node, dict):
        node = {key: convert(value) for key, value in node.items()}
        if node.pop("nullable", False):
            if "type" in node:
                node["type"] = [node["type"], "null"]
            elif "$ref" in node:
                node = {"anyOf": [node, {"type": "null"}]}
        # OpenAPI 3.0's boolean exclusive bounds are JSON Schema's numbers.
        for bound, limit in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
            if node.get(bound) is True and limit in node:
                node[bound] = node.pop(limit)
            elif isinstance(node.get(bound), bool):
                node.pop(bound)
        if "$ref" in node:
            node["$ref"] = node["$ref"].replace("#/components/schemas/", "#/$defs/")
        return node
    if isinstance(node, list):
        return [convert(item) for item in node]
    return node


def main(argv):
    with open(argv[1]) as f:
        document = json.load(f)
    schemas = convert(document["components"]["schemas"])
    schema = {"$ref": f"#/$defs/{argv[2]}", "$defs": schemas}
    try:
        with open(argv[3]) as f:
            jsonschema.validate(json.load(f), schema)
    except jsonschema.ValidationError as error:
        print(f"{error.message} at {list(error.absolute_path)}", file=sys.stderr)
        sys.exit(1)
    print("valid")


if __name__ == "__main__":
    main(sys.argv)
