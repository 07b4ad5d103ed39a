#!/usr/bin/env python3
"""Screenshots of `cardlua play` mid-drag for the docs, with headless Chromium through
selenium, as Tests/browser/play_test.py drives it.

    /usr/bin/python3 Tests/browser/screenshots.py [--cardlua PATH] [--out DOCS] [--only NAME]

Writes, under DOCS (default docs/): play.png (docs/play.md's first picture: the cover
flow at 1280 × 800 with its params in groups, the tilt moved off its declared value so
its reset shows, A and B stored, B on the stage), and images/play-lol.png,
images/play-coverflow.png, images/play-paging-stack-reverse.png, images/play-cards.png
(lol.lua with --cards examples/cards) and images/play-phone.png (the cover flow with the
cards and --lan, opened at its LAN URL — 127.0.0.2 standing in — in a 390-point-wide
mobile viewport), at 820 × 760 but the first: each page opened, a finger put down and
moved part of a card, the picture taken while it is still down. Look at them before
committing; ImageMagick's `convert X.png -colors 256 PNG8:X.png` keeps them small if
needed.
"""
import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from play_test import ROOT, Play  # noqa: E402

# The panel of play.png: B is the declared values with the tilt at 0.7 (its reset shows),
# A the declared ones; B on the stage.
AB_JS = """
  var done = arguments[arguments.length - 1];
  document.getElementById('storea').click();
  window.cardlua.setParam('tilt', 0.7);
  (function wait() {
    var s = window.cardlua.state(), tilt = (s.params || []).filter(function (p) { return p.name === 'tilt'; })[0];
    if (tilt && tilt.value === 0.7 && s.settled) { document.getElementById('storeb').click(); setTimeout(function () { done(1); }, 300); }
    else { setTimeout(wait, 30); }
  })();
"""

CARDS = os.path.join(ROOT, "examples", "cards")
# (file under --out, script, options, drag distance (view points), window size, setup script)
SHOTS = [
    ("play.png", "scripts/effects/icarousel-coverflow.lua", [], 90, (1280, 800), AB_JS),
    ("images/play-lol.png", "scripts/lol.lua", [], 60, (820, 760), None),
    ("images/play-coverflow.png", "scripts/effects/icarousel-coverflow.lua", [], 90, (820, 760), None),
    ("images/play-paging-stack-reverse.png", "scripts/effects/paging-stack-reverse.lua", [], 120, (820, 760), None),
    ("images/play-cards.png", "scripts/lol.lua", ["--cards", CARDS], 230, (820, 760), None),
    ("images/play-phone.png", "scripts/effects/icarousel-coverflow.lua",
     ["--cards", CARDS, "--lan", "--lan-address", "127.0.0.2"], 60, None, None),
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
    parser.add_argument("--out", default=os.path.join(ROOT, "docs"))
    parser.add_argument("--only", help="only the shots whose file name contains this")
    args = parser.parse_args()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else shutil.which("chromedriver")
    tmp = tempfile.mkdtemp(prefix="cardlua-shots-")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
              "--disable-dev-shm-usage", "--user-data-dir=" + os.path.join(tmp, "profile")]:
        options.add_argument(a)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_script_timeout(30)
    try:
        for name, script, extra, distance, size, setup in SHOTS:
            if args.only and args.only not in name:
                continue
            copy = os.path.join(tmp, os.path.basename(script))
            shutil.copyfile(os.path.join(ROOT, script), copy)
            play = Play(args.cardlua, copy, extra)
            phone = "--lan" in extra
            # The page's own size exactly (the window's frame aside): a phone's, or the shot's.
            width, height, mobile = (390, 700, True) if phone else size + (False,)
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
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
                if setup:
                    driver.execute_async_script(setup)
                driver.execute_async_script(HOLD_JS, distance)
                path = os.path.join(args.out, name)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                driver.save_screenshot(path)
                print("wrote %s (%d bytes)" % (path, os.path.getsize(path)))
            finally:
                play.stop()
                driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    finally:
        driver.quit()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
