"""Seeds and exports from pytest: a marker's or a constructor's seed starts its world, an export
seeds the same world, and both the README's typical app and an export follow the JSON Schema in
docs/seed.schema.json."""
import json
import os

import pytest

from apns_emulator import APNsEmulator

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")
TYPICAL_APP = os.path.join(ROOT, "docs", "seeds", "typical-app.yaml")
TOKEN = "5d1c2f3e4a5b6c7d8e9f00112233445566778899aabbccddeeff001122334455"


def schema_validator():
    jsonschema = pytest.importorskip("jsonschema")
    with open(os.path.join(ROOT, "docs", "seed.schema.json")) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.apns_emulator(seed=TYPICAL_APP)
def test_the_typical_app_seed(apns_emulator: APNsEmulator):
    app = apns_emulator.device(TOKEN).app
    assert app["deviceId"] == "iphone-15" and app["authorization"]["status"] == "authorized"
    assert [c["identifier"] for c in app["categories"]] == ["ORDER_SHIPPED"]
    assert apns_emulator.push(TOKEN, {"aps": {"alert": "Shipped"}}, topic="com.example.shop").ok
    assert [rule.action["reason"] for rule in apns_emulator.faults.list()] == ["TooManyRequests"]


def test_an_export_seeds_the_same_world_and_follows_the_schema():
    validator = schema_validator()
    yaml = pytest.importorskip("yaml")
    with open(TYPICAL_APP) as f:
        validator.validate(yaml.safe_load(f))
    first = APNsEmulator(seed=TYPICAL_APP)
    try:
        first.clock.advance("30m")
        first.faults.add("reset", match={"topic": "com.example.flaky"})
        world = first.export()
        validator.validate(world)
        second = APNsEmulator(seed=world)
        try:
            again = second.export()
            world.pop("exportedAt"), again.pop("exportedAt")
            assert again == world
            assert second.device(TOKEN).app == first.device(TOKEN).app
            assert second.clock.now.offset_ms == 30 * 60 * 1000
        finally:
            second.stop()
            second.remove()
    finally:
        first.stop()
        first.remove()
