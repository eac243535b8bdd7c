"""The web inbox of one shard of a cluster, in headless Chromium: the header says how many
shards answered (and which did not), and the list holds notifications of every shard that
answered (a shard's unique ids carry it in their last byte, byte mod the number of shards).

usage: inbox_cluster_browser.py ADMIN_URL SHARDS ANSWERED [MISSING]
       (ANSWERED and MISSING: comma-separated shard numbers)

Prints one line per check; exits non-zero, saying why, when the page does not show it in 30 s.
"""
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from chromium import browser, check, console_errors


def shards_listed(driver, count):
    ids = [row.get_attribute("data-id") or "" for row in driver.find_elements(By.CSS_SELECTOR, "#inbox tbody tr")]
    return {int(i[-2:], 16) % count for i in ids if len(i) == 36}


def main(argv):
    url, count = argv[1], int(argv[2])
    answered = [int(s) for s in argv[3].split(",") if s]
    missing = argv[4] if len(argv) > 4 and argv[4] else None
    driver = browser()
    try:
        driver.get(url)
        wait = WebDriverWait(driver, 30)
        expected = f"{len(answered)} of {count} shards" + (f" (shard {missing} not answering)" if missing else "")
        wait.until(lambda d: d.find_element(By.ID, "shards").text == expected)
        check(True, f"the header says {expected!r}")
        wait.until(lambda d: shards_listed(d, count) == set(answered))
        check(True, f"the list holds notifications of shards {answered}, and of no other")
        errors = [e for e in console_errors(driver) if "/api/v1/events" not in e["message"]]
        check(not errors, f"no console errors: {errors}")
    finally:
        driver.quit()


if __name__ == "__main__":
    main(sys.argv)
