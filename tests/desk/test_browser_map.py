"""A Heartland impulse ordered on the map in a real headless Chromium: click a force, its path
and an attack, see an illegal step refused on the map, correct it, save, and `hxref submit`
accepts the file."""
from __future__ import annotations

import time

import yaml
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from tests.desk.conftest import click_hex, shoot


def _problems(driver) -> list[str]:
    return [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#problems li.problem")]


def _accepted(driver) -> bool:
    return bool(driver.find_elements(By.CSS_SELECTOR, "#problems li.ok"))


def test_a_heartland_impulse_on_the_map(impulse_desk, browser, cli, hgame):
    wait = WebDriverWait(browser, 20, poll_frequency=0.05)
    started = time.monotonic()
    browser.get(impulse_desk.desk.url)
    wait.until(EC.presence_of_element_located((By.ID, "the-map")))
    wait.until(_accepted)
    click_hex(browser, "2010")                    # Calloway's force: the hexes it may reach light up
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#desk-layer .desk-reach")) > 10)
    costs = [t.text for t in browser.find_elements(By.CSS_SELECTOR, "#desk-layer .desk-cost")]
    assert "1.5" in costs
    for hex_ in ("1910", "1810", "1710", "1610"):
        click_hex(browser, hex_)
    click_hex(browser, "1413")                    # not next to 1610: refused, on the map, with its rule
    wait.until(lambda d: any("not adjacent" in t for t in _problems(d)))
    line = _problems(browser)[0]
    assert "[rule 8.2]" in line and "choice.moves[0].path[4]" in line and "on the map at 1413" in line
    assert browser.find_elements(By.CSS_SELECTOR, "#desk-layer .desk-problem")
    assert browser.find_element(By.ID, "save").get_attribute("disabled") is not None
    shoot(browser, "impulse-refused", 1200)
    shoot(browser, "impulse-refused", 400)
    browser.find_element(By.ID, "undo-step").click()
    wait.until(_accepted)
    for hex_ in ("1510", "1410", "1310", "1210", "1110"):
        click_hex(browser, hex_)
    browser.find_element(By.ID, "target").click()
    click_hex(browser, "1010")                    # Whitcomb's stack: the attack
    wait.until(lambda d: any("attacks 1010" in li.text for li in d.find_elements(By.CSS_SELECTOR, "#list-moves li")))
    wait.until(_accepted)
    shoot(browser, "impulse-ordered", 1200)
    browser.find_element(By.ID, "save").click()
    name = wait.until(EC.presence_of_element_located((By.ID, "saved-name")))
    elapsed = time.monotonic() - started
    print(f"\nHeartland impulse on the map: {elapsed:.2f} s from opening the page to the saved file")
    assert name.text == "confederate-t1.i1.orders.yaml"
    shoot(browser, "impulse-saved", 1200)
    shoot(browser, "impulse-saved", 400)
    saved = yaml.safe_load(open("confederate-t1.i1.orders.yaml"))
    move = next(m for m in saved["choice"]["moves"] if m["force"] == "calloway")
    assert move["path"] == ["1910", "1810", "1710", "1610", "1510", "1410", "1310", "1210", "1110"]
    assert move["attack"] == "1010"
    cli("submit", hgame, "confederate-t1.i1.orders.yaml")


def test_a_salem_church_player_turn_on_the_map(salem_desk, browser, cli):
    wait = WebDriverWait(browser, 20, poll_frequency=0.05)
    started = time.monotonic()
    browser.get(salem_desk.desk.url)
    wait.until(EC.presence_of_element_located((By.ID, "the-map")))
    wait.until(_accepted)
    click_hex(browser, "0609")                    # Wilcox/M
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#desk-layer .desk-reach")) > 3)
    click_hex(browser, "0608")
    click_hex(browser, "0806")                    # two hexes away: refused (D3)
    wait.until(lambda d: any("[rule D3]" in t for t in _problems(d)))
    assert "on the map at 0806" in _problems(browser)[0]
    shoot(browser, "salem-refused", 1200)
    browser.find_element(By.ID, "undo-step").click()
    wait.until(_accepted)
    click_hex(browser, "0508")
    click_hex(browser, "0508")                    # the last hex again ends the path
    wait.until(lambda d: d.find_element(By.ID, "undo-step").get_attribute("disabled") is not None)
    wait.until(_accepted)
    browser.find_element(By.ID, "save").click()
    name = wait.until(EC.presence_of_element_located((By.ID, "saved-name")))
    print(f"\nSalem Church player turn on the map: {time.monotonic() - started:.2f} s from opening the page "
          "to the saved file")
    assert name.text == "confederate-t1.confederate.yaml"
    shoot(browser, "salem-saved", 1200)
    shoot(browser, "salem-saved", 400)
    saved = yaml.safe_load(open("confederate-t1.confederate.yaml"))
    assert saved["choice"]["moves"] == [{"unit": "wilcox-m", "path": ["0608", "0508"]}]
    cli("submit", "s.yaml", "confederate-t1.confederate.yaml")
