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
# Seconds a check waits for the page to get somewhere: a bound, not a pace (it takes well
# under a second unloaded; the machine may be shared with builds and other test runs).
WAIT = 60.0

# The frame a viewer shows (stage k: tile k; "big": the preview) and the cards it draws, as
# [index, matrix, opacity], read in one script: the page's display frames run between
# scripts, never during one, so the two are of the same moment however long a round trip
# to the browser takes on a loaded machine. Then the data's cards of that frame, the same way.
DRAWN_JS = """
  var big = arguments[0] === "big", s = window.cardluaGallery.state();
  var stage = big ? document.querySelector('#big .stage') : document.querySelectorAll('.tile .stage')[arguments[0]];
  var out = [];
  stage.querySelectorAll('.card').forEach(function (el, k) {
    if (el.style.display !== 'none') { out.push([k, el.style.transform, Number(el.style.opacity)]); }
  });
  return [big ? s.frame : s.tiles[arguments[0]], out];
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

    def wait_for(predicate, timeout=WAIT):
        """The page's state once `predicate` holds (or the last one read after `timeout`
        seconds): the page acts on its own clock (display frames, an observer's callback),
        so a check waits for what it wants, never for a moment."""
        end = time.monotonic() + timeout
        while True:
            s = state()
            if predicate(s) or time.monotonic() > end:
                return s
            time.sleep(0.02)

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
        # Each tile shows another frame at some point (its first display frames and the
        # observer that says it is on screen come when a loaded machine gets to them).
        first = state()["tiles"]
        later = wait_for(lambda s: all(b != a for a, b in zip(first, s["tiles"])))["tiles"]
        check("the tiles play", all(b != a for a, b in zip(first, later)), "%s → %s" % (first, later))

        driver.execute_script("window.scrollTo(0, 0)")
        for k in range(len(NAMES)):
            frame, drawn = driver.execute_script(DRAWN_JS, k)
            expected = driver.execute_script(EXPECTED_JS, k, frame)
            check("tile %s draws its frame %d as the data says (%d cards)" % (NAMES[k], frame, len(expected)),
                  len(expected) > 0 and same(drawn, expected), "%s vs %s" % (drawn[:2], expected[:2]))

        tiles[1].click()
        s = wait_for(lambda s: s["open"] is not None)
        check("a click opens the preview of that effect", s["open"] == "lol" and s["playing"],
              str(s))
        check("the preview says how to start from it",
              driver.find_element("id", "start").text == "cardlua new fx.lua --from lol")
        body = driver.find_element("css selector", "body")
        body.send_keys(" ")
        s = wait_for(lambda s: not s["playing"])
        check("space pauses", not s["playing"], str(s))
        at = s["frame"]
        if at == driver.execute_script(
                "return JSON.parse(document.getElementById('gallery').textContent)[1].timeline.frames.length") - 1:
            # Paused on the last frame (→ would stay there): from the one before it.
            body.send_keys(Keys.ARROW_LEFT)
            at = wait_for(lambda s: s["frame"] != at)["frame"]
        body.send_keys(Keys.ARROW_RIGHT)
        s = wait_for(lambda s: s["frame"] != at)
        check("→ steps one frame", s["frame"] == at + 1 and not s["playing"], "%s → %s" % (at, s["frame"]))
        frame, drawn = driver.execute_script(DRAWN_JS, "big")
        check("the preview draws that frame as the data says",
              frame == s["frame"] and same(drawn, driver.execute_script(EXPECTED_JS, 1, frame)),
              "frame %s, stepped to %s" % (frame, s["frame"]))
        if args.screenshot:
            driver.save_screenshot(args.screenshot)
        body.send_keys(Keys.ESCAPE)
        check("Escape closes it", wait_for(lambda s: s["open"] is None)["open"] is None
              and driver.find_element("id", "overlay").get_attribute("hidden") is not None)

        driver.get("file://" + page + "#stacked-deck")
        s = wait_for(lambda s: s["open"] is not None)
        check("page.html#NAME opens NAME's preview", s["open"] == "stacked-deck", str(s))
    finally:
        driver.quit()
        shutil.rmtree(tmp, ignore_errors=True)
    passed = sum(1 for r in results if r)
    failed = len(results) - passed
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
