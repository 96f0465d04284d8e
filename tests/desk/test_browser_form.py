"""A form-only decision driven in a real headless Chromium: a Heartland bid, from opening the
page to a saved commitment that `hxref submit` accepts, with a wrong value refused live first."""
from __future__ import annotations

import time
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from tests.desk.conftest import shoot


def _problems(driver) -> list[str]:
    return [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#problems li.problem")]


def test_a_bid_in_the_browser_refused_live_then_saved_and_submitted(bid_desk, browser, cli):
    wait = WebDriverWait(browser, 15, poll_frequency=0.05)
    started = time.monotonic()
    browser.get(bid_desk.desk.url)
    bid = wait.until(EC.element_to_be_clickable((By.ID, "f-bid")))
    assert browser.find_element(By.ID, "board").get_attribute("hidden") is not None    # no map list: the form only
    assert "t1.bid" in browser.find_element(By.ID, "who").text
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#problems li.ok"))   # the template's bid passes
    bid.clear()
    bid.send_keys("9")
    wait.until(lambda d: any("above this side's maximum" in t for t in _problems(d)))
    line = _problems(browser)[0]
    assert "[rule 5.1]" in line and "E400" in line and "choice.bid" in line
    assert browser.find_element(By.ID, "save").get_attribute("disabled") is not None
    assert "bad" in bid.get_attribute("class")
    shoot(browser, "bid-refused", 1200)
    shoot(browser, "bid-refused", 400)
    bid.clear()
    bid.send_keys("3")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#problems li.ok"))
    browser.find_element(By.ID, "save").click()
    name = wait.until(EC.presence_of_element_located((By.ID, "saved-name")))
    elapsed = time.monotonic() - started
    print(f"\nform-only decision (a Heartland bid): {elapsed:.2f} s from opening the page to the saved file")
    assert name.text == "union-t1.bid-commit.yaml and union-t1.bid-reveal.yaml"
    assert "hxref submit g.yaml union-t1.bid-commit.yaml" in browser.find_element(By.ID, "saved").text
    shoot(browser, "bid-saved", 1200)
    shoot(browser, "bid-saved", 400)
    assert Path("union-t1.bid-reveal.yaml").is_file()
    cli("submit", "g.yaml", "union-t1.bid-commit.yaml")
    browser.find_element(By.ID, "done").click()
    wait.until(EC.presence_of_element_located((By.ID, "closed")))
