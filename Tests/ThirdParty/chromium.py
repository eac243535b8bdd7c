"""Headless Chromium through selenium, as the browser tests start it, and their checks."""

import os

from selenium import webdriver


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
    service = webdriver.ChromeService(executable_path=driver_path) if os.path.exists(driver_path) else webdriver.ChromeService()
    return webdriver.Chrome(options=options, service=service)


def console_errors(driver):
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
