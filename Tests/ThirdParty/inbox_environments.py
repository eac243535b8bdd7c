"""Both environments in the inbox (issue 72), in Chromium: each push's row says the endpoint it
was sent to (a sandbox or production badge), the Environment filter is the search's
environment: field in both directions, the detail names Apple's host, and the Devices view checks
a token as the Push Notifications Console does, saying where it is valid.

Source of the rule the page explains: Apple, "Handling notification responses from APNs"
(400 BadDeviceToken: "Verify … that the token matches the environment").
"""

import os
from urllib.parse import parse_qs, urlparse

from chromium import check
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select


def environments(driver, wait, admin, curl_push, base, topic, shots):
    development = admin("POST", "/api/v1/devices", {"topic": topic})["token"]
    production = admin("POST", "/api/v1/devices", {"topic": topic, "environment": "production"})["token"]
    status, _ = curl_push(development, {"aps": {"alert": {"title": "Debug build", "body": "sandbox"}}})
    check(status == 200, "a development build's token is taken at the sandbox endpoint")
    sent = admin("POST", "/api/v1/push", {"token": production, "topic": topic, "environment": "production",
                                          "payload": {"aps": {"alert": {"title": "TestFlight build", "body": "production"}}}})
    check(sent["status"] == 200, f"a production build's token is taken at the production endpoint: {sent}")
    status, body = curl_push(production, {"aps": {"alert": "wrong endpoint"}})
    check(status == 400 and "BadDeviceToken" in body, f"a production token at the sandbox is 400 BadDeviceToken: {status} {body}")

    driver.get(base + f"/?q=environment:production topic:{topic}")
    wait.until(lambda d: d.find_element(By.ID, "inbox-total").text == "1 match")
    rows = driver.find_elements(By.CSS_SELECTOR, "#inbox tbody tr[data-testid=inbox-row]")
    tags = [t.text for t in driver.find_elements(By.CSS_SELECTOR, "#inbox tbody [data-testid=inbox-environment-tag]")]
    check(tags == ["production"], f"environment:production finds the one push sent to production, badged so: {tags}")
    widget = Select(driver.find_element(By.NAME, "environment"))
    check(widget.first_selected_option.get_attribute("value") == "production", "the Environment filter shows the search's field")
    rows[0].click()
    wait.until(lambda d: d.find_element(By.ID, "detail").is_displayed())
    detail = driver.find_element(By.ID, "detail").text
    check("production (api.push.apple.com)" in detail, "the detail names the endpoint by Apple's host")
    driver.save_screenshot(os.path.join(shots, "environments-1400.png"))

    widget.select_by_value("development")
    wait.until(lambda d: "environment:development" in parse_qs(urlparse(d.current_url).query).get("q", [""])[0])
    wait.until(lambda d: d.find_elements(By.XPATH, '//table[@id="inbox"]//tr[.//td[contains(., "BadDeviceToken")]]'))
    refused = driver.find_element(By.XPATH, '//table[@id="inbox"]//tr[.//td[contains(., "BadDeviceToken")]]')
    check("sandbox" in refused.text and "production build" in refused.text,
          f"choosing sandbox writes environment:development; the refusal is badged sandbox and says why: {refused.text!r}")

    for width in (1400, 390):
        size = driver.get_window_size()
        driver.set_window_size(width, 900)
        try:
            driver.get(base + "/?view=devices")
            box = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-testid=token-check-input]"))
            box.send_keys(production)
            driver.find_element(By.CSS_SELECTOR, "[data-testid=token-check-button]").click()
            verdict = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, "[data-testid=token-check-verdict]"))
            answer = driver.find_element(By.ID, "token-check-answer").text
            check("production build" in verdict.text and "api.push.apple.com" in answer,
                  f"at {width}, the token check says a production build registered it and where to push it: {verdict.text!r}")
            fits = driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
            check(fits, f"at {width}, the check's answer fits the page")
            driver.save_screenshot(os.path.join(shots, f"token-check-{width}.png"))
        finally:
            driver.set_window_size(size["width"], size["height"])
    box = driver.find_element(By.CSS_SELECTOR, "[data-testid=token-check-input]")
    box.clear()
    box.send_keys("ab" * 32)
    driver.find_element(By.CSS_SELECTOR, "[data-testid=token-check-button]").click()
    wait.until(lambda d: d.find_element(By.ID, "token-check-answer").get_attribute("class").endswith("bad"))
    unknown = driver.find_element(By.CSS_SELECTOR, "[data-testid=token-check-verdict]").text
    check("not" in unknown.lower(), f"a token the emulator never issued is said to be unknown: {unknown!r}")
    badges = [t.text for t in driver.find_elements(By.CSS_SELECTOR, "#devices [data-testid=inbox-environment-tag]")]
    check("production" in badges and "sandbox" in badges, f"the device list shows each token's environment: {sorted(set(badges))}")

    # The Send form names its endpoint: a production build's token is taken at production and
    # refused at the sandbox, as the provider's own setting would have it.
    driver.get(base + "/?view=send")
    form = wait.until(lambda d: d.find_element(By.ID, "send-form"))
    for endpoint, expected in (("production", "200"), ("development", "400 BadDeviceToken")):
        token_box = form.find_element(By.NAME, "token")
        token_box.clear()
        token_box.send_keys(production)
        topic_box = form.find_element(By.NAME, "topic")
        topic_box.clear()
        topic_box.send_keys(topic)
        Select(form.find_element(By.NAME, "environment")).select_by_value(endpoint)
        driver.execute_script("document.getElementById('send-answer').textContent = ''")
        form.find_element(By.CSS_SELECTOR, 'button[type="submit"]').click()
        wait.until(lambda d: d.find_element(By.ID, "send-answer").text)
        said = driver.find_element(By.ID, "send-answer").text
        check(said.startswith(expected), f"Send to the {endpoint} endpoint: {said!r}")
