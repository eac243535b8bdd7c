"""Headless Chromium through selenium, as the browser tests start it, and their checks."""

import atexit
import os
import shutil
import tempfile
import time

from selenium import webdriver
from selenium.common.exceptions import SessionNotCreatedException


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print("ok:", message, flush=True)


def browser(*extra):
    """`extra`: more Chromium flags (--host-resolver-rules to rebind a name)."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,1000") + extra:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    binary = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if os.path.exists(binary):
        options.binary_location = binary
    driver_path = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
    # Chromium started right after another one ended sometimes fails to create its session
    # (DevToolsActivePort, "session not created"): a start is tried three times, each a new driver.
    for attempt in range(3):
        service = webdriver.ChromeService(executable_path=driver_path) if os.path.exists(driver_path) else webdriver.ChromeService()
        try:
            return webdriver.Chrome(options=options, service=service)
        except SessionNotCreatedException as error:
            print(f"Chromium did not start (attempt {attempt + 1}): {error.msg}", flush=True)
            time.sleep(1)
    return webdriver.Chrome(options=options, service=service)


def scratch(prefix):
    """A private directory for the test's files, removed when the test ends."""
    directory = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, directory, True)
    return directory


def console_errors(driver):
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
