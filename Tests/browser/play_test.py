#!/usr/bin/env python3
"""Browser tests of `cardlua play` with headless Chromium (selenium + chromedriver).

Starts `cardlua play --port 0` on a temporary copy of scripts/lol.lua, drives the page and
checks `window.cardlua.state()` against values computed here from lol.lua's geometry:
items are 300 pt wide with no spacing and a 50 pt inset, so item k's centre is
300k + 200, and the script's target centres the item nearest the proposal's centre in
the 414 pt viewport: offset 300k + 200 - 207 = 300k - 7.

    python3 Tests/browser/play_test.py [--cardlua PATH] [--screenshot FILE] [--measure]

Prints one line per check and `N passed, M failed`; exits 1 on a failure, 77 when
selenium, Chromium or chromedriver is missing (the caller reports a skip).
"""
import argparse
import http.client
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VIEW_W, HALF = 414.0, 207.0
MAX_OFFSET = 20 * 300 + 100 - VIEW_W  # content 6100 pt wide, 20 items


def snap_target(proposed):
    """lol.lua's rule, computed independently: centre the item nearest the proposal."""
    k = round((proposed + HALF - 200.0) / 300.0)
    k = max(0, min(19, k))
    return 300.0 * k - 7.0


def rubber_band(x, dimension):
    """UIScrollView's rubber band for a finger x points past the edge."""
    return (1.0 - 1.0 / (x * 0.55 / dimension + 1.0)) * dimension


class Play:
    def __init__(self, cardlua, script):
        self.proc = subprocess.Popen([cardlua, "play", script, "--port", "0"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().strip()
        if not re.match(r"^http://127\.0\.0\.1:\d+/$", line):
            raise RuntimeError("cardlua play printed %r; stderr: %s" % (line, self.proc.stderr.read()))
        self.url = line
        self.port = int(line.rsplit(":", 1)[1].strip("/"))

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return -1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cardlua", default=os.path.join(ROOT, ".build", "debug", "cardlua"))
    parser.add_argument("--screenshot", help="save a screenshot of the page mid-drag there")
    parser.add_argument("--measure", action="store_true", help="print round-trip and fps figures")
    args = parser.parse_args()

    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.action_chains import ActionChains
    except ImportError:
        print("play_test: python3-selenium missing: skipped")
        return 77
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = "/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else shutil.which("chromedriver")
    if not chromium or not driver_path:
        print("play_test: chromium or chromedriver missing: skipped")
        return 77

    results = []

    def check(name, ok, detail=""):
        results.append(ok)
        print(("ok   " if ok else "FAIL ") + name + ("" if ok and not detail else " — " + detail))

    tmp = tempfile.mkdtemp(prefix="cardlua-play-")
    script = os.path.join(tmp, "play.lua")
    with open(os.path.join(ROOT, "scripts", "lol.lua")) as f:
        original = f.read()
    with open(script, "w") as f:
        f.write(original)

    play = Play(args.cardlua, script)
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1200,900",
              "--disable-dev-shm-usage", "--user-data-dir=" + os.path.join(tmp, "profile")]:
        options.add_argument(a)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_script_timeout(30)

    def state():
        return driver.execute_script("return window.cardlua.state()")

    def wait_for(predicate, timeout=15.0):
        end = time.time() + timeout
        while time.time() < end:
            s = state()
            if s and predicate(s):
                return s
            time.sleep(0.03)
        return state()

    def settled():
        return wait_for(lambda s: s["settled"])

    # Synthetic pointer events with controlled timing: steps of dx view points every 16 ms.
    gesture_js = """
      var steps = arguments[0], dx = arguments[1], pause = arguments[2], done = arguments[arguments.length - 1];
      var st = window.cardlua.stage, r = st.getBoundingClientRect(), k = r.width / window.cardlua.state().viewport[0];
      var x = r.left + r.width / 2, y = r.top + r.height / 2, i = 0, log = [];
      function ev(type) {
        var e = new PointerEvent(type, { pointerId: 7, bubbles: true, clientX: x, clientY: y, isPrimary: true, pointerType: 'touch', button: 0 });
        log.push([e.timeStamp, x / k]);
        st.dispatchEvent(e);
      }
      ev('pointerdown');
      function step() {
        if (i++ < steps) { x += dx * k; ev('pointermove'); setTimeout(step, 16); }
        else { setTimeout(function () { ev('pointerup'); done(log); }, pause); }
      }
      setTimeout(step, 16);
    """

    def gesture(steps, dx, pause=0):
        """Returns the finger's velocity (pt/ms) as UIKit measures it: over the events of
        the last 100 ms before the lift, from the times the events were stamped with."""
        log = driver.execute_async_script(gesture_js, steps, dx, pause)
        up = log[-1][0]
        recent = [e for e in log if e[0] >= up - 100]
        if len(recent) < 2 or recent[-1][0] == recent[0][0]:
            return 0.0
        return (recent[-1][1] - recent[0][1]) / (recent[-1][0] - recent[0][0])

    def rest_of(target):
        return max(0.0, min(MAX_OFFSET, target))

    try:
        driver.get(play.url)
        s = wait_for(lambda s: s["contentOffset"] is not None)
        check("page loads at rest at 0", s["contentOffset"]["x"] == 0 and s["phase"] == "idle", str(s))
        n_cards = driver.execute_script("return document.querySelectorAll('.card').length")
        check("cards drawn with matrix3d", n_cards >= 2 and "matrix3d" in driver.execute_script(
            "return document.querySelector('.card').style.transform"), "%d cards" % n_cards)

        # 1. A real mouse drag: the content follows the finger 1:1 (left by 120 view points).
        stage = driver.execute_script("return window.cardlua.stage")
        scale = driver.execute_script("var r = window.cardlua.stage.getBoundingClientRect(); return r.width / 414")
        actions = ActionChains(driver, duration=16)
        actions.move_to_element(stage).click_and_hold()
        for _ in range(12):
            actions.move_by_offset(round(-10 * scale), 0)
        actions.perform()
        s = wait_for(lambda s: s["phase"] == "dragging" and abs(s["contentOffset"]["x"] - 12 * round(10 * scale) / scale) < 0.5)
        check("mouse drag follows the finger", s["phase"] == "dragging" and
              abs(s["contentOffset"]["x"] - 12 * round(10 * scale) / scale) < 0.5, str(s["contentOffset"]))
        if args.screenshot:
            driver.save_screenshot(args.screenshot)
        time.sleep(0.25)  # rest before lifting: velocity 0
        ActionChains(driver).release().perform()
        s = settled()
        check("slow release (velocity 0) rests on the script's target", s["lastSnap"] is not None and
              s["lastSnap"]["velocity"]["x"] == 0 and
              abs(s["lastSnap"]["targetContentOffset"]["x"] - snap_target(s["lastSnap"]["proposedContentOffset"]["x"])) < 1e-6 and
              abs(s["contentOffset"]["x"] - rest_of(snap_target(s["lastSnap"]["proposedContentOffset"]["x"]))) < 1e-6,
              "%s, target %s" % (s["contentOffset"], s["lastSnap"]))

        # 2. Flick left (content forward) and right.
        before = s["contentOffset"]["x"]
        finger = gesture(6, -25)
        s = settled()
        snap = s["lastSnap"]
        check("flick left: the finger's velocity over the last 100 ms (%.3f pt/ms)" % finger,
              snap is not None and finger < 0 and abs(snap["velocity"]["x"] + finger) < 1e-6, str(snap))
        target = snap_target(snap["proposedContentOffset"]["x"])
        check("flick left rests on the snap target, further on", abs(s["contentOffset"]["x"] - target) < 1e-6
              and abs(snap["targetContentOffset"]["x"] - target) < 1e-6 and target > before,
              "rest %s target %s before %s" % (s["contentOffset"]["x"], target, before))
        before = s["contentOffset"]["x"]
        finger = gesture(5, 22)
        s = settled()
        snap = s["lastSnap"]
        target = snap_target(snap["proposedContentOffset"]["x"])
        check("flick right rests on the snap target, further back", abs(snap["velocity"]["x"] + finger) < 1e-6 and
              abs(snap["targetContentOffset"]["x"] - target) < 1e-6 and
              abs(s["contentOffset"]["x"] - rest_of(target)) < 1e-6 and target < before,
              "rest %s target %s before %s" % (s["contentOffset"]["x"], target, before))

        # 3. Rubber band at the start edge: the wheel takes the content to 0, then a drag
        # 150 pt to the right goes past the edge by the rubber band, and springs back.
        driver.execute_script("var st = window.cardlua.stage; st.dispatchEvent(new WheelEvent('wheel', {deltaX: -100000, bubbles: true, cancelable: true}));")
        s = wait_for(lambda s: s["settled"] and s["contentOffset"]["x"] == 0)
        check("wheel scrolls to the edge and stops there", s["contentOffset"]["x"] == 0, str(s["contentOffset"]))
        driver.execute_async_script("""
          var done = arguments[0], st = window.cardlua.stage, r = st.getBoundingClientRect(), k = r.width / 414;
          var x = r.left + 100, y = r.top + 100;
          function ev(type) { st.dispatchEvent(new PointerEvent(type, { pointerId: 8, bubbles: true, clientX: x, clientY: y, pointerType: 'touch' })); }
          ev('pointerdown'); x += 150 * k; setTimeout(function () { ev('pointermove'); setTimeout(function () { done(1); }, 50); }, 16);
        """)
        expected = -rubber_band(150, VIEW_W)
        s = wait_for(lambda s: abs(s["contentOffset"]["x"] - expected) < 0.01)
        check("rubber band past the edge: -(1 - 1/(150·0.55/414 + 1))·414 = %.3f" % expected,
              abs(s["contentOffset"]["x"] - expected) < 0.01, str(s["contentOffset"]))
        driver.execute_async_script("""
          var done = arguments[0], st = window.cardlua.stage;
          setTimeout(function () { st.dispatchEvent(new PointerEvent('pointerup', { pointerId: 8, bubbles: true, pointerType: 'touch' })); done(1); }, 150);
        """)
        s = settled()
        check("springs back to 0", s["contentOffset"]["x"] == 0, str(s["contentOffset"]))

        # 4. Reload on save, keeping the position.
        gesture(6, -25)
        s = settled()
        kept, version = s["contentOffset"]["x"], s["scriptVersion"]
        saved = time.time()
        with open(script, "w") as f:
            f.write(original.replace("-- targetContentOffsetForProposedContentOffset", "-- (edited) targetContentOffsetForProposedContentOffset"))
        s = wait_for(lambda s: s["scriptVersion"] == version + 1, timeout=10)
        latency = time.time() - saved
        check("save reloads the effect (%.0f ms, polled)" % (latency * 1000),
              s["scriptVersion"] == version + 1 and s["contentOffset"]["x"] == kept, str(s))
        check("reload within 300 ms", latency < 0.3 + 0.1, "%.0f ms" % (latency * 1000))  # + the test's polling

        # 5. A broken save shows file:line: message, keeps the effect; the next save clears it.
        with open(script, "w") as f:
            f.write(original + "\nfunction broken(\n")
        s = wait_for(lambda s: s["error"] is not None, timeout=10)
        shown = driver.execute_script("var e = document.getElementById('error'); return e.hidden ? '' : e.textContent")
        check("broken save shows file:line: message", s["error"] is not None and
              re.search(r"play\.lua:\d+: ", s["error"] or "") is not None and "play.lua:" in shown, repr(s["error"]))
        check("broken save keeps the last good effect", s["scriptVersion"] == version + 1)
        gesture(6, -25)
        s = settled()
        check("the last good effect still snaps", s["lastSnap"] is not None and
              abs(s["contentOffset"]["x"] - snap_target(s["lastSnap"]["proposedContentOffset"]["x"])) < 1e-6)
        with open(script, "w") as f:
            f.write(original)
        s = wait_for(lambda s: s["error"] is None and s["scriptVersion"] == version + 2, timeout=10)
        hidden = driver.execute_script("return document.getElementById('error').hidden")
        check("the next good save clears the error", s["error"] is None and hidden and s["scriptVersion"] == version + 2)

        # 6. Record and replay: what the page did, run by `cardlua run`, rests where the page did.
        rests, targets = [], []
        for steps, dx, pause in [(6, -30, 0), (0, 0, 0), (4, 20, 0), (8, -12, 200)]:
            if steps == 0:
                time.sleep(0.3)
                continue
            gesture(steps, dx, pause)
            s = settled()
            rests.append(s["contentOffset"]["x"])
            targets.append(s["lastSnap"]["targetContentOffset"]["x"])
        driver.find_element("id", "record").click()
        lua = wait_for(lambda s: True) and None
        end = time.time() + 10
        while time.time() < end and not lua:
            lua = driver.execute_script("return document.getElementById('recorded').value")
            time.sleep(0.05)
        replay = os.path.join(tmp, "replay.lua")
        with open(replay, "w") as f:
            f.write(original + "\n" + lua)
        run = subprocess.run([args.cardlua, "run", replay, "--scenario", "recorded", "--format", "json"],
                             capture_output=True, text=True, timeout=120)
        ok = run.returncode == 0
        if ok:
            timeline = json.loads(run.stdout)
            replayed_targets = [e["targetContentOffset"]["x"] for e in timeline["snaps"]]
            final = timeline["frames"][-1]["contentOffset"]["x"]
            ok = replayed_targets[-len(targets):] == targets and abs(final - rests[-1]) < 1e-9
            detail = "page rests %s targets %s; run targets %s final %s" % (rests, targets, replayed_targets, final)
        else:
            detail = run.stderr.strip()[:300] + "\n" + lua
        check("record → cardlua run --scenario recorded rests where the page did", ok, detail)

        # 7. ← / →: scrollToItem, animated, to the next item's centre.
        before_item = settled()["centredItem"][1]
        driver.execute_script(" document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}))")
        s = settled()
        centre = s["centredItem"][1]
        check("→ centres the next item", centre == before_item + 1 and abs(s["contentOffset"]["x"] - (300 * centre + 200 - HALF)) < 1e-6, str(s))


        # 8. Viewports: a preset and rotate resize through the engine.
        driver.find_element("xpath", "//button[@data-w='393']").click()
        s = wait_for(lambda s: s["viewport"] == [393, 852] and s["settled"])
        check("preset iPhone 15 resizes to 393×852", s["viewport"] == [393, 852], str(s["viewport"]))
        driver.find_element("id", "rotate").click()
        s = wait_for(lambda s: s["viewport"] == [852, 393] and s["settled"])
        check("rotate swaps to 852×393", s["viewport"] == [852, 393], str(s["viewport"]))

        # 9. Tweakables: a save that declares params shows a slider; moving it runs the
        # script again with the new value (the drawn transforms change, the offset stays);
        # Copy params gives the params block (the panel shows the --param line); a bad value
        # is refused with the reason.
        s = settled()
        kept, version = s["contentOffset"]["x"], s["scriptVersion"]
        tweak = re.sub(r"local ROTATE = [^\n]*", "params = { rotate = { value = 35, min = 0, max = 90, step = 1 } }", original)
        tweak = re.sub(r"\bROTATE\b", "(params.rotate * M_PI / 180)", tweak)
        with open(script, "w") as f:
            f.write(tweak)
        s = wait_for(lambda s: s["scriptVersion"] == version + 1 and s["params"], timeout=10)
        slider = driver.execute_script("var e = document.querySelector('#sliders input[data-name=rotate]'); "
                                       "return e ? [e.min, e.max, e.step, e.value] : null")
        check("a slider per declared param (min, max, step, value)", slider == ["0", "90", "1", "35"] and
              s["params"] == [{"name": "rotate", "value": 35, "min": 0, "max": 90, "step": 1}], "%s %s" % (slider, s["params"]))

        def transforms():
            return driver.execute_script("return Array.prototype.map.call(document.querySelectorAll('.card'), "
                                         "function (c) { return c.style.display === 'none' ? '' : c.style.transform; }).join('|')")
        before = transforms()
        driver.execute_script("var e = document.querySelector('#sliders input[data-name=rotate]'); e.value = 80; "
                              "e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true}));")
        s = wait_for(lambda s: s["params"] and s["params"][0]["value"] == 80 and s["settled"], timeout=10)
        after = transforms()
        check("moving the slider runs the script with the new value, keeping the offset",
              s["params"][0]["value"] == 80 and after != before and s["contentOffset"]["x"] == kept and s["error"] is None,
              "%s offset %s (kept %s)" % (s["params"], s["contentOffset"], kept))
        driver.find_element("id", "copyparams").click()
        line = driver.execute_script("return document.getElementById('paramsline').textContent")
        check("the panel shows the run options: --param rotate=80", line == "--param rotate=80", repr(line))
        block = driver.execute_script("return document.getElementById('copyparams').dataset.copied")
        check("Copy params copies the params block with the new value",
              block == "params = {\n  rotate = { value = 80, min = 0, max = 90, step = 1 },\n}\n", repr(block))
        refused = driver.execute_async_script("""
          var done = arguments[0];
          fetch('/params', { method: 'POST', headers: { 'Content-Type': 'application/json' },
                             body: JSON.stringify({ t: window.cardlua.state().time, name: 'rotate', value: 91 }) })
            .then(function (r) { return r.text().then(function (t) { done([r.status, t]); }); });
        """)
        check("an out-of-range value is refused with 400 and the reason",
              refused[0] == 400 and "outside 0…90" in refused[1], str(refused))
        driver.execute_script("window.cardlua.setParam('rotat', 10)")
        end = time.time() + 10
        shown = ""
        while time.time() < end and not shown:
            shown = driver.execute_script("var e = document.getElementById('error'); return e.hidden ? '' : e.textContent")
            time.sleep(0.05)
        check("an unknown name shows the server's reason in the page's error line",
              "400" in shown and "no param 'rotat'; did you mean rotate?" in shown, repr(shown))

        if args.measure:
            measure(play, driver)
    finally:
        try:
            driver.quit()
        finally:
            status = play.stop()
    check("Ctrl-C ends play with status 0", status == 0, "status %s" % status)
    shutil.rmtree(tmp, ignore_errors=True)
    passed = sum(1 for r in results if r)
    failed = len(results) - passed
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def measure(play, driver):
    """A drag step's round trip on loopback (median of 200), and the page's frame rate
    while dragging for 3 s (requestAnimationFrame callbacks counted in the page)."""
    conn = http.client.HTTPConnection("127.0.0.1", play.port)
    headers = {"Content-Type": "application/json"}
    t0 = driver.execute_script("return window.cardlua.state().time") + 1

    def post(body):
        conn.request("POST", "/input", json.dumps(body), headers)
        return conn.getresponse().read()

    post({"type": "down", "t": t0})
    times = []
    for i in range(200):
        started = time.perf_counter()
        post({"type": "move", "t": t0 + 0.001 * (i + 1), "x": -(i % 50), "y": 0})
        times.append((time.perf_counter() - started) * 1000)
    post({"type": "up", "t": t0 + 0.3, "x": 0, "y": 0})
    conn.close()
    print("measure: drag step round trip (POST /input → frame JSON, keep-alive) median %.3f ms, "
          "p90 %.3f ms over 200" % (statistics.median(times), sorted(times)[179]))
    time.sleep(1.5)
    fps = driver.execute_async_script("""
      var done = arguments[0], st = window.cardlua.stage, r = st.getBoundingClientRect();
      var x = r.left + r.width / 2, y = r.top + r.height / 2, n = 0, start = performance.now(), dir = -1;
      function ev(type) { st.dispatchEvent(new PointerEvent(type, { pointerId: 9, bubbles: true, clientX: x, clientY: y, pointerType: 'touch' })); }
      function count() { n++; if (performance.now() - start < 3000) { requestAnimationFrame(count); } }
      requestAnimationFrame(count);
      ev('pointerdown');
      var timer = setInterval(function () { x += dir * 3; if (Math.abs(x - r.left - r.width / 2) > 120) { dir = -dir; } ev('pointermove'); }, 8);
      setTimeout(function () { clearInterval(timer); ev('pointerup'); done(n / ((performance.now() - start) / 1000)); }, 3050);
    """)
    print("measure: page frame rate while dragging 3 s in headless Chromium: %.1f fps" % fps)


if __name__ == "__main__":
    sys.exit(main())
