"""The inbox's search and its place in a person's hands (issue 70), in Chromium: the box reads as
a mail client's search (Mailpit's grammar: words AND-ed, "phrases", -exclusions, field:value),
the widgets are fields of it in both directions, and each change is a history entry that Back
and Forward walk; Esc closes the detail; a 390-point phone's Back returns to the list.
"""

import os
from urllib.parse import parse_qs, urlparse

from chromium import check
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select


def summaries(driver):
    return [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#inbox tbody td.summary")]


def query(driver):
    return parse_qs(urlparse(driver.current_url).query)


def search_and_history(driver, wait, admin, curl_push, base, topic, shots):
    token = admin("POST", "/api/v1/devices", {"topic": topic})["token"]
    for title in ("Alice lunch qz", "Alice dinner qz", "Bob lunch qz"):
        status, _ = curl_push(token, {"aps": {"alert": {"title": title, "body": "search"}}})
        check(status == 200, f"{title} accepted")
    driver.get(base + "/?view=send")
    topic_box = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '#send-form input[name="topic"]'))
    check(topic_box.get_attribute("value") == "" and topic_box.get_attribute("placeholder") == "com.example.app",
          "Send's topic suggests com.example.app as a placeholder, not a value typing appends to")
    driver.get(base + "/")
    box = wait.until(lambda d: d.find_element(By.NAME, "q"))
    syntax = driver.find_element(By.ID, "search-syntax").text
    check("-word" in syntax and "status:" in syntax, f"the syntax is shown under the box: {syntax!r}")

    def search(text, typed=True):
        if typed:
            box.send_keys(Keys.CONTROL, "a")
            box.send_keys(Keys.DELETE)
            box.send_keys(text)
        else:
            # One input event for the whole text, as a paste makes: typing on a slow machine can
            # pause longer than the search's 250 ms and leave a history entry for a half-typed
            # query, which a test of Back must not depend on.
            driver.execute_script(
                "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}))", box, text)
        wait.until(lambda d: query(d).get("q", [""])[0] == text)

    search("Alice qz")
    wait.until(lambda d: sorted(s.split(" ·")[0] for s in summaries(d)) == ["Alice dinner qz: search", "Alice lunch qz: search"])
    check(driver.find_element(By.ID, "inbox-total").text == "2 match", "two words are AND-ed, in any order")
    search("Alice -lunch qz")
    wait.until(lambda d: [s.split(" ·")[0] for s in summaries(d)] == ["Alice dinner qz: search"])
    check(True, "-lunch excludes")
    search('"Bob lunch"')
    wait.until(lambda d: [s.split(" ·")[0] for s in summaries(d)] == ["Bob lunch qz: search"])
    check(True, "a quoted phrase is one term")

    # The widgets are fields of the box, both ways.
    Select(driver.find_element(By.NAME, "status")).select_by_visible_text("replaced")
    wait.until(lambda d: "status:replaced" in d.find_element(By.NAME, "q").get_attribute("value"))
    wait.until(lambda d: query(d).get("q", [""])[0] == '"Bob lunch" status:replaced')
    check(True, "choosing Status = replaced writes status:replaced into the box and the address")
    search(f"token:{token[:10]} status:queued", typed=False)
    status = Select(driver.find_element(By.NAME, "status"))
    wait.until(lambda d: status.first_selected_option.text == "queued")
    wait.until(lambda d: [s.split(" ·")[0] for s in summaries(d)] == ["Bob lunch qz: search"])
    check(driver.find_element(By.NAME, "token").get_attribute("value") == token[:10],
          "typing token: and status: sets their widgets; one push of the offline app is stored, the newest")

    # Back and Forward walk the searches, and a notification opened.
    driver.back()
    wait.until(lambda d: d.find_element(By.NAME, "q").get_attribute("value") == '"Bob lunch" status:replaced')
    check(Select(driver.find_element(By.NAME, "status")).first_selected_option.text == "replaced", "Back returns to the search before, widgets too")
    search(f"token:{token}")
    wait.until(lambda d: len(summaries(d)) == 3)
    driver.find_element(By.XPATH, '//table[@id="inbox"]//tr[.//td[contains(., "Alice dinner qz")]]').click()
    wait.until(lambda d: d.find_element(By.ID, "detail").is_displayed() and "notification" in query(d))
    driver.find_element(By.ID, "tab-headers").click()
    wait.until(lambda d: query(d).get("tab") == ["headers"])
    driver.save_screenshot(os.path.join(shots, "search-1400.png"))
    driver.back()
    wait.until(lambda d: not d.find_element(By.ID, "detail").is_displayed() and "notification" not in query(d))
    check(query(driver).get("q") == [f"token:{token}"], "Back closes the detail and keeps the search")
    driver.forward()
    wait.until(lambda d: d.find_element(By.ID, "detail").is_displayed())
    wait.until(lambda d: d.find_element(By.CSS_SELECTOR, '#detail [aria-selected="true"]').text == "Headers")
    # The list is drawn again as the search comes back: its rows are read inside the wait, which
    # retries when a row it found was replaced before its text was read.
    def highlighted(d):
        selected = d.find_elements(By.CSS_SELECTOR, '#inbox tbody tr[aria-selected="true"]')
        return [row.text for row in selected]
    wait.until(lambda d: len(highlighted(d)) == 1 and "Alice dinner qz" in highlighted(d)[0])
    check(True, "Forward opens it again, on its tab, its row highlighted")
    driver.find_element(By.ID, "tab-again").click()
    wait.until(lambda d: d.find_element(By.ID, "detail-send-again").is_displayed())
    check(not driver.find_element(By.ID, "detail-again-answer").is_displayed(), "no empty bar under Send again before anything was sent")
    driver.find_element(By.ID, "tab-headers").click()
    driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    wait.until(lambda d: not d.find_element(By.ID, "detail").is_displayed())
    check("notification" not in query(driver), "Esc closes the detail")

    # A change from a script (or a keyboard's change event, with no input event) filters as typing does.
    driver.execute_script(
        "const t = document.querySelector('#filters [name=topic]'); t.value = 'no.such.topic';"
        " t.dispatchEvent(new Event('change', {bubbles: true}))")
    wait.until(lambda d: "topic:no.such.topic" in query(d).get("q", [""])[0] and not summaries(d))
    driver.execute_script(
        "const t = document.querySelector('#filters [name=topic]'); t.value = '';"
        " t.dispatchEvent(new Event('change', {bubbles: true}))")
    wait.until(lambda d: "topic:" not in query(d).get("q", [""])[0] and len(summaries(d)) == 3)
    check(True, "a change event alone (a script's) filters the list, and clearing it brings the row back")

    # At 390 points: a row opened, Back returns to the list (the site is not left).
    size = driver.get_window_size()
    driver.set_window_size(390, 844)
    try:
        driver.find_element(By.XPATH, '//table[@id="inbox"]//tr[.//td[contains(., "Bob lunch qz")]]').click()
        wait.until(lambda d: d.find_element(By.ID, "detail").is_displayed())
        driver.back()
        wait.until(lambda d: d.find_element(By.ID, "list-pane").is_displayed() and not d.find_element(By.ID, "detail").is_displayed())
        check(urlparse(driver.current_url).netloc == urlparse(base).netloc, "at 390, Back after opening a row returns to the list")
        driver.save_screenshot(os.path.join(shots, "search-390.png"))
    finally:
        driver.set_window_size(size["width"], size["height"])
    newer_rows(driver, wait, admin, curl_push, base, topic)
    wide_rows(driver, wait, admin, curl_push, base, topic, shots)
    narrow(driver, wait, base, shots)


def wide_rows(driver, wait, admin, curl_push, base, topic, shots):
    """At 1400 points a row is whole, as at 390: its status and its warning, with the detail
    closed and open (a warning read aps-unknown-ke… at the pane's edge)."""
    token = admin("POST", "/api/v1/devices", {"topic": topic})["token"]
    status, _ = curl_push(token, {"aps": {"alert": {"title": "Warned row", "body": "a long body to fill the message column of the list " * 3}, "badgee": 1}})
    check(status == 200, "the push with an unknown aps key is accepted")
    size = driver.get_window_size()
    driver.set_window_size(1400, 900)
    try:
        driver.get(base + f"/?q=token:{token}")
        tag = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "#inbox tbody .tag.warn"))
        whole = driver.execute_script(
            "const t = arguments[0], r = t.getBoundingClientRect(), p = document.getElementById('list-pane').getBoundingClientRect();"
            "return [t.textContent, r.right <= p.right + 0.5, t.scrollWidth <= t.clientWidth + 1, p.width]", tag)
        check(whole[0] == "aps-unknown-key" and whole[1] and whole[2], f"the warning is whole and in sight at 1400: {whole}")
        driver.find_element(By.CSS_SELECTOR, "#inbox tbody tr").click()
        wait.until(lambda d: d.find_element(By.ID, "detail").is_displayed())
        cut = driver.execute_script(
            "return Array.from(document.querySelectorAll('#inbox tbody .outcome')).filter(o => o.scrollWidth > o.clientWidth + 1"
            " || o.getBoundingClientRect().right > document.getElementById('list-pane').getBoundingClientRect().right + 0.5).length")
        check(cut == 0, f"with the detail open every row's status is whole ({cut} cut)")
        driver.save_screenshot(os.path.join(shots, "inbox-warned-1400.png"))
    finally:
        driver.set_window_size(size["width"], size["height"])


def newer_rows(driver, wait, admin, curl_push, base, topic):
    """With the list scrolled, a burst of 7 accepted and 3 refused pushes reads "10 newer": every
    new row matching the search is counted, and the line is where the reader is."""
    token = admin("POST", "/api/v1/devices", {"topic": topic})["token"]
    for n in range(60):
        curl_push(token, {"aps": {"alert": f"filler {n}"}})
    driver.get(base + f"/?q=token:{token}")
    wait.until(lambda d: d.find_element(By.ID, "inbox-total").text == "60 match")
    driver.execute_script("document.getElementById('list-pane').scrollTop = 600")
    wait.until(lambda d: d.execute_script("return document.getElementById('list-pane').scrollTop") > 100)
    for n in range(7):
        curl_push(token, {"aps": {"alert": f"new {n}"}})
    for n in range(3):
        status, _ = curl_push(token, {"aps": {"alert": "refused"}}, ("-H", "apns-priority: 7"))
        check(status == 400, "a refused push")
    banner = driver.find_element(By.ID, "inbox-newer")
    wait.until(lambda d: banner.is_displayed() and banner.text == "10 newer — show")
    inside = driver.execute_script(
        "const b = arguments[0].getBoundingClientRect(), p = document.getElementById('list-pane').getBoundingClientRect();"
        "return b.top >= p.top && b.bottom <= p.bottom && b.bottom <= window.innerHeight", banner)
    check(inside, "10 newer (7 accepted, 3 refused), counted whole, the line in sight of the scrolled list")
    banner.click()
    wait.until(lambda d: d.find_element(By.ID, "inbox-total").text == "70 match")
    check(not banner.is_displayed(), "show brings them in")


def narrow(driver, wait, base, shots):
    """At 390 points every view is one tap away and fits, the filters leave the list most of the
    first screen, and each row's status is whole."""
    size = driver.get_window_size()
    driver.set_window_size(390, 844)
    try:
        for view in ("providers", "devices", "clock"):
            driver.get(base + f"/?view={view}")
            current = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, 'nav button[aria-current="page"]'))
            fits = driver.execute_script(
                "const r = arguments[0].getBoundingClientRect();"
                "return [document.documentElement.scrollWidth, window.innerWidth, r.left >= 0 && r.right <= window.innerWidth]", current)
            check(current.get_attribute("data-view") == view and fits[2] and fits[0] <= fits[1],
                  f"/?view={view} at 390: its tab selected and in sight, the page {fits[0]} wide in {fits[1]}")
            if view == "devices":
                groups = wait.until(lambda d: [g.text for g in d.find_elements(By.CSS_SELECTOR, "#devices tr.group")])
                rows = len(driver.find_elements(By.CSS_SELECTOR, '[data-testid="device-row"]'))
                driver.find_element(By.ID, "devices-search").send_keys("no-such-thing")
                wait.until(lambda d: not d.find_elements(By.CSS_SELECTOR, '[data-testid="device-row"]'))
                check(all(g.startswith("Token") for g in groups) and rows > 1,
                      f"Devices groups its {rows} tokens, counted ({groups}), and Find narrows them")
        buttons = driver.execute_script(
            "return Array.from(document.querySelectorAll('nav button')).map(b => { const r = b.getBoundingClientRect();"
            " return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth && r.bottom <= window.innerHeight; })")
        check(all(buttons) and len(buttons) == 8, f"every view is on screen, one tap away: {buttons}")
        driver.get(base + "/")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#inbox tbody tr"))
        bottom = driver.execute_script("return document.getElementById('filters').getBoundingClientRect().bottom")
        check(bottom < 844 / 2, f"the filters end {bottom:.0f} points down, above half the first screen")
        cut = driver.execute_script(
            "return Array.from(document.querySelectorAll('#inbox tbody .outcome')).filter(o => o.scrollWidth > o.clientWidth + 1).length")
        check(cut == 0, f"every row's status is whole ({cut} cut)")
        driver.save_screenshot(os.path.join(shots, "inbox-390.png"))
        driver.find_element(By.ID, "filters-toggle").click()
        wait.until(lambda d: d.find_element(By.NAME, "status").is_displayed())
        driver.save_screenshot(os.path.join(shots, "filters-390.png"))
    finally:
        driver.set_window_size(size["width"], size["height"])
