"""The web inbox after a load test, as a person sees it (issue 50), in headless Chromium at 1400 and
390 pixels wide.

Usage: inbox_volume.py ADMIN_URL HTTP2_PORT CA_PEM SCREENSHOT_DIR EMULATOR_BINARY DEVICE_PORT

The emulator runs with docs/seeds/typical-app.yaml: the iPhone `iphone-15` with the shop app. This
script adds a chat app on the same iPhone (`apns-emulator device`), pushes to both (the seed's
iPhone, with nothing attached, presents them), sets it offline and leaves two waiting, starts a Live Activity (one start refused for its missing
alert), subscribes a web app on the iPhone and pushes to it with pywebpush, then bursts 5,000
pushes with h2load, a fifth of them to malformed tokens. It checks that the list is the journal
(true totals, server-side filters and search, older rows as it scrolls, the state in the URL),
that every row says what the phone did, that the detail is a pane beside the list (a screen of
its own on a phone), and that the phone view is one phone per device. Prints one line per check;
exits non-zero on the first failure. Screenshots go to SCREENSHOT_DIR (volume-*.png).
"""

import base64
import json
import os
import re
import subprocess
import sys
import time
import urllib.parse
import urllib.request

from chromium import browser, check, console_errors, scratch
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

ADMIN, HTTP2_PORT, CA, SHOTS, BINARY, DEVICE_PORT = sys.argv[1:7]
SHOP = "5d1c2f3e4a5b6c7d8e9f00112233445566778899aabbccddeeff001122334455"  # the seed's shop token
DEVICE = "iphone-15"
BURST = 5000


def admin(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(ADMIN + path, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read() or b"null")


def push(token, payload, topic="com.example.shop", push_type="alert", extra=()):
    """A push over HTTP/2 with TLS (curl); returns the HTTP status."""
    body = payload if isinstance(payload, str) else json.dumps(payload)
    command = ["curl", "-s", "--http2", "--cacert", CA, "-o", "/dev/null", "-w", "%{http_code}",
               "-H", f"apns-topic: {topic}", "-H", f"apns-push-type: {push_type}", *extra,
               "--data-binary", "@-", f"https://localhost:{HTTP2_PORT}/3/device/{token}"]
    return int(subprocess.run(command, input=body, capture_output=True, text=True, timeout=30, check=True).stdout)


def device(*arguments):
    """`apns-emulator device` as iphone-15: the lines it printed."""
    command = [BINARY, "device", "--device-id", DEVICE, "--device-port", DEVICE_PORT, "--ca", CA, *arguments]
    result = subprocess.run(command, capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise AssertionError(f"apns-emulator device failed: {result.stderr}")
    return result.stdout.splitlines()


def total(query=""):
    return admin("GET", f"/api/v1/notifications?limit=1{query}")["total"]


def world():
    """The iPhone's apps, pushes it took and pushes it has not, a Live Activity, a web app."""
    chat = device("--topic", "com.example.chat", "--authorize", "alert,sound,badge", "--count", "0")[0]
    check(len(chat) == 64, f"a chat app registered on {DEVICE}: {chat[:8]}…")
    for n in range(4):
        push(chat, {"aps": {"alert": {"title": "Mum", "body": f"Dinner at {6 + n}?"}, "thread-id": "family"}}, topic="com.example.chat")
    push(chat, {"aps": {"alert": {"title": "Standup", "body": "in 5"}, "thread-id": "work"}}, topic="com.example.chat")
    push(SHOP, {"aps": {"alert": {"title": "Order 1042 shipped", "body": "Arrives Friday"}, "category": "ORDER_SHIPPED"}})
    # The seed's iPhone is the emulator's own phone: with nothing attached it is online, and it
    # presents each push as it is accepted (issue 69: one truth per device).
    check(total(f"&token={chat}&status=delivered") == 5 and total(f"&token={SHOP}&status=delivered") == 1,
          "the seeded iPhone took the six with no device attached")

    app = admin("GET", f"/api/v1/devices/{SHOP}/app")
    start = {"event": "start", "timestamp": int(time.time()), "attributes-type": "DeliveryAttributes",
             "attributes": {"orderNumber": "1042"},
             "content-state": {"status": "Out for delivery", "eta": time.time() + 25 * 60 - 978307200}}
    # ActivityKit needs an alert in a push-to-start: without one nothing starts (missing-alert).
    push(app["pushToStartToken"], {"aps": start}, topic="com.example.shop.push-type.liveactivity", push_type="liveactivity")
    started = dict(start, alert={"title": "Order 1042", "body": "Out for delivery"}, timestamp=int(time.time()) + 1)
    check(push(app["pushToStartToken"], {"aps": started}, topic="com.example.shop.push-type.liveactivity", push_type="liveactivity") == 200,
          "a push-to-start with an alert is accepted")

    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid02
    from pywebpush import webpush

    vapid = Vapid02()
    vapid.generate_keys()
    key_path = os.path.join(scratch("volume-vapid-"), "vapid.pem")
    vapid.save_key(key_path)
    raw = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    web = admin("POST", f"/api/v1/devices/{SHOP}/web-apps", {
        "origin": "https://news.example", "kind": "homeScreen", "permission": "granted",
        "applicationServerKey": base64.urlsafe_b64encode(raw).rstrip(b"=").decode()})
    os.environ["REQUESTS_CA_BUNDLE"] = CA
    message = json.dumps({"web_push": 8030, "notification": {"title": "Breaking: tide is in", "navigate": "https://news.example/tide"}})
    answer = webpush(web["subscription"], data=message, vapid_private_key=key_path, vapid_claims={"sub": "mailto:desk@news.example"}, ttl=60)
    check(answer.status_code == 201, "pywebpush's push to the web app on the iPhone is accepted")
    # A 5 KB body APNs refuses (413): its detail must not print it twice in full.
    check(push(SHOP, json.dumps({"aps": {"alert": "big"}, "filler": "x" * 5000})) == 413, "a 5 KB payload is refused with 413")
    # Two more while it is offline: they wait for it.
    admin("PUT", f"/api/v1/devices/{SHOP}/power", {"online": False})
    for n in range(2):
        push(SHOP, {"aps": {"alert": {"title": "Sale", "body": f"{n + 1} day left"}}})
    check(total(f"&token={SHOP}&status=queued") == 2, "the offline iPhone's two pushes wait in the store")
    return chat, web


def burst():
    """5,000 pushes with h2load over TLS, one in five to a malformed token (400 BadDeviceToken)."""
    folder = scratch("volume-burst-")
    uris = os.path.join(folder, "uris")
    with open(uris, "w") as file:
        for n in range(8):
            file.write(f"https://localhost:{HTTP2_PORT}/3/device/{n:02x}{'ab' * 31}\n")
        file.write(f"https://localhost:{HTTP2_PORT}/3/device/not-a-token\n")
        file.write(f"https://localhost:{HTTP2_PORT}/3/device/zz\n")
    payload = os.path.join(folder, "payload.json")
    with open(payload, "w") as file:
        file.write(json.dumps({"aps": {"alert": {"title": "load", "body": "burst"}}}))
    result = subprocess.run(["h2load", "-n", str(BURST), "-c", "2", "-m", "20", "-i", uris, "-d", payload,
                             "-H", "apns-topic: com.example.load", "-H", "apns-push-type: alert"],
                            capture_output=True, text=True, timeout=300)
    check(result.returncode == 0 and f"{BURST} done" in result.stdout.replace(",", "") or "requests:" in result.stdout,
          "h2load sent the burst: " + next((line.strip() for line in result.stdout.splitlines() if line.strip().startswith("requests:")), result.stdout[-300:]))


def rows(driver):
    return driver.find_elements(By.CSS_SELECTOR, '[data-testid="inbox-row"]')


def shown_total(driver, wait):
    element = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, '[data-testid="inbox-total"][data-total]')))
    return int(element.get_attribute("data-total")), element.text


def settled(action, attempts=5):
    for attempt in range(attempts):
        try:
            return action()
        except StaleElementReferenceException:
            if attempt == attempts - 1:
                raise
            time.sleep(0.2)


def list_at_volume(driver, wait):
    """1,400 wide: true totals, server-side filters and search, scrolling loads older rows."""
    driver.get(ADMIN + "/")
    everything = total()
    wait.until(lambda d: int(d.find_element(By.CSS_SELECTOR, '[data-testid="inbox-total"]').get_attribute("data-total") or 0) == total())
    count, text = shown_total(driver, wait)
    check(count >= BURST and str(count) in text, f"the caption counts the journal, not a page: {text!r} (the API: {everything})")

    rejected = total("&status=rejected")
    driver.get(ADMIN + "/?status=rejected")
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '[data-testid="inbox-total"]').get_attribute("data-total") == str(rejected))
    count, text = shown_total(driver, wait)
    statuses = {row.get_attribute("data-status") for row in rows(driver)}
    check(rejected >= BURST // 6 and f"{rejected} match" in text and statuses == {"rejected"},
          f"/?status=rejected: {text!r}, the API's {rejected}, rows {statuses}")
    outcomes = {row.get_attribute("data-outcome") for row in rows(driver)}
    check(outcomes == {"rejected"}, f"rejected rows say the phone never got them: {outcomes}")

    # Older rows load as the list scrolls to its end.
    before = len(rows(driver))
    pane = driver.find_element(By.ID, "list-pane")
    for _ in range(3):
        driver.execute_script("arguments[0].scrollTop = arguments[0].scrollHeight", pane)
        time.sleep(0.3)
    wait.until(lambda d: len(rows(d)) > before)
    check(len(rows(driver)) > before, f"scrolling loads older rows ({before} → {len(rows(driver))})")

    # Search reads what a person reads: the web push's decrypted title is in no payload as sent.
    driver.get(ADMIN + "/?q=tide")
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '[data-testid="inbox-total"]').get_attribute("data-total") == "1")
    row = settled(lambda: rows(driver)[0])
    check("Breaking: tide is in" in row.text and row.get_attribute("data-outcome") == "shown",
          f"/?q=tide finds the web push as the phone showed it: {row.text!r} ({row.get_attribute('data-outcome')})")

    # Typing in the search box filters on the server and puts it in the URL.
    driver.get(ADMIN + "/")
    box = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, '[data-testid="inbox-search"]')))
    box.send_keys("missing-alert")
    wait.until(lambda d: "q=missing-alert" in d.current_url)
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '[data-testid="inbox-total"]').get_attribute("data-total") == "1")
    row = settled(lambda: rows(driver)[0])
    check(row.get_attribute("data-outcome") == "notShown" and "not started (missing-alert)" in row.text,
          f"a Live Activity start without an alert says so in its row: {row.text!r}")
    driver.save_screenshot(os.path.join(SHOTS, "volume-search-1400.png"))


def detail_beside(driver, wait, web_token):
    """The detail is a pane beside the list: time, token, message and status stay in view."""
    driver.get(ADMIN + "/")
    wait.until(lambda d: len(rows(d)) >= 100)
    driver.save_screenshot(os.path.join(SHOTS, "volume-inbox-1400.png"))
    settled(lambda: rows(driver)[3].click())
    wait.until(EC.visibility_of_element_located((By.ID, "detail-outcome")))
    check("notification=" in driver.current_url, f"the open detail is in the URL: {driver.current_url}")
    status_header = driver.find_element(By.XPATH, '//table[@id="inbox"]//th[contains(., "Status")]')
    pane = driver.find_element(By.ID, "list-pane")
    detail = driver.find_element(By.ID, "detail")
    width = driver.execute_script("return window.innerWidth")
    check(status_header.is_displayed() and status_header.rect["x"] + status_header.rect["width"] <= pane.rect["x"] + pane.rect["width"] + 1
          and driver.execute_script("return arguments[0].scrollLeft", pane) == 0,
          f"with the detail open the Status column stays in view, the list unscrolled (status right edge {status_header.rect['x'] + status_header.rect['width']:.0f}, list right edge {pane.rect['x'] + pane.rect['width']:.0f})")
    check(detail.rect["x"] >= pane.rect["x"] + pane.rect["width"] - 1 and detail.rect["x"] + detail.rect["width"] <= width,
          f"the detail is beside the list, inside the window (detail {detail.rect['x']:.0f}–{detail.rect['x'] + detail.rect['width']:.0f}, window {width})")

    # A rejected 5 KB body: folded, shown once, all of it on demand.
    rejected = admin("GET", "/api/v1/notifications?status=rejected&q=PayloadTooLarge&limit=1")["items"][0]
    driver.get(ADMIN + f"/?notification={rejected['id']}")
    wait.until(EC.visibility_of_element_located((By.ID, "detail-outcome")))
    check(len(driver.find_element(By.ID, "detail").text) < 3000, "the summary tab does not print the body")
    driver.find_element(By.ID, "tab-payload").click()
    folded = wait.until(EC.visibility_of_element_located((By.ID, "detail-payload")))
    check(len(folded.text) < 2000 and folded.text.count("xxxxxxxxxx") > 0, f"the 5 KB body is folded ({len(folded.text)} characters shown)")
    driver.find_element(By.CSS_SELECTOR, "#detail .unfold").click()
    check(len(driver.find_element(By.ID, "detail-payload").text) > 5000, "Show all unfolds it")
    driver.save_screenshot(os.path.join(SHOTS, "volume-detail-1400.png"))

    # The web push's row: shown on the phone, not 'queued alert'.
    row_item = admin("GET", f"/api/v1/notifications?token={web_token}&limit=1")["items"][0]
    check(row_item["phoneOutcome"] == {"state": "shown", "text": "web push shown"}, f"the web push says it was shown: {row_item['phoneOutcome']}")


def phone_width(driver, wait):
    """390 wide: the list fits; a row opens its detail as a screen of its own, with Back."""
    driver.set_window_size(390, 844)
    driver.get(ADMIN + "/")
    wait.until(lambda d: len(rows(d)) >= 50)
    wide = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    check(wide[0] <= wide[1], f"nothing is wider than a 390-point screen (page {wide[0]}, viewport {wide[1]})")
    visible = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#inbox thead th") if th.is_displayed()]
    status = driver.find_element(By.XPATH, '//table[@id="inbox"]//th[contains(., "Status")]').rect
    check(any("Status" in t for t in visible) and "Message" in visible and "Time" in visible and status["x"] + status["width"] <= wide[1],
          f"time, message and status are in view without scrolling: {visible}, status ends at {status['x'] + status['width']:.0f} of {wide[1]}")
    under = settled(lambda: [r.find_element(By.CSS_SELECTOR, "td.summary .who-inline") for r in rows(driver)[:20]])
    check(any(e.is_displayed() and "abab" in e.text for e in under), "the token is under the message")
    driver.save_screenshot(os.path.join(SHOTS, "volume-inbox-390.png"))
    # The filters and search run on the server at this width too, from the URL.
    rejected = total("&status=rejected")
    driver.get(ADMIN + "/?status=rejected")
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '[data-testid="inbox-total"]').get_attribute("data-total") == str(rejected))
    check({row.get_attribute("data-status") for row in rows(driver)} == {"rejected"}, f"/?status=rejected at 390: {rejected} match")
    driver.get(ADMIN + "/?q=tide")
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '[data-testid="inbox-total"]').get_attribute("data-total") == "1")
    check("tide" in settled(lambda: rows(driver)[0].text), "/?q=tide at 390 finds the web push")
    driver.get(ADMIN + "/")
    wait.until(lambda d: len(rows(d)) >= 50)
    settled(lambda: rows(driver)[40].click())
    outcome = wait.until(EC.visibility_of_element_located((By.ID, "detail-outcome")))
    top = driver.execute_script("return document.getElementById('detail').getBoundingClientRect().top")
    check(0 <= top < 200 and not driver.find_element(By.ID, "list-pane").is_displayed(),
          f"the detail is the screen, at its top ({top:.0f} px), the list hidden")
    driver.save_screenshot(os.path.join(SHOTS, "volume-detail-390.png"))
    driver.find_element(By.ID, "detail-back").click()
    wait.until(lambda d: d.find_element(By.ID, "list-pane").is_displayed() and not d.find_element(By.ID, "detail").is_displayed())
    check(outcome is not None, "Back returns to the list")
    driver.set_window_size(1400, 900)


def phone(driver, wait, chat, web):
    """One phone per device: everything iphone-15's apps received, grouped as iOS stacks it."""
    for width in (1400, 390):
        driver.set_window_size(width, 900 if width == 1400 else 844)
        driver.get(ADMIN + f"/?view=phone&device={DEVICE}")
        picker = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, '[data-testid="phone-device"]')))
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="phone-notification"]'))
        wait.until(lambda d: "tide" in d.find_element(By.ID, "phone-screen").text)
        options = [o.get_attribute("value") for o in picker.find_elements(By.TAG_NAME, "option")]
        check(picker.get_attribute("value") == DEVICE and DEVICE in picker.text, f"the picker names the device: {picker.get_attribute('value')}")
        check(web["token"] not in options and chat not in options and SHOP not in options,
              "the iPhone's apps, web app and Live Activity tokens are one phone, not one each")
        groups = [g.get_attribute("label") for g in picker.find_elements(By.TAG_NAME, "optgroup")]
        check(len(groups) == 2 and groups[0].startswith("Devices (") and groups[1].startswith("Tokens no device holds ("),
              f"the picker groups devices first, then the tokens no device holds, counted: {groups}")
        if width == 1400:
            find = driver.find_element(By.ID, "phone-device-search")
            find.send_keys(DEVICE)
            narrowed = [o.get_attribute("value") for o in picker.find_elements(By.TAG_NAME, "option")]
            check(narrowed == [DEVICE] and len(options) > 1, f"Find narrows {len(options)} entries to the device: {narrowed}")
            find.clear()
        screen = driver.find_element(By.ID, "phone-screen").text
        for text in ("Order 1042 shipped", "Mum", "Standup", "Breaking: tide is in", "com.example.chat", "https://news.example"):
            check(text in screen, f"the phone at {width} shows {text!r}")
        waiting = driver.find_element(By.CSS_SELECTOR, '[data-testid="phone-waiting"]').text
        check(waiting.startswith("2 waiting") and '{"online": true}' in waiting,
              f"what waits for the device is said, and how to bring it back: {waiting!r}")
        family = driver.find_element(By.XPATH, '//section[contains(@class,"stack-group")][.//small[contains(., "family")]]')
        check(family.find_element(By.CSS_SELECTOR, ".count").text == "4" and len(family.find_elements(By.CSS_SELECTOR, '[data-testid="phone-notification"]')) == 3,
              "the family thread stacks: a count of 4, the newest 3 shown")
        family.find_element(By.CSS_SELECTOR, "button.more").click()
        wait.until(lambda d: len(d.find_elements(By.XPATH, '//section[contains(@class,"stack-group")][.//small[contains(., "family")]]//*[@data-testid="phone-notification"]')) == 4)
        card = driver.find_element(By.CSS_SELECTOR, "#phone-activities .activity")
        check("1042" in card.text and "orderNumber" not in card.text and "ORDERNUMBER" not in card.text.upper().replace("ORDER 1042", ""),
              f"the Live Activity shows the attributes' values, not their names: {card.text.splitlines()[0]!r}")
        check(not re.search(r"\d{4}-\d{2}-\d{2}T", card.text) and "(in 2" in card.text,
              f"the eta is a time of day with the time left, not an ISO date: {card.text!r}")
        island = driver.find_element(By.ID, "island")
        overflow = driver.execute_script(
            "return [...arguments[0].children].map(e => e.scrollWidth - e.clientWidth).concat([arguments[0].scrollWidth - arguments[0].clientWidth])", island)
        check(island.is_displayed() and max(overflow) <= 1, f"the Dynamic Island's text fits (overflow {overflow})")
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(os.path.join(SHOTS, f"volume-phone-{width}.png"))
        wide = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        widest = driver.execute_script(
            "return [...document.querySelectorAll('#view-phone *')].filter(e => e.getBoundingClientRect().right > window.innerWidth)"
            ".slice(0, 4).map(e => (e.id || e.className || e.tagName) + ' ' + Math.round(e.getBoundingClientRect().right))")
        check(wide[0] <= wide[1], f"the phone view fits {width} pixels ({wide[0]}; past the edge: {widest})")
    driver.set_window_size(1400, 900)


def main():
    os.makedirs(SHOTS, exist_ok=True)
    chat, web = world()
    burst()
    driver = browser()
    driver.set_window_size(1400, 900)
    wait = WebDriverWait(driver, 15, ignored_exceptions=(StaleElementReferenceException,))
    try:
        list_at_volume(driver, wait)
        detail_beside(driver, wait, web["token"])
        phone_width(driver, wait)
        phone(driver, wait, chat, web)
        errors = console_errors(driver)
        check(not errors, f"no console errors: {errors}")
    except Exception:
        screen = driver.execute_script(
            "return [document.getElementById('view-phone').hidden, document.getElementById('phone-device').value, document.getElementById('phone-device').options.length,"
            " (document.getElementById('phone-screen') || {}).textContent || '']")
        print("at", driver.current_url, "phone screen:", screen, "console:", console_errors(driver), flush=True)
        timing = driver.execute_async_script(
            "const done = arguments[0]; const t = performance.now();"
            "Promise.race([fetch('/api/v1/devices').then(r => r.text()).then(x => 'devices ' + x.length + ' in ' + (performance.now() - t)),"
            " new Promise(r => setTimeout(() => r('devices: no answer in 5 s'), 5000))]).then(done)")
        started = time.time()
        try:
            direct = f"{len(admin('GET', '/api/v1/devices'))} devices in {time.time() - started:.2f} s"
        except Exception as error:  # noqa: BLE001
            direct = f"no answer: {error!r}"
        print("direct:", direct, flush=True)
        print("probe:", timing, [e["name"][-60:] for e in driver.execute_script("return performance.getEntriesByType('resource').filter(e => !e.responseEnd)")][:10], flush=True)
        raise
    finally:
        driver.quit()


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # noqa: BLE001 - the failure is the output
        print("FAILED:", repr(error), flush=True)
        sys.exit(1)
