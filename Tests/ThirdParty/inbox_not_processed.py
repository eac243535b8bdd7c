"""Not processed is not rejected (issue 69), in the inbox: a request above a GOAWAY's
last-stream-id was never processed (RFC 9113, section 6.8: the client may send it again), so it
has a Status filter value and a badge of its own, apart from the refusals.
"""

import os

from chromium import check
from goaway_burst import burst
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select


def not_processed(driver, wait, admin, base, http2_port, ca, topic, shots):
    """Three pushes on one connection, a goaway rule on the second: the first is accepted, the
    second refused with the GOAWAY, the third not processed; Status = not processed lists only it."""
    tokens = [f"{0x60 + n:02x}" + "d4" * 31 for n in range(3)]
    admin("POST", "/api/v1/faults", {"match": {"token": tokens[1]}, "action": {"type": "goaway"}, "times": 1})
    goaway, answers, _, _ = burst("127.0.0.1", int(http2_port), ca, topic, tokens)
    check(goaway == 1 and answers == {tokens[0]: 200}, f"the GOAWAY names stream 1, answered first: {goaway} {answers}")
    listed = admin("GET", "/api/v1/notifications?status=notProcessed")["items"]
    check([item["token"] for item in listed] == [tokens[2]], f"the journal holds the third as not processed: {listed}")
    driver.get(base + "/?view=inbox&status=notProcessed")
    wait.until(lambda d: tokens[2][:8] in d.find_element(By.CSS_SELECTOR, "#inbox tbody").text)
    status = Select(driver.find_element(By.NAME, "status"))
    check(status.first_selected_option.text == "not processed", f"the URL's filter is the Status chosen: {status.first_selected_option.text!r}")
    rows = driver.find_elements(By.CSS_SELECTOR, "#inbox tbody tr")
    text = driver.find_element(By.CSS_SELECTOR, "#inbox tbody").text
    check(len(rows) == 1 and "not processed" in rows[0].text and tokens[1][:8] not in text,
          f"Status = not processed lists the unprocessed request alone, with its badge: {text!r}")
    badge = rows[0].find_element(By.CSS_SELECTOR, ".status")
    check(badge.text == "not processed", f"its badge reads as words: {badge.text!r}")
    driver.save_screenshot(os.path.join(shots, "not-processed.png"))
