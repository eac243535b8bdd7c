"""The README's picture of the web inbox, taken as a person sees it after the tour (.ci/tour.sh).

Usage: tour_picture.py ADMIN_URL PICTURE

Opens the inbox in headless Chromium at 1400 pixels, waits until the tour's three pushes are in its
rows (the delivered one tapped, the refused one with its reason), checks the page logged no error,
and saves the picture. Exits non-zero, saying what it waited for, when they do not appear.
"""

import sys

from chromium import browser, check, console_errors
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ADMIN, PICTURE = sys.argv[1], sys.argv[2]

driver = browser("--window-size=1400,560")
try:
    driver.get(ADMIN + "/")
    wait = WebDriverWait(driver, 30)

    def rows(d):
        return [row.text for row in d.find_elements(By.CSS_SELECTOR, "#inbox tbody tr")]

    wait.until(lambda d: len(rows(d)) >= 3)
    text = "\n".join(rows(driver))
    check("Order shipped" in text and "BadPriority" in text, "the inbox lists the tour's pushes, the refusal with its reason")
    check(not console_errors(driver), "the page logged no error")
    driver.save_screenshot(PICTURE)
    print("saved", PICTURE)
finally:
    driver.quit()
