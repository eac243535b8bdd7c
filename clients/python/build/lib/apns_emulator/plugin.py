"""The pytest plugin (entry point `pytest11`): fixtures, the marker, and the emulator's log in
the report of a failing test."""
from __future__ import annotations

from typing import Any, Dict, Iterator

import pytest

from .emulator import APNsEmulator

_EMULATORS = pytest.StashKey[list]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "apns_emulator(**options): options for the test's emulator, as serve's flags (auth='strict' is --auth strict)",
    )


def _options(request: pytest.FixtureRequest) -> Dict[str, Any]:
    options: Dict[str, Any] = {}
    for marker in reversed(list(request.node.iter_markers("apns_emulator"))):
        options.update(marker.kwargs)
    return options


def _started(request: pytest.FixtureRequest, options: Dict[str, Any]) -> APNsEmulator:
    emulator = APNsEmulator(options=options)
    request.node.stash.setdefault(_EMULATORS, []).append(emulator)
    return emulator


@pytest.fixture
def apns_emulator(request: pytest.FixtureRequest) -> Iterator[APNsEmulator]:
    """An emulator for this test alone (options from @pytest.mark.apns_emulator)."""
    emulator = _started(request, _options(request))
    try:
        yield emulator
    finally:
        emulator.stop()
        emulator.remove()


@pytest.fixture(scope="session")
def apns_emulator_session(request: pytest.FixtureRequest) -> Iterator[APNsEmulator]:
    """One emulator for the whole session: call `reset()` between tests that need a clean one."""
    emulator = APNsEmulator()
    try:
        yield emulator
    finally:
        emulator.stop()
        emulator.remove()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    emulators = list(item.stash.get(_EMULATORS, []))
    session = item.funcargs.get("apns_emulator_session") if hasattr(item, "funcargs") else None
    if session is not None:
        emulators.append(session)
    for emulator in emulators:
        report.sections.append((f"apns-emulator log ({emulator.log_path})", emulator.log() or "(empty)"))
