"""The phone view's interruption levels, Focus and provisional authorization, in the browser.

Sources: Apple, "UNNotificationInterruptionLevel" (passive is added to Notification Center
without lighting the screen or playing a sound; critical breaks through); Apple Support, "Use a
Focus on your iPhone" (apps a Focus does not allow are silenced; Time Sensitive notifications
break through); "Asking permission to use notifications" (provisional: delivered quietly, with
Keep and Turn Off); UNNotificationServiceExtension (an alert with mutable-content is shown as the
app's extension changed it).
"""

import os

from chromium import check
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select


def open_phone(driver, token):
    """The phone view of the device holding `token` (a token the admin API issued is a device of
    its own)."""
    driver.get(driver.current_url.split("?")[0].split("#")[0] + f"?view=phone&device={token}")


def levels(driver, wait, admin, curl_push, topic, shots):
    """A device in a Focus: an active push is held quietly, a time-sensitive one breaks through, a
    passive one is quiet; another app authorized provisionally is quiet too. Screenshots at 1400
    and 390 points wide."""
    token = admin("POST", "/api/v1/devices", {"topic": topic})["token"]
    admin("PUT", f"/api/v1/devices/{token}/app", {
        "entitlements": ["time-sensitive"],
        "authorization": {"status": "authorized", "alert": True, "sound": True, "badge": True, "criticalAlert": True},
    })
    focus = admin("PUT", f"/api/v1/devices/token:{token}/focus", {"active": "Work", "timeSensitive": True})
    check(focus["active"] == "Work" and focus["apps"] == 1, f"the device is in the Work Focus: {focus}")
    for payload in (
        {"aps": {"alert": {"title": "Sale", "body": "20% off"}, "sound": "default"}},
        {"aps": {"alert": {"title": "Driver here", "body": "Blue car"}, "interruption-level": "time-sensitive"}},
        {"aps": {"alert": {"title": "Weekly digest", "body": "5 stories"}, "interruption-level": "passive"}},
    ):
        status, body = curl_push(token, payload)
        check(status == 200, f"the push is accepted ({status} {body})")
    open_phone(driver, token)
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#phone-screen .bubble .level")) >= 3)
    shown = {b.find_element(By.CSS_SELECTOR, ".title").text: b for b in driver.find_elements(By.CSS_SELECTOR, "#phone-screen .bubble")}

    def level(title):
        return shown[title].find_element(By.CSS_SELECTOR, ".level").text.lower()

    check("time sensitive" in level("Driver here") and "broke through focus" in level("Driver here"),
          f"the time-sensitive alert breaks through the Focus: {level('Driver here')!r}")
    check("delivered quietly" in level("Sale") and "held by focus" in level("Sale") and "quiet" in shown["Sale"].get_attribute("class"),
          f"the active one is held quietly by the Focus: {level('Sale')!r}")
    check("delivered quietly" in level("Weekly digest") and "passive" in level("Weekly digest"),
          f"the passive one is delivered quietly: {level('Weekly digest')!r}")
    driver.save_screenshot(os.path.join(shots, "phone-levels.png"))
    quiet_in_the_inbox(driver, wait, token, shots)
    phone_notes_in_the_inbox(driver, wait, token, curl_push)
    open_phone(driver, token)
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#phone-screen .bubble .level")) >= 3)
    # The settings form shows the user's switches and saving it keeps them.
    form = driver.find_element(By.ID, "app-form")
    check(form.find_element(By.NAME, "criticalAlert").is_selected() and form.find_element(By.NAME, "timeSensitive").is_selected(),
          "the form shows Critical alerts and Time Sensitive allowed")
    form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
    wait.until(lambda d: "Saved" in d.find_element(By.ID, "app-answer").text)
    check(form.find_element(By.NAME, "directMessages").is_selected(), "the form shows Direct Messages on, as iOS starts it")
    kept = admin("GET", f"/api/v1/devices/{token}/app")["authorization"]
    check(kept["criticalAlert"] and kept["timeSensitive"] and kept["directMessages"], f"saving the form keeps the user's switches: {kept}")
    size = driver.get_window_size()
    driver.set_window_size(390, 844)
    wide = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    check(wide[0] <= wide[1], f"the phone view fits a 390-point screen (page {wide[0]}, viewport {wide[1]})")
    driver.save_screenshot(os.path.join(shots, "phone-levels-390.png"))
    driver.set_window_size(size["width"], size["height"])

    # Provisional: granted without a prompt, each alert quiet, with Keep or Turn Off to choose.
    trial = admin("POST", "/api/v1/devices", {"topic": topic})["token"]
    admin("PUT", f"/api/v1/devices/{trial}/app", {"authorization": {"status": "provisional", "alert": True, "sound": True}})
    status, _ = curl_push(trial, {"aps": {"alert": {"title": "Try us", "body": "Quietly"}, "sound": "default"}})
    check(status == 200, "the provisional app's push is accepted")
    open_phone(driver, trial)
    bubble = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#phone-screen .bubble .level"))
    check("provisional" in bubble.text.lower() and "keep or turn off" in bubble.text.lower(),
          f"the provisional alert is quiet, with Keep or Turn Off: {bubble.text!r}")
    driver.find_element(By.ID, "phone-screen").screenshot(os.path.join(shots, "phone-provisional.png"))
    keep = driver.find_element(By.CSS_SELECTOR, '#phone-screen [data-testid="provisional-choice"] [data-action="keep"]')
    check(driver.find_elements(By.CSS_SELECTOR, '#phone-screen [data-testid="provisional-choice"] [data-action="turn-off"]'),
          "the provisional alert offers Turn Off beside Keep")
    keep.click()
    wait.until(lambda d: admin("GET", f"/api/v1/devices/{trial}/app")["authorization"]["status"] == "authorized")


def quiet_in_the_inbox(driver, wait, token, shots):
    """The inbox says what held a quiet delivery and what broke through, in the row, the Summary
    and the Timeline, and "On the phone" = shown quietly finds the quiet ones (issue 70)."""
    driver.get(driver.current_url.split("?")[0].split("#")[0] + f"?view=inbox&token={token}")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#inbox tbody tr")) == 3)
    Select(driver.find_element(By.NAME, "outcome")).select_by_visible_text("shown quietly")
    wait.until(lambda d: "outcome:quiet" in d.find_element(By.NAME, "q").get_attribute("value"))
    wait.until(lambda d: sorted(c.text.split(":")[0] for c in d.find_elements(By.CSS_SELECTOR, "#inbox tbody td.summary"))
               == ["Sale", "Weekly digest"])
    rows = {r.find_element(By.CSS_SELECTOR, "td.summary").text.split(":")[0]: r for r in driver.find_elements(By.CSS_SELECTOR, "#inbox tbody tr")}
    check("delivered quietly (a Focus held it)" in rows["Sale"].text, f"the row says a Focus held it: {rows['Sale'].text!r}")
    check("delivered quietly (interruption-level passive)" in rows["Weekly digest"].text,
          f"the passive row says why it is quiet: {rows['Weekly digest'].text!r}")
    rows["Sale"].click()
    outcome = wait.until(lambda d: d.find_element(By.ID, "detail-outcome"))
    check("delivered quietly (a Focus held it)" in outcome.text, f"the Summary says a Focus held it: {outcome.text!r}")
    cut = driver.execute_script(
        "return Array.from(document.querySelectorAll('#inbox tbody .outcome')).filter(o => o.scrollWidth > o.clientWidth + 1).length")
    check(cut == 0, f"with the detail open each row's status is whole, as at 390 ({cut} cut)")
    driver.find_element(By.ID, "tab-timeline").click()
    wait.until(lambda d: "Phone Decision" in d.find_element(By.ID, "detail-delivery-log").text)
    log = driver.find_element(By.ID, "detail-delivery-log").text
    check("delivered quietly to Notification Center (a Focus held it)" in log, f"the Timeline says a Focus held it: {log!r}")
    driver.save_screenshot(os.path.join(shots, "inbox-quiet.png"))
    Select(driver.find_element(By.NAME, "outcome")).select_by_visible_text("shown")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#inbox tbody tr")) == 3)
    through = driver.find_element(By.XPATH, '//table[@id="inbox"]//tr[.//td[contains(., "Driver here")]]')
    check("through a Focus" in through.text, f"the time-sensitive row says it broke through: {through.text!r}")
    through.click()
    driver.find_element(By.ID, "tab-timeline").click()
    wait.until(lambda d: "breaking through a Focus" in d.find_element(By.ID, "detail-delivery-log").text)
    check(True, "the Timeline says the time-sensitive one broke through the Focus")


def phone_notes_in_the_inbox(driver, wait, token, curl_push):
    """What the phone noted beside its decision is in the Summary too, not only on the phone's card:
    a critical alert from an app without Apple's critical-alerts entitlement is presented as active
    (Apple, "UNNotificationInterruptionLevel.critical": it needs the entitlement)."""
    status, body = curl_push(token, {"aps": {"alert": {"title": "Alarm", "body": "Pipe burst"}, "interruption-level": "critical"}})
    check(status == 200, f"the critical push is accepted ({status} {body})")
    driver.get(driver.current_url.split("?")[0].split("#")[0] + f"?view=inbox&q=token:{token}%20Alarm")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#inbox tbody tr")) == 1)
    driver.find_element(By.CSS_SELECTOR, "#inbox tbody tr").click()
    notes = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '[data-testid="detail-phone-notes"]'))
    check("critical needs" in notes.text and "presented as active" in notes.text, f"the Summary shows the phone's note: {notes.text!r}")


def service_extension(driver, wait, admin, curl_push, topic, shots):
    """An app whose service extension (a command) decrypts the alert: the phone shows the
    extension's text with the original beside it; one whose extension crashes shows the original
    and says so."""
    token = admin("POST", "/api/v1/devices", {"topic": topic})["token"]
    admin("PUT", f"/api/v1/devices/{token}/app", {
        "authorization": {"status": "authorized", "alert": True, "sound": True, "badge": True},
        "serviceExtension": {"command": "cat > /dev/null; printf '%s' '{\"title\": \"Minh\", \"body\": \"See you at 7\"}'"},
    })
    status, body = curl_push(token, {"aps": {"alert": {"title": "New message", "body": "(encrypted)"}, "mutable-content": 1}})
    check(status == 200, f"the push is accepted ({status} {body})")
    open_phone(driver, token)
    bubble = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '#phone-screen .bubble [data-testid="phone-extension"]'))
    card = bubble.find_element(By.XPATH, "./ancestor::article")
    check(card.find_element(By.CSS_SELECTOR, ".body").text == "See you at 7", f"the extension's text is shown: {card.text!r}")
    check("changed by the service extension" in bubble.text.lower() and "(encrypted)" in bubble.text,
          f"the extension's outcome and the original are shown: {bubble.text!r}")
    driver.find_element(By.ID, "phone-screen").screenshot(os.path.join(shots, "phone-extension.png"))
    admin("PUT", f"/api/v1/devices/{token}/app", {"serviceExtension": {"command": "kill -SEGV $$"}})
    status, _ = curl_push(token, {"aps": {"alert": {"title": "Second", "body": "(encrypted too)"}, "mutable-content": 1}})
    check(status == 200, "the second push is accepted")
    failed = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '#phone-screen .extension.failed'))
    check("signal 11" in failed.text and "original is shown" in failed.text.lower(), f"the crash is named: {failed.text!r}")
    # A communication notification (the app has the capability): its sender above the message.
    admin("PUT", f"/api/v1/devices/{token}/app", {
        "entitlements": ["communication-notifications"],
        "serviceExtension": {"command": "cat > /dev/null; printf '%s' '{\"body\": \"Dinner at 8?\", \"communication\": {\"sender\": {\"displayName\": \"Ana\", \"handle\": \"ana@example.com\"}, \"groupName\": \"Family\"}}'"},
    })
    status, _ = curl_push(token, {"aps": {"alert": {"title": "Family", "body": "(encrypted)"}, "mutable-content": 1}})
    check(status == 200, "the third push is accepted")
    sender = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '#phone-screen [data-testid="phone-sender"]'))
    check("Ana" in sender.text and "Family" in sender.text, f"the sender and the group are shown: {sender.text!r}")
    driver.find_element(By.ID, "phone-screen").screenshot(os.path.join(shots, "phone-communication.png"))



def summary(driver, wait, admin, curl_push, topic, shots):
    """An app in the Scheduled Summary: its alerts are dimmed, held for the summary's time; when
    the emulator's clock reaches it, the cards say they were presented in the summary and are no
    longer dimmed. Moves the clock forward: run it last. Sources: Apple Support, "Schedule a
    notification summary on iPhone"; UNNotificationContent.relevanceScore."""
    token = admin("POST", "/api/v1/devices", {"topic": topic})["token"]
    admin("PUT", f"/api/v1/devices/{token}/app", {
        "authorization": {"status": "authorized", "alert": True, "sound": True, "scheduledDelivery": True},
        "summaryTimes": ["08:00", "18:00"], "timeZone": "UTC",
    })
    for title, score in (("Morning news", 0.3), ("Match report", 0.9)):
        status, body = curl_push(token, {"aps": {"alert": {"title": title, "body": "Read more"}, "relevance-score": score}})
        check(status == 200, f"the push is accepted ({status} {body})")
    open_phone(driver, token)
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#phone-screen .bubble .level")) >= 2)
    held = [b for b in driver.find_elements(By.CSS_SELECTOR, "#phone-screen .bubble")]
    check(all("held for the scheduled summary at" in b.find_element(By.CSS_SELECTOR, ".level").text.lower()
              and "quiet" in b.get_attribute("class") for b in held),
          f"each card is dimmed and waits for the summary: {[b.text for b in held]}")
    waiting = admin("GET", f"/api/v1/devices/{token}/delivered")["summaries"]
    check(len(waiting) == 1 and not waiting[0]["presented"], f"one summary waits: {waiting}")
    admin("POST", "/api/v1/clock", {"set": waiting[0]["at"]})
    wait.until(lambda d: all("in the scheduled summary of" in b.find_element(By.CSS_SELECTOR, ".level").text.lower()
                             for b in d.find_elements(By.CSS_SELECTOR, "#phone-screen .bubble")))
    cards = driver.find_elements(By.CSS_SELECTOR, "#phone-screen .bubble")
    check(len(cards) == 2 and not any("quiet" in c.get_attribute("class") for c in cards),
          f"at its time the summary is presented, its cards no longer dimmed: {[c.text for c in cards]}")
    check(admin("GET", f"/api/v1/devices/{token}/delivered")["summaries"][0]["presented"], "the summary reads presented")
    driver.find_element(By.ID, "phone-screen").screenshot(os.path.join(shots, "phone-summary.png"))


def badge_only(driver, wait, admin, curl_push, topic, shots):
    """A push with only a badge (issue 69): not silent, nothing shown, the app's icon set. Apple,
    "Generating a remote notification": `badge` "The number to display in a badge on your app's
    icon"; "Sending notification requests to APNs": an alert push is one that triggers "an alert,
    badge, or sound"."""
    token = admin("POST", "/api/v1/devices", {"topic": topic})["token"]
    admin("PUT", f"/api/v1/devices/{token}/app", {"authorization": {"status": "authorized", "alert": True, "badge": True}})
    status, _ = curl_push(token, {"aps": {"badge": 5}})
    check(status == 200, "the badge-only push is accepted")
    open_phone(driver, token)
    badge = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '#phone-screen [data-testid="app-badge"]'))
    check(badge.text == "5", f"the app's icon shows the badge: {badge.text!r}")
    bubble = driver.find_element(By.CSS_SELECTOR, "#phone-screen .bubble")
    check("Badge set to 5" in bubble.text and "Silent" not in bubble.text, f"the phone says what it did: {bubble.text!r}")
    driver.save_screenshot(os.path.join(shots, "phone-badge.png"))
    driver.get(driver.current_url.split("?")[0].split("#")[0] + f"?view=inbox&token={token}")
    row = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#inbox tbody tr"))
    check("badge 5" in row.text and "silent" not in row.text, f"the inbox row says badge, not silent: {row.text!r}")
