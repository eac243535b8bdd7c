"""The web inbox in a real headless browser (Chromium through selenium): what a person sees.

Usage: inbox_browser.py ADMIN_URL HTTP2_PORT CA_PEM SCREENSHOT_DIR

Pushes with curl over HTTP/2 and TLS, as a provider would, and checks through the page and
the admin API: no console errors; a push appears within a second without reload; its detail
shows payload and headers; the phone view renders a categorised push with its action buttons;
pressing one records the response; a fault added from the page makes the next push fail with its
reason; interruption levels, a Focus and provisional authorization on the phone's cards
(inbox_levels.py); a Live Activity drawn on the Lock Screen and in the Dynamic Island from its content
state, with an ignored update's reason in its timeline; screenshots of the inbox, the detail, the
phone and the activity. Prints one line per check; exits
non-zero on the first failure.
"""

import json
import os
import subprocess
import sys
import time
import urllib.request

from chromium import browser, check, console_errors, scratch
from inbox_environments import environments
from inbox_levels import badge_only, levels, service_extension, summary
from inbox_not_processed import not_processed
from inbox_providers import providers
from inbox_search import search_and_history
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

ADMIN, HTTP2_PORT, CA, SHOTS = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
TOPIC = "com.example.inbox"


def settled(action, attempts=5):
    """Runs `action`, again if a live update replaced an element it was using."""
    for attempt in range(attempts):
        try:
            return action()
        except StaleElementReferenceException:
            if attempt == attempts - 1:
                raise
            time.sleep(0.2)


def admin(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(ADMIN + path, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def curl_push(token, payload, extra=()):
    """A push over HTTP/2 with TLS; returns (status, body)."""
    command = [
        "curl", "-s", "--http2", "--cacert", CA, "-o", "/dev/stdout", "-w", "\n%{http_code}",
        "-H", f"apns-topic: {TOPIC}", "-H", "apns-push-type: alert", *extra,
        "-d", json.dumps(payload), f"https://localhost:{HTTP2_PORT}/3/device/{token}",
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=20, check=True)
    body, _, status = result.stdout.rpartition("\n")
    return int(status), body


def live_activity_push(token, payload, priority="10"):
    """A liveactivity push to the app's Live Activity topic over HTTP/2 with TLS; returns the status."""
    command = [
        "curl", "-s", "--http2", "--cacert", CA, "-o", "/dev/null", "-w", "%{http_code}",
        "-H", f"apns-topic: {TOPIC}.push-type.liveactivity", "-H", "apns-push-type: liveactivity", "-H", f"apns-priority: {priority}",
        "-d", json.dumps(payload), f"https://localhost:{HTTP2_PORT}/3/device/{token}",
    ]
    return int(subprocess.run(command, capture_output=True, text=True, timeout=20, check=True).stdout)


def live_activities(driver, wait, token):
    """A push-to-start draws a Lock Screen card and the Dynamic Island from the content state; an
    older update shows in the card's timeline as ignored, with the reason."""
    app = admin("PUT", f"/api/v1/devices/{token}/app", {"activityTypes": {"Delivery": {"attributes": {"order": "int"}, "contentState": {"status": "string", "minutes": "int"}}}})
    now = int(time.time())
    start = {"aps": {"event": "start", "timestamp": now, "attributes-type": "Delivery", "attributes": {"order": 7},
                     "content-state": {"status": "Packing", "minutes": 25}, "alert": {"title": "Order 7", "body": "Packing"}, "input-push-token": 1}}
    check(live_activity_push(app["pushToStartToken"], start) == 200, "the push-to-start is accepted")
    driver.get(ADMIN + f"/#phone/{token}")
    card = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#phone-activities .activity.active")))
    check("Packing" in card.text and "minutes" in card.text and "25" in card.text, f"the Lock Screen card shows the content state: {card.text!r}")
    island = driver.find_element(By.ID, "island")
    check(island.is_displayed() and "Delivery" in island.text and "25" in island.text, f"the Dynamic Island's compact view: {island.text!r}")
    update_token = admin("GET", f"/api/v1/devices/{token}/activities")["items"][0]["updateToken"]
    live_activity_push(update_token, {"aps": {"event": "update", "timestamp": now + 60, "content-state": {"status": "On the way", "minutes": 10}}})
    live_activity_push(update_token, {"aps": {"event": "update", "timestamp": now - 60, "content-state": {"status": "Old", "minutes": 99}}})
    wait.until(lambda d: "On the way" in d.find_element(By.CSS_SELECTOR, "#phone-activities .activity").text)
    driver.find_element(By.CSS_SELECTOR, "#phone-activities .activity details summary").click()
    ignored = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, "#phone-activities .activity details li.ignored")))
    check("older than the last applied" in ignored.text, f"the timeline says why the older update was ignored: {ignored.text!r}")
    driver.save_screenshot(os.path.join(SHOTS, "activity.png"))


def surfaces(driver, wait, token):
    """Issue 41: the running activity on the phone's paired surfaces, each in its size class: the
    watch's Smart Stack and CarPlay in `small` when the type declares it in
    supplementalActivityFamilies (WidgetKit's ActivityFamily), else the Dynamic Island's compact
    views; the Mac menu bar in the compact views. Screenshots of each surface at each size."""
    fields = {"attributes": {"order": "int"}, "contentState": {"status": "string", "minutes": "int"}}
    admin("PUT", f"/api/v1/devices/{token}/app", {"iosVersion": "26.0", "pairedSurfaces": ["watch", "carPlay", "macMenuBar"],
          "activityTypes": {"Delivery": dict(fields, supplementalActivityFamilies=["small"])}})
    driver.find_element(By.ID, "phone-refresh").click()
    css = '#surfaces figure[data-surface="{}"][data-family="{}"] .screen'
    watch = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, css.format("watch", "small"))))
    carplay = driver.find_element(By.CSS_SELECTOR, css.format("carPlay", "small"))
    mac = driver.find_element(By.CSS_SELECTOR, css.format("macMenuBar", "compact"))
    check("On the way" in watch.text and "Delivery" in watch.text, f"the watch's Smart Stack draws the content state, small: {watch.text!r}")
    check("On the way" in carplay.text and "10" in carplay.text, f"CarPlay draws it, small: {carplay.text!r}")
    check("Delivery" in mac.text and "10" in mac.text and "On the way" not in mac.text, f"the Mac menu bar, compact: {mac.text!r}")
    w, c, m = (e.rect for e in (watch, carplay, mac))
    check(w["width"] < c["width"] < m["width"] and m["height"] < 30 < w["height"],
          f"each surface has its own size: watch {w['width']}x{w['height']}, CarPlay {c['width']}x{c['height']}, menu bar {m['width']}x{m['height']}")
    # Issue 50: text fits each surface (an ellipsis, never an overflow).
    overflow = driver.execute_script(
        "return [...document.querySelectorAll('#surfaces .screen, #surfaces .screen *')].map(e => e.scrollWidth - e.clientWidth).filter(n => n > 1)")
    check(not overflow, f"every surface's text fits it (overflows: {overflow})")
    watch.screenshot(os.path.join(SHOTS, "surface-watch-small.png"))
    carplay.screenshot(os.path.join(SHOTS, "surface-carplay-small.png"))
    mac.screenshot(os.path.join(SHOTS, "surface-mac-compact.png"))
    driver.find_element(By.ID, "surfaces").screenshot(os.path.join(SHOTS, "surfaces.png"))

    # Without supplementalActivityFamilies the watch and CarPlay fall back to the compact views.
    admin("PUT", f"/api/v1/devices/{token}/app", {"activityTypes": {"Delivery": fields}})
    driver.find_element(By.ID, "phone-refresh").click()
    compact = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, css.format("watch", "compact"))))
    check("Delivery" in compact.text and "On the way" not in compact.text and compact.rect["height"] < w["height"],
          f"the watch falls back to the compact views: {compact.text!r} ({compact.rect['height']} high)")
    compact.screenshot(os.path.join(SHOTS, "surface-watch-compact.png"))
    driver.find_element(By.CSS_SELECTOR, css.format("carPlay", "compact")).screenshot(os.path.join(SHOTS, "surface-carplay-compact.png"))

    # On iOS 18 only the watch shows it; the others say why. Unpairing from the page's form.
    admin("PUT", f"/api/v1/devices/{token}/app", {"iosVersion": "18.0"})
    driver.find_element(By.ID, "phone-refresh").click()
    off = wait.until(EC.visibility_of_element_located((By.CSS_SELECTOR, '#surfaces figure.off[data-surface="carPlay"]')))
    check("iOS 26" in off.text, f"CarPlay says why it shows nothing on iOS 18: {off.text!r}")
    form = driver.find_element(By.ID, "app-form")
    form.find_element(By.NAME, "surface-macMenuBar").click()
    form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "app-answer"), "Saved"))
    paired = admin("GET", f"/api/v1/devices/{token}/app")["pairedSurfaces"]
    check(paired == ["watch", "carPlay"], f"unpairing the Mac from the page: {paired}")
    wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, '#surfaces figure[data-surface="macMenuBar"]'))


def web_apps(driver, wait, token):
    """Issue 42: the device's web apps in the phone view, each web push decrypted with its VAPID
    subject; a service worker's notification shown from the page. pywebpush and py-vapid (PyPI)
    push as a web server does."""
    import base64
    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid02
    from pywebpush import webpush

    vapid = Vapid02()
    vapid.generate_keys()
    key_path = os.path.join(scratch("inbox-vapid-"), "vapid.pem")
    vapid.save_key(key_path)
    raw = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    app = admin("POST", f"/api/v1/devices/{token}/web-apps", {
        "origin": "https://news.example", "kind": "homeScreen", "permission": "granted",
        "applicationServerKey": base64.urlsafe_b64encode(raw).rstrip(b"=").decode()})
    os.environ["REQUESTS_CA_BUNDLE"] = CA
    for data in (json.dumps({"web_push": 8030, "notification": {"title": "Rates cut", "navigate": "https://news.example/r"}}),
                 "plain text for the worker"):
        answer = webpush(app["subscription"], data=data, vapid_private_key=key_path,
                         vapid_claims={"sub": "mailto:desk@news.example"}, ttl=60)
        check(answer.status_code == 201, f"pywebpush's push is accepted ({answer.status_code})")
    driver.get(ADMIN + f"/#phone/{token}")
    # The web app subscribed after the phone was drawn: Refresh shows it, as a person would press it.
    driver.find_element(By.ID, "phone-refresh").click()
    card = f'#web-apps article[data-web-app="{app["id"]}"]'
    try:
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, card + " li.web-push")) == 2)
    except Exception:
        print("web apps area:", driver.find_element(By.ID, "web-apps").get_attribute("outerHTML")[:2000], console_errors(driver), flush=True)
        raise
    cards = driver.find_elements(By.CSS_SELECTOR, card)
    check(len(cards) == 1, f"one card for the one subscription, though the device has two tokens listing it ({len(cards)}; issue 70)")
    text = settled(lambda: driver.find_element(By.CSS_SELECTOR, card).text)
    check("https://news.example" in text and "from mailto:desk@news.example" in text, "the web app and its pushes' VAPID subject show")
    check("plain text for the worker" in text and "Rates cut" in text, "each web push shows decrypted")
    outcomes = settled(lambda: [e.text for e in driver.find_elements(By.CSS_SELECTOR, card + " li.web-push .outcome")])
    check(sorted(outcomes) == ["declarative", "serviceWorker"], f"a declarative push and one for the service worker: {outcomes}")

    def show_from_page():
        form = driver.find_element(By.CSS_SELECTOR, card + " form.show")
        form.find_element(By.NAME, "title").send_keys("Worker says hi")
        form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    settled(show_from_page)
    deadline = time.time() + 10
    shown = []
    while time.time() < deadline and not shown:
        shown = [i for i in admin("GET", f"/api/v1/devices/{app['token']}/delivered")["items"]
                 if i["presentation"]["title"] == "Worker says hi"]
        time.sleep(0.1)
    check(bool(shown), "Show plays the service worker's showNotification (Notification Center has it)")
    wait.until(lambda d: "awaiting" not in d.find_element(By.CSS_SELECTOR, card).text)
    driver.find_element(By.ID, "web-apps").screenshot(os.path.join(SHOTS, "web-apps.png"))


def curl_channel(method, path, body=None, headers=()):
    """A channel management request or broadcast over HTTP/2 with TLS; returns (status, the response headers)."""
    command = ["curl", "-s", "--http2", "--cacert", CA, "-X", method, "-D", "-", "-o", "/dev/null", *headers]
    if body is not None:
        command += ["-d", json.dumps(body)]
    result = subprocess.run(command + [f"https://localhost:{HTTP2_PORT}{path}"], capture_output=True, text=True, timeout=20, check=True)
    status = int(result.stdout.split()[1])
    return status, result.stdout


def broadcasts(driver, wait, token):
    """A broadcast shows in the inbox with its fan-out, each subscriber's outcome in its detail,
    and the channel in the Channels view with its subscriber and stored message."""
    status, headers = curl_channel("POST", f"/1/apps/{TOPIC}/channels", {"message-storage-policy": 1, "push-type": "LiveActivity"})
    channel = next(line.split(":", 1)[1].strip() for line in headers.splitlines() if line.lower().startswith("apns-channel-id:"))
    check(status == 201 and admin("GET", f"/api/v1/channels?bundleId={TOPIC}")["items"][0]["id"] == channel, f"a channel is created: {channel}")
    admin("POST", f"/api/v1/devices/{token}/activities", {"attributes-type": "Delivery", "attributes": {"order": 9},
          "content-state": {"status": "Waiting", "minutes": 40}, "pushType": {"channel": channel}})
    update = {"aps": {"event": "update", "timestamp": int(time.time()) + 120, "content-state": {"status": "Kick-off", "minutes": 0}}}
    status, _ = curl_channel("POST", f"/4/broadcasts/apps/{TOPIC}", update, headers=(
        "-H", f"apns-channel-id: {channel}", "-H", "apns-push-type: LiveActivity", "-H", "apns-expiration: 0", "-H", "apns-priority: 10"))
    check(status == 200, "the broadcast is accepted")
    driver.find_element(By.CSS_SELECTOR, 'nav button[data-view="inbox"]').click()
    row = wait.until(EC.presence_of_element_located((By.XPATH, '//table[@id="inbox"]//tr[.//td[contains(., "broadcast to 1 activity")]]')))
    check(row.get_attribute("data-outcome") == "shown", f"the broadcast's row says it reached an activity: {row.get_attribute('data-outcome')}")
    settled(lambda: driver.find_element(By.XPATH, '//table[@id="inbox"]//tr[.//td[contains(., "broadcast to 1 activity")]]').click())
    wait.until(EC.element_to_be_clickable((By.ID, "tab-timeline"))).click()
    fanout = wait.until(EC.text_to_be_present_in_element((By.ID, "detail-fanout"), "applied"))
    check(fanout and row is not None, "the inbox lists the broadcast with its fan-out, and the detail each subscriber's outcome")
    text = driver.find_element(By.ID, "detail").text
    check("[object" not in text and "nullnull" not in text, f"the detail's optional sections render as sections: {text!r}")
    driver.find_element(By.ID, "tab-again").click()
    curl = wait.until(EC.visibility_of_element_located((By.ID, "detail-curl"))).text
    check(f"/4/broadcasts/apps/{TOPIC}" in curl and f"apns-channel-id: {channel}" in curl and "apns-topic" not in curl, f"the curl command repeats the broadcast: {curl!r}")
    driver.find_element(By.CSS_SELECTOR, 'nav button[data-view="channels"]').click()
    cell = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, f'#channels tr[data-id="{channel}"]')))
    texts = [td.text for td in cell.find_elements(By.TAG_NAME, "td")]
    check(texts[3] == "1" and texts[4] == "1" and "Kick-off" not in texts[5], f"the Channels view shows the subscriber and the broadcast: {texts}")
    check(texts[6] == "sandbox", f"the Channels view shows the environment the channel was created in: {texts}")
    driver.save_screenshot(os.path.join(SHOTS, "channels.png"))


def main():
    os.makedirs(SHOTS, exist_ok=True)
    token = admin("POST", "/api/v1/devices", {"topic": TOPIC})["token"]
    driver = browser()
    # The page re-renders as events arrive: an element found a moment ago may be replaced.
    wait = WebDriverWait(driver, 10, ignored_exceptions=(StaleElementReferenceException,))
    try:
        driver.get(ADMIN + "/")
        wait.until(EC.text_to_be_present_in_element((By.ID, "live"), "live"))
        check(driver.title == "apns-emulator", "the page loads")

        # Idle: the load charts are folded away, a line says so.
        check(driver.find_element(By.ID, "load-idle").is_displayed() and not driver.find_element(By.CSS_SELECTOR, "section.load").is_displayed(),
              "the charts fold away while nothing is pushed")

        # A person in the search box when pushes start: the charts wait to unfold until they leave
        # the filters, so that the box does not move from under the caret (issue 70).
        search_box = driver.find_element(By.NAME, "q")
        search_box.click()
        before = search_box.rect["y"]

        # A push with curl appears within a second, without a reload.
        status, _ = curl_push(token, {"aps": {"alert": {"title": "Hello", "body": "From curl"}}, "order": 66})
        check(status == 200, "curl's push is accepted")
        WebDriverWait(driver, 1.0).until(lambda d: token[:8] in d.find_element(By.CSS_SELECTOR, "#inbox tbody").text)
        check(True, "the push appears in the inbox within a second, without reload")
        wait.until(lambda d: d.find_element(By.ID, "rate-accepted").get_attribute("textContent") not in ("", "0", "–"))
        check(not driver.find_element(By.CSS_SELECTOR, "section.load").is_displayed() and search_box.rect["y"] == before,
              "with the search box in use the charts stay folded: the box stays where it was")
        ActionChains(driver).move_to_element(driver.find_element(By.ID, "live")).click().perform()
        driver.execute_script("document.activeElement.blur()")
        # Its row says what it says, as a mail client shows a subject; a silent push and a rejection too.
        wait.until(lambda d: "Hello: From curl" in d.find_element(By.CSS_SELECTOR, "#inbox tbody tr td.summary").text)
        curl_push(token, {"aps": {"content-available": 1}})
        curl_push(token, {"aps": {"alert": "x"}}, ("-H", "apns-priority: 7"))
        wait.until(lambda d: "BadPriority" in d.find_element(By.CSS_SELECTOR, "#inbox tbody tr td.summary").text)
        summaries = [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#inbox tbody td.summary")]
        check(summaries[:3] == [summaries[0], "silent (content-available)", "Hello: From curl"] and summaries[0].startswith("BadPriority: "),
              f"rows summarise: {summaries[:3]}")
        wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "section.load").is_displayed())
        check(not driver.find_element(By.ID, "load-idle").is_displayed(), "the charts unfold when pushes come")

        # On a 390-point-wide phone the header fits the screen: nothing wider than it.
        size = driver.get_window_size()
        driver.set_window_size(390, 844)
        wide = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth, document.querySelector('header.top').getBoundingClientRect().right]")
        check(wide[0] <= wide[1] and wide[2] <= wide[1], f"the header fits a 390-point screen (page {wide[0]}, header right edge {wide[2]}, viewport {wide[1]})")
        driver.save_screenshot(os.path.join(SHOTS, "phone-width.png"))
        driver.set_window_size(size["width"], size["height"])
        driver.save_screenshot(os.path.join(SHOTS, "inbox.png"))

        # Its detail: payload and headers as sent.
        driver.find_element(By.XPATH, '//table[@id="inbox"]//tr[.//td[contains(., "Hello: From curl")]]').click()
        outcome = wait.until(EC.visibility_of_element_located((By.ID, "detail-outcome")))
        # The silent push after it went to the same app while the device was offline: APNs stores
        # one notification per app ("Sending notification requests to APNs"), so it replaced this one.
        check("replaced" in outcome.text, f"the detail's summary says what became of it: {outcome.text!r}")
        driver.find_element(By.ID, "tab-payload").click()
        payload = wait.until(EC.visibility_of_element_located((By.ID, "detail-payload"))).text
        check('"order": 66' in payload and "From curl" in payload, "the detail shows the payload")
        driver.find_element(By.ID, "tab-headers").click()
        headers = wait.until(EC.visibility_of_element_located((By.ID, "detail-headers"))).text
        check(f"apns-topic: {TOPIC}" in headers and "apns-push-type: alert" in headers, "the detail shows the headers")
        # curl sent no apns-priority and no apns-id: the tab shows exactly what was sent, and what
        # the emulator assumed apart (issue 69).
        assumed = driver.find_element(By.CSS_SELECTOR, '[data-testid="detail-assumed"]').text
        check("apns-priority" not in headers and "apns-id" not in headers and "apns-priority: 10" in assumed and "apns-id: " in assumed,
              f"the headers sent, and apart those assumed: {headers!r} / {assumed!r}")
        driver.save_screenshot(os.path.join(SHOTS, "detail-headers.png"))
        driver.find_element(By.ID, "tab-again").click()
        curl = wait.until(EC.visibility_of_element_located((By.ID, "detail-curl"))).text
        check(f"/3/device/{token}" in curl, "the detail offers a curl command")
        check(f"--cacert '{CA}'" in curl, f"its curl trusts this emulator's CA where --certs-dir put it: {curl!r}")
        # A refused push's .apns file holds what was sent (issue 69: it held only the target bundle).
        settled(lambda: driver.find_element(By.XPATH, '//table[@id="inbox"]//tr[.//td[contains(., "BadPriority")]]').click())
        wait.until(EC.element_to_be_clickable((By.ID, "tab-again"))).click()
        apns = wait.until(EC.visibility_of_element_located((By.ID, "detail-apns"))).text
        check('"alert": "x"' in apns and "Simulator Target Bundle" in apns, f"the refused push's .apns file holds its body: {apns!r}")
        settled(lambda: driver.find_element(By.XPATH, '//table[@id="inbox"]//tr[.//td[contains(., "Hello: From curl")]]').click())
        # Its timeline is the delivery log, in the Push Notifications Console's words.
        wait.until(EC.element_to_be_clickable((By.ID, "tab-timeline"))).click()
        wait.until(EC.text_to_be_present_in_element((By.ID, "detail-delivery-log"), "Received by APNs"))
        timeline = driver.find_element(By.ID, "detail-delivery-log").text
        check("Stored - Device Offline" in timeline and "Replaced - Newer Notification" in timeline and
              "one notification per app" in timeline, f"the detail's timeline is the delivery log, saying why it was replaced: {timeline!r}")
        driver.save_screenshot(os.path.join(SHOTS, "detail.png"))

        # The phone: a categorised push to an authorised app, presented with its actions.
        admin("PUT", f"/api/v1/devices/{token}/app", {
            "authorization": {"status": "authorized", "alert": True, "sound": True, "badge": True},
            "alertStyle": "alert",
            "categories": [{"identifier": "INVITE", "actions": [
                {"identifier": "ACCEPT", "title": "Accept"},
                {"identifier": "REPLY", "title": "Reply", "textInput": {"buttonTitle": "Send", "placeholder": "Message"}},
                {"identifier": "DECLINE", "title": "Decline", "options": ["destructive"]}]}],
        })
        status, _ = curl_push(token, {"aps": {"alert": {"title": "Lunch?", "body": "At noon"}, "category": "INVITE", "sound": "default", "badge": 3}})
        check(status == 200, "the categorised push is accepted")
        driver.get(ADMIN + f"/#phone/{token}")
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, '#phone-screen .bubble button[data-action="ACCEPT"]')))
        bubble = driver.find_element(By.CSS_SELECTOR, "#phone-screen .bubble")
        check("Lunch?" in bubble.text and "At noon" in bubble.text, "the phone shows the title and body as presented")
        buttons = [b.get_attribute("data-action") for b in bubble.find_elements(By.CSS_SELECTOR, ".actions button")]
        check(buttons == ["default", "ACCEPT", "REPLY", "DECLINE", "dismiss"], f"the phone offers the category's actions: {buttons}")
        check(bubble.find_element(By.CSS_SELECTOR, ".badge").text == "3", "the badge is shown")
        driver.save_screenshot(os.path.join(SHOTS, "phone.png"))
        unique_id = bubble.get_attribute("data-id")
        bubble.find_element(By.CSS_SELECTOR, 'button[data-action="ACCEPT"]').click()
        deadline = time.time() + 10
        response = None
        while time.time() < deadline and not response:
            response = admin("GET", f"/api/v1/notifications/{unique_id}").get("response")
            time.sleep(0.1)
        check(response is not None and response["action"] == "ACCEPT", "pressing Accept records the response (admin API)")
        wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "#phone-screen .bubble .responded"), "ACCEPT"))

        # A reply typed on the phone: the text-input action opens a field, its button sends it.
        status, _ = curl_push(token, {"aps": {"alert": {"title": "Where?", "body": "Reply please"}, "category": "INVITE"}})
        check(status == 200, "a second categorised push is accepted")
        wait.until(lambda d: "Where?" in d.find_element(By.CSS_SELECTOR, "#phone-screen .bubble").text
                   and d.find_elements(By.CSS_SELECTOR, '#phone-screen .bubble button[data-action="REPLY"]'))

        def reply_on_phone():
            second = driver.find_element(By.CSS_SELECTOR, "#phone-screen .bubble")
            second.find_element(By.CSS_SELECTOR, 'button[data-action="REPLY"]').click()
            field = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#phone-screen .bubble .reply input")))
            field.send_keys("On my way")
            driver.find_element(By.CSS_SELECTOR, '#phone-screen .bubble .reply button[type="submit"]').click()
            return second.get_attribute("data-id")
        second_id = settled(reply_on_phone)
        deadline = time.time() + 10
        reply = None
        while time.time() < deadline and not reply:
            reply = admin("GET", f"/api/v1/notifications/{second_id}").get("response")
            time.sleep(0.1)
        check(reply is not None and reply["action"] == "REPLY" and reply.get("text") == "On my way", f"the reply's text is recorded: {reply}")

        levels(driver, wait, admin, curl_push, TOPIC, SHOTS)
        service_extension(driver, wait, admin, curl_push, TOPIC, SHOTS)
        badge_only(driver, wait, admin, curl_push, TOPIC, SHOTS)
        driver.get(ADMIN + f"/#phone/{token}")
        wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#phone-screen .bubble")))
        live_activities(driver, wait, token)
        surfaces(driver, wait, token)
        web_apps(driver, wait, token)
        broadcasts(driver, wait, token)

        # A fault added from the page: the next push fails with its reason.
        driver.find_element(By.CSS_SELECTOR, 'nav button[data-view="faults"]').click()
        form = driver.find_element(By.ID, "fault-form")
        form.find_element(By.NAME, "token").send_keys(token)
        Select(form.find_element(By.NAME, "type")).select_by_visible_text("respond")
        reason = form.find_element(By.NAME, "reason")
        check(reason.get_attribute("value") == "" and reason.get_attribute("placeholder"), "the reason box holds a suggestion, not text that typing would append to")
        suggestions = [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#fault-reasons option")]
        check("TooManyRequests" in suggestions and "Unregistered" in suggestions and len(suggestions) >= 30, f"every reason is suggested ({len(suggestions)})")
        interfaces = [o.text for o in form.find_elements(By.CSS_SELECTOR, 'select[name="interface"] option')]
        check({"http2", "binary", "webpush", "broadcast"} <= set(interfaces), f"every interface a rule matches is offered: {interfaces}")
        reason.send_keys("TooManyRequests")
        form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
        wait.until(EC.text_to_be_present_in_element((By.ID, "fault-answer"), "Added"))
        check(len(admin("GET", "/api/v1/faults")) == 1, "the rule is added")
        status, body = curl_push(token, {"aps": {"alert": "fails"}})
        check(status == 429 and json.loads(body)["reason"] == "TooManyRequests", f"the next push fails with the fault's reason ({status} {body})")

        providers(driver, wait, admin, ADMIN, SHOTS)
        summary(driver, wait, admin, curl_push, TOPIC, SHOTS)
        not_processed(driver, wait, admin, ADMIN, HTTP2_PORT, CA, TOPIC, SHOTS)
        search_and_history(driver, wait, admin, curl_push, ADMIN, TOPIC, SHOTS)
        environments(driver, wait, admin, curl_push, ADMIN, TOPIC, SHOTS)

        errors = console_errors(driver)
        check(not errors, f"no console errors: {errors}")
    finally:
        driver.quit()


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # noqa: BLE001 - the failure is the output
        print("FAILED:", repr(error), flush=True)
        sys.exit(1)
