#!/usr/bin/env python3
"""Screenshots of `cardlua play` mid-drag for the docs (docs/images/), with headless
Chromium through selenium, as Tests/browser/play_test.py drives it.

    /usr/bin/python3 Tests/browser/screenshots.py [--cardlua PATH] [--out DIR]

Writes play-lol.png, play-coverflow.png, play-paging-stack-reverse.png, play-cards.png
(lol.lua with --cards examples/cards) and play-phone.png (the cover flow with the cards
and --lan, opened at its LAN URL — 127.0.0.2 standing in — in a 390-point-wide mobile
viewport): each page opened, a finger put down and moved
part of a card, the picture taken while it is still down. Look at them before committing;
ImageMagick's `convert X.png -colors 256 PNG8:X.png` keeps them small if needed.
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from play_test import ROOT, Play  # noqa: E402

SHOTS = [
    ("play-lol.png", "scripts/lol.lua", [], 60),
    ("play-coverflow.png", "scripts/effects/icarousel-coverflow.lua", [], 90),
    ("play-paging-stack-reverse.png", "scripts/effects/paging-stack-reverse.lua", [], 120),
    ("play-cards.png", "scripts/lol.lua", ["--cards", os.path.join(ROOT, "examples", "cards")], 230),
    ("play-phone.png", "scripts/effects/icarousel-coverflow.lua",
     ["--cards", os.path.join(ROOT, "examples", "cards"), "--lan", "--lan-address", "127.0.0.2"], 60),
]

# Put a finger down in the middle of the stage and move it `distance` view points left
# in 12 steps, 16 ms apart, leaving it down.
HOLD_JS = """
  var distance = arguments[0], done = arguments[arguments.length - 1];
  var st = window.cardlua.stage, s = window.cardlua.state(), r = st.getBoundingClientRect(), k = r.width / s.viewport[0];
  var x = r.left + r.width / 2, y = r.top + r.height / 2, i = 0, h = s.horizontal;
  function ev(type) { st.dispatchEvent(new PointerEvent(type, { pointerId: 3, bubbles: true, clientX: x, clientY: y, pointerType: 'touch' })); }
  ev('pointerdown');
  function step() {
    if (i++ < 12) { if (h) { x -= distance / 12 * k; } else { y -= distance / 12 * k; } ev('pointermove'); setTimeout(step, 16); }
    else { setTimeout(function () { done(1); }, 400); }
  }
  setTimeout(step, 16);
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cardlua", default=os.path.join(ROOT, ".build", "debug", "cardlua"))
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "images"))
    args = parser.parse_args()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else shutil.which("chromedriver")
    tmp = tempfile.mkdtemp(prefix="cardlua-shots-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=820,760", "--hide-scrollbars",
              "--disable-dev-shm-usage", "--user-data-dir=" + os.path.join(tmp, "profile")]:
        options.add_argument(a)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_script_timeout(30)
    os.makedirs(args.out, exist_ok=True)
    try:
        for name, script, extra, distance in SHOTS:
            copy = os.path.join(tmp, os.path.basename(script))
            shutil.copyfile(os.path.join(ROOT, script), copy)
            play = Play(args.cardlua, copy, extra)
            phone = "--lan" in extra
            if phone:
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                       {"width": 390, "height": 700, "deviceScaleFactor": 1, "mobile": True})
            try:
                driver.get(play.lan_url if phone else play.url)
                end = time.time() + 15
                while time.time() < end:
                    s = driver.execute_script("return window.cardlua && window.cardlua.state()")
                    pics = driver.execute_script("return document.querySelectorAll('.card .pic').length")
                    if s and s["settled"] and (pics or not extra):
                        break
                    time.sleep(0.05)
                time.sleep(0.5)  # the images decoded, the panel's frame rate settled
                driver.execute_async_script(HOLD_JS, distance)
                path = os.path.join(args.out, name)
                driver.save_screenshot(path)
                print("wrote %s (%d bytes)" % (path, os.path.getsize(path)))
            finally:
                play.stop()
                if phone:
                    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    finally:
        driver.quit()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
