"""The Providers page: each provider's report card in the browser.

Source of the rule it shows failing: Apple, "Sending notification requests to APNs" (keep
connections open across notifications; rapid connection and disconnection is treated as a
denial-of-service attack). curl, which the browser test pushes with, opens a connection for
every push: the report card fails it, with the requests as evidence.
"""

import os

from chromium import check
from selenium.webdriver.common.by import By


def providers(driver, wait, admin, base, shots):
    """The card of the provider curl was (anonymous, from 127.0.0.1): every check, connection
    reuse failed with links to its requests, one of which opens the inbox on that request.
    Screenshots at 1400 and 390 points wide."""
    listed = admin("GET", "/api/v1/providers")["items"]
    curl = next((p for p in listed if p["kind"] == "anonymous"), None)
    check(curl is not None and curl["connections"] >= 5, f"curl's pushes made an anonymous provider: {listed}")
    driver.get(base + "/?view=providers")
    card = wait.until(lambda d: d.find_element(By.CSS_SELECTOR, f'#providers [data-provider="{curl["id"]}"]'))
    rows = card.find_elements(By.CSS_SELECTOR, "tbody tr")
    ids = [row.get_attribute("data-check") for row in rows]
    check(len(ids) == 9 and "connection-reuse" in ids and "environment" in ids, f"every check is on the card: {ids}")
    reuse = card.find_element(By.CSS_SELECTOR, 'tr[data-check="connection-reuse"]')
    check("Fail" in reuse.find_element(By.CSS_SELECTOR, ".verdict").text and "carried a single request" in reuse.text,
          f"a connection per push fails connection reuse, saying what was seen: {reuse.text!r}")
    check("Not seen" in card.find_element(By.CSS_SELECTOR, 'tr[data-check="token-reuse"] .verdict').text,
          "token reuse is not seen for a provider without tokens")
    check("denial-of-service" in reuse.find_element(By.CSS_SELECTOR, ".source").text, "the rule's source is shown")
    driver.save_screenshot(os.path.join(shots, "providers.png"))
    size = driver.get_window_size()
    driver.set_window_size(390, 844)
    wide = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    check(wide[0] <= wide[1], f"the Providers page fits a 390-point screen (page {wide[0]}, viewport {wide[1]})")
    driver.save_screenshot(os.path.join(shots, "providers-390.png"))
    driver.set_window_size(size["width"], size["height"])
    link = reuse.find_element(By.CSS_SELECTOR, ".evidence a")
    apns_id = link.get_attribute("href").split("q=")[1]
    link.click()
    # The inbox, searching for that apns-id: the one request, and nothing else.
    wait.until(lambda d: "q=" in d.current_url and not d.find_element(By.ID, "view-inbox").get_attribute("hidden")
               and len(d.find_elements(By.CSS_SELECTOR, "#inbox tbody tr")) == 1)
    check(driver.find_element(By.CSS_SELECTOR, '#filters [name="q"]').get_attribute("value") == apns_id,
          f"the search box holds the request's apns-id {apns_id}")
