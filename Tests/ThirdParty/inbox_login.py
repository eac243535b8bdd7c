"""The admin API's doors in a real browser (issue 51), headless Chromium at 1400 and 390 pixels wide.

Usage: inbox_login.py LOCKED_ADMIN_URL TOKEN OPEN_ADMIN_URL SCREENSHOT_DIR

LOCKED is an emulator started with --admin-token TOKEN: the inbox sends the reader to its login
page, a wrong token is refused there, the right one sets an HttpOnly cookie and opens the page the
reader asked for, whose live stream then works. OPEN is an emulator that asks for no token: a page
of another site (http://localhost:PORT is another site than http://127.0.0.1:PORT) cannot reset it
with a no-cors POST, while its own page can; and a name rebound to 127.0.0.1
(--host-resolver-rules) gets the rebinding refusal. Prints one line per check; exits non-zero on
the first failure. Screenshots go to SCREENSHOT_DIR (login-*.png).
"""

import json
import sys
import time
import urllib.parse
import urllib.request

from chromium import browser, check, console_errors
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

LOCKED, TOKEN, OPEN, SHOTS = sys.argv[1:5]
TOPIC = "com.example.login"


def admin(base, method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            text = answer.read().decode()
            return answer.status, (json.loads(text) if text else None)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def login(driver, wait):
    # The inbox, asked for with a filter: the login page first, then that very page.
    driver.get(LOCKED + "/?q=after")
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=login-token]")))
    check("/login?next=" in driver.current_url, f"the inbox sends a reader without the token to the login page ({driver.current_url})")
    driver.save_screenshot(f"{SHOTS}/login-1400.png")
    driver.set_window_size(390, 844)
    width = driver.execute_script("return document.documentElement.scrollWidth")
    check(width <= 390, f"the login page fits a 390-point phone (scroll width {width})")
    driver.save_screenshot(f"{SHOTS}/login-390.png")
    driver.set_window_size(1400, 1000)

    driver.find_element(By.CSS_SELECTOR, "[data-testid=login-token]").send_keys("not-the-token")
    driver.find_element(By.CSS_SELECTOR, "[data-testid=login-submit]").click()
    error = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "[data-testid=login-error]")))
    check("not this emulator's admin token" in error.text, f"a wrong token is refused, saying where the right one is: {error.text!r}")

    driver.find_element(By.CSS_SELECTOR, "[data-testid=login-token]").send_keys(TOKEN)
    driver.find_element(By.CSS_SELECTOR, "[data-testid=login-submit]").click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=inbox-total]")))
    check(urllib.parse.urlparse(driver.current_url).query == "q=after", f"the right token opens the page asked for ({driver.current_url})")
    check("apns-emulator-admin" not in driver.execute_script("return document.cookie"), "the cookie is HttpOnly: no script reads it")


def live(driver, wait):
    status, device = admin(LOCKED, "POST", "/api/v1/devices", {"topic": TOPIC}, TOKEN)
    check(status == 201, f"the API takes the bearer token ({status})")
    status, sent = admin(LOCKED, "POST", "/api/v1/push", {"token": device["token"], "topic": TOPIC,
                                                          "payload": {"aps": {"alert": "after the login"}}}, TOKEN)
    check(status == 200 and sent["status"] == 200, f"a push through the admin API ({sent})")
    row = wait.until(EC.presence_of_element_located((By.XPATH, "//*[@data-testid='inbox-row'][contains(., 'after the login')]")))
    check("after the login" in row.text, "the push appears in the logged-in inbox as it arrives (the event stream carries the cookie)")
    driver.save_screenshot(f"{SHOTS}/login-inbox-1400.png")
    errors = [entry for entry in console_errors(driver) if "/login" not in entry["message"] and "401" not in entry["message"]]
    check(not errors, f"no console errors in the logged-in inbox: {errors}")


def cross_site(driver, wait):
    port = urllib.parse.urlparse(OPEN).port
    status, device = admin(OPEN, "POST", "/api/v1/devices", {"topic": TOPIC})
    check(status == 201, "a device on the emulator without a token")
    script = ("const done = arguments[arguments.length - 1];"
              f"fetch('http://127.0.0.1:{port}/api/v1/reset?devices', {{method: 'POST', mode: 'no-cors',"
              " headers: {'content-type': 'text/plain'}, body: '{\"devices\":true}'}).then(() => done('sent'), (e) => done(String(e)));")
    # Another site's page (localhost is not 127.0.0.1's site), the simple POST any page may send.
    driver.get(f"http://localhost:{port}/login")
    said = driver.execute_async_script(script)
    status, devices = admin(OPEN, "GET", "/api/v1/devices")
    check(status == 200 and any(d.get("token") == device["token"] for d in devices),
          f"a no-cors text/plain POST from another site's page reset nothing ({said}; {len(devices)} devices)")
    # The emulator's own page may.
    driver.get(f"http://127.0.0.1:{port}/login")
    said = driver.execute_async_script(script.replace("mode: 'no-cors',", ""))
    deadline = time.monotonic() + 30
    while True:
        status, devices = admin(OPEN, "GET", "/api/v1/devices")
        if not devices or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    check(devices == [], f"the same POST from the emulator's own page resets ({said})")


def rebinding(port):
    # A name an attacker's DNS points at 127.0.0.1: the browser sends Host: evil.test:PORT.
    driver = browser("--host-resolver-rules=MAP evil.test 127.0.0.1")
    try:
        driver.get(f"http://evil.test:{port}/api/v1/devices")
        text = driver.find_element(By.TAG_NAME, "body").text
        check("is not a name of this emulator" in text and "--admin-allowed-hosts evil.test" in text,
              f"a rebound name gets the refusal naming the flag: {text[:160]!r}")
        driver.get(f"http://evil.test:{port}/")
        check("DNS rebinding guard" in driver.find_element(By.TAG_NAME, "body").text, "the inbox itself is refused to a rebound name")
    finally:
        driver.quit()


def logout(driver, wait):
    """Log out (issue 70): the cookie is forgotten, the login page shows, and the inbox asks again."""
    driver.get(LOCKED + "/")
    wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, "[data-testid=logout]"))).click()
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=login-token]")))
    check(urllib.parse.urlparse(driver.current_url).path == "/login", f"Log out goes to the login page ({driver.current_url})")
    driver.get(LOCKED + "/")
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "[data-testid=login-token]")))
    check("/login?next=" in driver.current_url, "after logging out the inbox asks for the token again")


def main():
    driver = browser()
    wait = WebDriverWait(driver, 30)
    try:
        login(driver, wait)
        live(driver, wait)
        cross_site(driver, wait)
        logout(driver, wait)
    finally:
        driver.quit()
    rebinding(urllib.parse.urlparse(OPEN).port)


if __name__ == "__main__":
    main()
