#!/usr/bin/env python3
"""Browser tests of `cardlua gallery` with headless Chromium (selenium + chromedriver).

Writes a gallery of three effects into a temporary folder, opens it and checks that the
tiles play, that each tile draws its current frame as the embedded data says (every card
not flagged, with its matrix3d and opacity), and that the full preview opens on a click,
steps with the arrow keys, closes with Escape and opens from the address's #NAME.

    python3 Tests/browser/gallery_test.py [--cardlua PATH] [--screenshot FILE]

Prints one line per check and `N passed, M failed`; exits 1 on a failure, 77 when
selenium, Chromium or chromedriver is missing (the caller reports a skip).
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NAMES = ["line-layout", "lol", "stacked-deck"]

# The cards a viewer draws (stage k: tile k; "big": the preview), as [index, matrix, opacity],
# and the data's cards of the frame it says it shows, the same way.
DRAWN_JS = """
  var stage = arguments[0] === "big" ? document.querySelector('#big .stage')
                                      : document.querySelectorAll('.tile .stage')[arguments[0]];
  var out = [];
  stage.querySelectorAll('.card').forEach(function (el, k) {
    if (el.style.display !== 'none') { out.push([k, el.style.transform, Number(el.style.opacity)]); }
  });
  return out;
"""
EXPECTED_JS = """
  var G = JSON.parse(document.getElementById('gallery').textContent);
  var f = G[arguments[0]].timeline.frames[arguments[1]], out = [];
  f.c.forEach(function (c) { if (!c[23]) { out.push([c[0], 'matrix3d(' + c.slice(5, 21).join(', ') + ')', c[21]]); } });
  out.sort(function (a, b) { return a[0] - b[0]; });
  return out;
"""



def stop_on_sigterm():
    """SIGTERM (the test command stopping) ends the run through its `finally` blocks,
    which close Chromium and the cardlua server, instead of leaving them behind."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))

def main():
    stop_on_sigterm()
    parser = argparse.ArgumentParser()
    parser.add_argument("--cardlua", default=os.path.join(ROOT, ".build", "debug", "cardlua"))
    parser.add_argument("--screenshot", help="save a screenshot of the open preview there")
    args = parser.parse_args()
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.keys import Keys
    except ImportError:
        print("gallery_test: python3-selenium missing: skipped")
        return 77
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else shutil.which("chromedriver")
    if not chromium or not driver_path:
        print("gallery_test: chromium or chromedriver missing: skipped")
        return 77

    results = []

    def check(name, ok, detail=""):
        results.append(ok)
        print(("ok   " if ok else "FAIL ") + name + ("" if ok and not detail else " — " + detail))

    tmp = tempfile.mkdtemp(prefix="cardlua-gallery-")
    page = os.path.join(tmp, "gallery.html")
    made = subprocess.run([args.cardlua, "gallery", "--only", ",".join(NAMES), "-o", page],
                          capture_output=True, text=True, timeout=120)
    check("cardlua gallery writes the page", made.returncode == 0 and os.path.exists(page), made.stderr)
    if made.returncode != 0:
        print("0 passed, 1 failed")
        return 1

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,2400",
              "--disable-dev-shm-usage", "--user-data-dir=" + os.path.join(tmp, "profile")]:
        options.add_argument(a)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)

    def state():
        return driver.execute_script("return window.cardluaGallery.state()")

    def same(drawn, expected):
        if len(drawn) != len(expected):
            return False
        for (k, m, a), (k2, m2, a2) in zip(drawn, expected):
            if k != k2 or abs(a - a2) > 1e-9:
                return False
            x = [float(v) for v in m[len("matrix3d("):-1].split(",")]
            y = [float(v) for v in m2[len("matrix3d("):-1].split(",")]
            # (Chromium writes a matrix3d back with six decimals.)
            if any(abs(p - q) > 1e-6 * max(1.0, abs(q)) for p, q in zip(x, y)):
                return False
        return True

    try:
        driver.get("file://" + page)
        tiles = driver.find_elements("css selector", ".tile")
        check("a tile per effect", [t.get_attribute("id") for t in tiles] == NAMES,
              str([t.get_attribute("id") for t in tiles]))
        first = state()["tiles"]
        time.sleep(0.8)
        later = state()["tiles"]
        check("the tiles play", all(b != a for a, b in zip(first, later)), "%s → %s" % (first, later))

        driver.execute_script("window.scrollTo(0, 0)")
        for k in range(len(NAMES)):
            # Read the frame, the drawing and the frame again: the same frame before and
            # after means the drawing is of that frame.
            for _ in range(50):
                before = state()["tiles"][k]
                drawn = driver.execute_script(DRAWN_JS, k)
                if state()["tiles"][k] == before:
                    break
            expected = driver.execute_script(EXPECTED_JS, k, before)
            check("tile %s draws its frame %d as the data says (%d cards)" % (NAMES[k], before, len(expected)),
                  len(expected) > 0 and same(drawn, expected), "%s vs %s" % (drawn[:2], expected[:2]))

        tiles[1].click()
        s = state()
        check("a click opens the preview of that effect", s["open"] == "lol" and s["playing"],
              str(s))
        check("the preview says how to start from it",
              driver.find_element("id", "start").text == "cardlua new fx.lua --from lol")
        body = driver.find_element("css selector", "body")
        body.send_keys(" ")
        time.sleep(0.1)
        s = state()
        check("space pauses", not s["playing"], str(s))
        at = s["frame"]
        body.send_keys(Keys.ARROW_RIGHT)
        s = state()
        check("→ steps one frame", s["frame"] == at + 1, "%s → %s" % (at, s["frame"]))
        check("the preview draws that frame as the data says",
              same(driver.execute_script(DRAWN_JS, "big"), driver.execute_script(EXPECTED_JS, 1, s["frame"])))
        if args.screenshot:
            driver.save_screenshot(args.screenshot)
        body.send_keys(Keys.ESCAPE)
        check("Escape closes it", state()["open"] is None
              and driver.find_element("id", "overlay").get_attribute("hidden") is not None)

        driver.get("file://" + page + "#stacked-deck")
        check("page.html#NAME opens NAME's preview", state()["open"] == "stacked-deck", str(state()))
    finally:
        driver.quit()
        shutil.rmtree(tmp, ignore_errors=True)
    passed = sum(1 for r in results if r)
    failed = len(results) - passed
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
