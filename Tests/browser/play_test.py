#!/usr/bin/env python3
"""Browser tests of `cardlua play` with headless Chromium (selenium + chromedriver).

Starts `cardlua play --port 0` on a temporary copy of scripts/lol.lua, drives the page and
checks `window.cardlua.state()` against values computed here from lol.lua's geometry:
items are 300 pt wide with no spacing and a 50 pt inset, so item k's centre is
300k + 200, and the script's target centres the item nearest the proposal's centre in
the 414 pt viewport: offset 300k + 200 - 207 = 300k - 7.

Then every shipped script (scripts/*.lua, scripts/effects/*.lua), one `play` each: open,
a drag, a flick, a wheel gesture and a reload, and the frames the page drew
(`window.cardlua.drawn()`) are checked against `cardlua run --offset X --format json` at
the same content offsets: the same cards in the same order, places, transforms, alpha,
zIndex and hidden.

The lol part also checks the params' panel: a slider, Copy params, Export Swift in the
code view (the file `cardlua export` writes, coloured, Copy, Download as
PlayLayout.swift, following the slider), A/B (Store A, Store B, flip: the values and the
drawing), and a reset back to the declared value and its drawing.

Then the stage (`stage_checks`): at 800, 1280, 1600 and 1920 px it takes the width the
panel leaves, the viewport drawn as large as it lets it, centred; on a phone-narrow
window the panel goes under it.

Then the panel's controls and the picker (`panel_checks`): `cardlua play FOLDER
--param zoom=3` on three scripts, one with a number (a long label), an on/off and a
one-of param: its reset back to the declared 2, the toggle, the segmented control, the
labels whole and in the script's order, the --param line wrapping between options only,
Copy params, Reset all, Export's refusal beside its button, picking the other script at
the same viewport, item count and centred item, and the cover flow's params in groups
(fold, a group's reset).

The cards part: `play --cards examples/cards --lan --lan-address 127.0.0.2` (a second
loopback address standing in for the LAN one: no traffic leaves the machine), opened at
the LAN URL with its token (`/t/TOKEN/`, every request of the page under it): cards show
the folder's images with no border, fill or ring under them (and so do run's HTML
preview's), and touches (the DevTools protocol's touch events, as a phone's) drag the
collection view.

    python3 Tests/browser/play_test.py [--cardlua PATH] [--screenshot FILE] [--measure] [--only NAME] [--only-cards]
                                       [--panel-only] [--panel-screenshot FILE]

Prints one line per check and `N passed, M failed`; exits 1 on a failure, 77 when
selenium, Chromium or chromedriver is missing (the caller reports a skip).
"""
import argparse
import concurrent.futures
import glob
import http.client
import json
import math
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


# Seconds a check waits for the page or the server to get somewhere: a bound, not a pace.
# Unloaded it takes well under a second; the machine may be shared with builds and other
# test runs, and the page's motion runs on the wall clock, so the bound is generous.
WAIT = 60.0


def snap_target(proposed):
    """lol.lua's rule, computed independently: centre the item nearest the proposal. Of
    two equally near (the proposal half way between two rests), the first in layout
    order: the script keeps a nearer one only (`<`), going through the items in order."""
    k = math.ceil((proposed + HALF - 200.0) / 300.0 - 0.5)
    k = max(0, min(19, k))
    return 300.0 * k - 7.0


def rubber_band(x, dimension):
    """UIScrollView's rubber band for a finger x points past the edge."""
    return (1.0 - 1.0 / (x * 0.55 / dimension + 1.0)) * dimension


class Play:
    def __init__(self, cardlua, script, extra=()):
        self.proc = subprocess.Popen([cardlua, "play", script, "--port", "0"] + list(extra),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().strip()
        match = re.match(r"^http://127\.0\.0\.1:(\d+)/(t/[0-9a-f]{32}/)?$", line)
        if not match:
            raise RuntimeError("cardlua play printed %r; stderr: %s" % (line, self.proc.stderr.read()))
        self.url = line
        self.port = int(match.group(1))
        # With --lan: the LAN URL on the next line (then the QR code).
        self.lan_url = self.proc.stdout.readline().strip() if match.group(2) else None

    def stop(self):
        self.proc.send_signal(signal.SIGINT)
        try:
            return self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return -1



def stop_on_sigterm():
    """SIGTERM (the test command stopping) ends the run through its `finally` blocks,
    which close Chromium and the cardlua server, instead of leaving them behind."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))

def main():
    stop_on_sigterm()
    parser = argparse.ArgumentParser()
    parser.add_argument("--cardlua", default=os.path.join(ROOT, ".build", "debug", "cardlua"))
    parser.add_argument("--screenshot", help="save a screenshot of the page mid-drag there")
    parser.add_argument("--screenshot-cards", help="save a screenshot of the cards part mid-drag there")
    parser.add_argument("--measure", action="store_true", help="print round-trip and fps figures")
    parser.add_argument("--only", help="the catalogue part: only scripts whose name contains this")
    parser.add_argument("--skip-lol", action="store_true", help="only the catalogue part")
    parser.add_argument("--measure-script", help="print round-trip and fps figures for this script too")
    parser.add_argument("--panel-only", action="store_true", help="only the stage's size, the panel's controls and the picker")
    parser.add_argument("--panel-screenshot", help="save a screenshot of the page with the new controls there")
    parser.add_argument("--only-cards", action="store_true", help="only the cards part (--cards, --lan, touch)")
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
    driver.set_script_timeout(WAIT)

    def state():
        return driver.execute_script("return window.cardlua.state()")

    def wait_for(predicate, timeout=WAIT):
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

    def flick(steps, dx):
        """A flick: a gesture whose finger moved within the last 100 ms before the lift. On
        a loaded machine the page's 16 ms timers can stretch past 100 ms (the page then
        measures velocity 0, rightly); such a try is settled and the flick made again,
        until one is a flick (a bound of tries and of time, not a count a slow machine
        runs out of: a try that is a flick comes sooner or later)."""
        end = time.time() + WAIT
        for tries in range(1, 101):
            finger = gesture(steps, dx)
            if finger != 0 or time.time() > end:
                return finger
            print("note: flick try %d lifted with velocity 0 (the page's timers stretched): again" % tries)
            settled()
        return finger

    def rest_of(target):
        return max(0.0, min(MAX_OFFSET, target))

    try:
        def lol_checks():
            driver.get(play.url)
            s = wait_for(lambda s: s["contentOffset"] is not None)
            check("page loads at rest at 0", s["contentOffset"]["x"] == 0 and s["phase"] == "idle", str(s))
            # One script, not a folder: no effect picker (a .row's display once overrode `hidden`).
            picker_shown = driver.execute_script("return getComputedStyle(document.getElementById('pickerrow')).display")
            check("a single script shows no effect picker", picker_shown == "none", picker_shown)
            shown_hidden = driver.execute_script(
                "return ['copy', 'recorded', 'codeview', 'exporterror', 'error'].filter(function (id) { "
                "var e = document.getElementById(id); return e.hidden && getComputedStyle(e).display !== 'none'; })")
            check("what is hidden is not shown (no Copy before a recording, no code view, no error)", shown_hidden == [],
                  str(shown_hidden))
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
            finger = flick(6, -25)
            s = settled()
            snap = s["lastSnap"]
            check("flick left: the finger's velocity over the last 100 ms (%.3f pt/ms)" % finger,
                  snap is not None and finger < 0 and abs(snap["velocity"]["x"] + finger) <= 0.0005 + 1e-9, str(snap))
            target = snap_target(snap["proposedContentOffset"]["x"])
            check("flick left rests on the snap target, further on", abs(s["contentOffset"]["x"] - target) < 1e-6
                  and abs(snap["targetContentOffset"]["x"] - target) < 1e-6 and target > before,
                  "rest %s target %s before %s" % (s["contentOffset"]["x"], target, before))
            before = s["contentOffset"]["x"]
            finger = flick(5, 22)
            s = settled()
            snap = s["lastSnap"]
            target = snap_target(snap["proposedContentOffset"]["x"])
            check("flick right rests on the snap target, further back", abs(snap["velocity"]["x"] + finger) <= 0.0005 + 1e-9 and
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
              ev('pointerdown'); x += 150 * k; window.fingerAt = [x, y];
              setTimeout(function () { ev('pointermove'); setTimeout(function () { done(1); }, 50); }, 16);
            """)
            expected = -rubber_band(150, VIEW_W)
            s = wait_for(lambda s: abs(s["contentOffset"]["x"] - expected) < 0.01)
            check("rubber band past the edge: -(1 - 1/(150·0.55/414 + 1))·414 = %.3f" % expected,
                  abs(s["contentOffset"]["x"] - expected) < 0.01, str(s["contentOffset"]))
            driver.execute_async_script("""
              var done = arguments[0], st = window.cardlua.stage, at = window.fingerAt;   // lifted where it rests
              setTimeout(function () { st.dispatchEvent(new PointerEvent('pointerup', { pointerId: 8, bubbles: true, pointerType: 'touch',
                                                                                     clientX: at[0], clientY: at[1] })); done(1); }, 150);
            """)
            s = settled()
            check("springs back to 0", s["contentOffset"]["x"] == 0, str(s["contentOffset"]))

            # 3b. A wheel or trackpad gesture is a pan: its events up to a pause are a drag,
            # released with a velocity through the script's targetContentOffset: it rests
            # on a card, centred (not wherever the wheel left it).
            s = settled()
            before_snap = s["lastSnap"]
            wheel_js = """
              var n = arguments[0], d = arguments[1], done = arguments[arguments.length - 1], st = window.cardlua.stage, i = 0;
              function step() {
                if (i++ < n) { st.dispatchEvent(new WheelEvent('wheel', {deltaX: d, bubbles: true, cancelable: true})); setTimeout(step, 16); }
                else { done(1); }
              }
              step();
            """
            driver.execute_async_script(wheel_js, 7, 23)
            s = wait_for(lambda s: s["settled"] and s["lastSnap"] != before_snap)
            snap = s["lastSnap"]
            ok = snap is not None and snap != before_snap and snap["velocity"]["x"] > 0
            if ok:
                target = snap_target(snap["proposedContentOffset"]["x"])
                k = round((s["contentOffset"]["x"] + 7) / 300.0)
                ok = (abs(snap["targetContentOffset"]["x"] - target) < 1e-6 and abs(s["contentOffset"]["x"] - target) < 1e-6
                      and s["centredItem"][1] == k and abs(300 * k + 200 - s["contentOffset"]["x"] - HALF) < 1e-6)
            check("a wheel gesture is a pan: released with its velocity, rests on a card, centred", ok,
                  "%s %s" % (s["contentOffset"], snap))

            # 4. Reload on save, keeping the position.
            gesture(6, -25)
            s = settled()
            kept, version = s["contentOffset"]["x"], s["scriptVersion"]
            saved = time.time()
            with open(script, "w") as f:
                f.write(original.replace("-- targetContentOffsetForProposedContentOffset", "-- (edited) targetContentOffsetForProposedContentOffset"))
            s = wait_for(lambda s: s["scriptVersion"] == version + 1)
            latency = time.time() - saved
            check("save reloads the effect (%.0f ms, polled)" % (latency * 1000),
                  s["scriptVersion"] == version + 1 and s["contentOffset"]["x"] == kept, str(s))
            # How soon is a figure, not a check: it is the machine's load as much as ours.
            print("measure: a save reloaded the page's effect in %.0f ms (the test polls every 30 ms)" % (latency * 1000))

            # 5. A broken save shows file:line: message, keeps the effect; the next save clears it.
            with open(script, "w") as f:
                f.write(original + "\nfunction broken(\n")
            s = wait_for(lambda s: s["error"] is not None)
            shown = driver.execute_script("var e = document.getElementById('error'); return e.hidden ? '' : e.textContent")
            check("broken save shows file:line: message", s["error"] is not None and
                  re.search(r"play\.lua:\d+: ", s["error"] or "") is not None and "play.lua:" in shown, repr(s["error"]))
            check("broken save keeps the last good effect", s["scriptVersion"] == version + 1)
            # 162 pt from a rest: on a loaded machine the lift can come with velocity 0,
            # and 150 would then propose exactly half way between two cards.
            before_snap = s["lastSnap"]
            gesture(6, -27)
            s = wait_for(lambda s: s["settled"] and s["lastSnap"] != before_snap)
            check("the last good effect still snaps", s["lastSnap"] is not None and s["lastSnap"] != before_snap and
                  abs(s["contentOffset"]["x"] - snap_target(s["lastSnap"]["proposedContentOffset"]["x"])) < 1e-6,
                  "%s %s" % (s["contentOffset"], s["lastSnap"]))
            with open(script, "w") as f:
                f.write(original)
            s = wait_for(lambda s: s["error"] is None and s["scriptVersion"] == version + 2)
            hidden = driver.execute_script("return document.getElementById('error').hidden")
            check("the next good save clears the error", s["error"] is None and hidden and s["scriptVersion"] == version + 2)

            # 6. Record (a start/stop toggle) and replay: what the page did between the two
            # presses, run by `cardlua run`, makes the same releases and rests where the
            # page did; the wheel gesture is a drag step; values are rounded.
            gesture(5, -20)  # before the press: not recorded
            settled()
            driver.find_element("id", "record").click()
            settled()
            rests, targets = [], []
            for steps, dx, pause in [(6, -30, 0), (0, 0, 0), (4, 20, 0), (-1, 0, 0), (8, -12, 200)]:
                if steps == 0:
                    time.sleep(0.3)
                    continue
                before_snap = state()["lastSnap"]
                if steps < 0:
                    driver.execute_async_script(wheel_js, 6, -21)
                else:
                    gesture(steps, dx, pause)
                s = wait_for(lambda s: s["settled"] and s["lastSnap"] != before_snap)
                rests.append(s["contentOffset"]["x"])
                targets.append(s["lastSnap"]["targetContentOffset"]["x"])
            driver.find_element("id", "record").click()
            lua = None
            end = time.time() + WAIT
            while time.time() < end and not lua:
                lua = driver.execute_script("var e = document.getElementById('recorded'); return e.hidden ? '' : e.value")
                time.sleep(0.05)
            drags = len(re.findall(r"\{ drag = ", lua or ""))
            long_numbers = re.findall(r"\d+\.\d{4,}", lua or "")
            check("Record between two presses: one drag step per gesture (the wheel's too), no jump but the start, rounded",
                  drags == len(targets) and (lua or "").count("jump") <= 1 and not long_numbers,
                  "%d drags for %d gestures, long numbers %s:\n%s" % (drags, len(targets), long_numbers, lua))
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
                ok = replayed_targets == targets and abs(final - rests[-1]) < 1e-9
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

            # Equal zIndex (lol gives every card 1): the later index path on top, as UIKit
            # draws, whatever order the page made the cards in. The first shown card is moved
            # to the end of the stage (as if made last); after the next frames the shown
            # cards are in index-path order again (the page paints equal z-index in that order).
            shown_cards = ("Array.from(window.cardlua.stage.querySelectorAll('.card'))"
                           ".filter(function (e) { return e.style.display !== 'none'; })")
            driver.execute_script("var c = " + shown_cards + "; c[0].parentNode.appendChild(c[0]);")
            driver.execute_script(" document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft', bubbles: true}))")
            settled()
            order = driver.execute_script("return " + shown_cards + ".map(function (e) { return +e.textContent; })")
            check("equal zIndex: the later index path drawn on top (in document order), as UIKit draws",
                  len(order) >= 2 and order == sorted(order), str(order))


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
            tweak = re.sub(r"local ROTATE = [^\n]*", "params = { rotate = { value = 35, min = 0, max = 90, step = 1 },"
                           " fade = { value = 1, min = 0.01, max = 2, step = 0.05 }, flip = { value = 0, min = 0, max = 1, step = 1 } }",
                           original)
            tweak = re.sub(r"\bROTATE\b", "(params.rotate * M_PI / 180)", tweak)
            with open(script, "w") as f:
                f.write(tweak)
            s = wait_for(lambda s: s["scriptVersion"] == version + 1 and s["params"])
            slider = driver.execute_script("var e = document.querySelector('#sliders input[data-name=rotate]'); "
                                           "return e ? [e.min, e.max, e.step, e.value] : null")
            rotate = [p for p in s["params"] or [] if p["name"] == "rotate"]
            check("a slider per declared param (min, max, step, value)", slider == ["0", "90", "1", "35"] and
                  rotate == [{"name": "rotate", "value": 35, "default": 35, "min": 0, "max": 90, "step": 1, "kind": "number", "label": None}],
                  "%s %s" % (slider, s["params"]))
            flip = driver.execute_script("var e = document.querySelector('#sliders input[data-name=flip]'); return e ? [e.type, e.checked] : null")
            check("an on/off param (0…1, step 1) is a toggle", flip == ["checkbox", False], str(flip))
            driver.find_element("id", "copyparams").click()
            block = driver.execute_script("return document.getElementById('copyparams').dataset.copied")
            check("Copy params on an untouched page gives the declared values exactly (fade = 1, off the slider's grid)",
                  "  fade = { value = 1, min = 0.01, max = 2, step = 0.05 },\n" in block and
                  "  rotate = { value = 35, min = 0, max = 90, step = 1 },\n" in block, repr(block))

            def rotate_value(s):
                return next((p["value"] for p in s["params"] or [] if p["name"] == "rotate"), None)

            def transforms():
                return driver.execute_script("return Array.prototype.map.call(document.querySelectorAll('.card'), "
                                             "function (c) { return c.style.display === 'none' ? '' : c.style.transform; }).join('|')")
            def set_slider(name, value):
                driver.execute_script("var e = document.querySelector('#sliders input[data-name=' + arguments[0] + ']'); "
                                      "e.value = arguments[1]; e.dispatchEvent(new Event('input', {bubbles: true})); "
                                      "e.dispatchEvent(new Event('change', {bubbles: true}));", name, value)

            def wait_text(js):
                end, text = time.time() + WAIT, ""
                while time.time() < end and not text:
                    text = driver.execute_script(js)
                    time.sleep(0.05)
                return text

            before = transforms()
            set_slider("rotate", 80)
            s = wait_for(lambda s: rotate_value(s) == 80 and s["settled"])
            after = transforms()
            check("moving the slider runs the script with the new value, keeping the offset",
                  rotate_value(s) == 80 and after != before and s["contentOffset"]["x"] == kept and s["error"] is None,
                  "%s offset %s (kept %s)" % (s["params"], s["contentOffset"], kept))
            driver.find_element("id", "copyparams").click()
            line = driver.execute_script("return document.getElementById('paramsline').textContent")
            check("the panel shows the run options: --param rotate=80, fade=1 as declared",
                  "--param rotate=80" in line and "--param fade=1 " in line + " " and "--param flip=0" in line, repr(line))
            block = driver.execute_script("return document.getElementById('copyparams').dataset.copied")
            check("Copy params copies the params block with the new value",
                  block.startswith("params = {\n") and "  rotate = { value = 80, min = 0, max = 90, step = 1 },\n" in block
                  and "  fade = { value = 1, min = 0.01, max = 2, step = 0.05 },\n" in block, repr(block))
            # Export Swift: the file `cardlua export` writes, the slider's value baked in,
            # in the code view over the stage.
            driver.find_element("id", "export").click()
            swift = wait_text("var e = document.getElementById('exported'); "
                              "return document.getElementById('codeview').hidden ? '' : e.textContent")
            error = driver.execute_script("return document.getElementById('exporterror').textContent")
            check("Export Swift shows the layout class with the param in use baked in",
                  "import UIKit" in swift and ": UICollectionViewFlowLayout {" in swift
                  and re.search(r"var rotate: CGFloat = 80(\.0)?\b", swift) is not None, repr(error or swift[:300]))
            expected_file = (subprocess.run([args.cardlua, "export", script, "--param", "rotate=80"],
                                            capture_output=True, text=True, timeout=120).stdout)
            check("the code view's text is the file `cardlua export --param rotate=80` writes, exactly",
                  swift == expected_file, "%d vs %d characters" % (len(swift), len(expected_file)))
            colours = driver.execute_script("""
              var box = document.getElementById('exported');
              function texts(kind) { return Array.prototype.map.call(box.querySelectorAll('.' + kind), function (e) { return e.textContent; }); }
              var cs = function (kind) { var e = box.querySelector('.' + kind); return e ? getComputedStyle(e).color : null; };
              return { kw: texts('kw'), str: texts('str').length, com: texts('com').length, num: texts('num'), type: texts('type'),
                       lines: box.querySelectorAll('.ln').length, colours: [cs('kw'), cs('str'), cs('com'), cs('num'), getComputedStyle(box).color] };
            """)
            lines = swift.count("\n") + (0 if swift.endswith("\n") else 1)
            check("the Swift is coloured: keywords, comments, numbers, types, each its own colour, a line per line",
                  {"import", "final", "class", "override", "func", "let", "return"} <= set(colours["kw"])
                  and colours["com"] > 0 and "80" in colours["num"]
                  and "CGFloat" in colours["type"] and "CGFloat" not in colours["kw"]
                  and len(set(c for k, c in enumerate(colours["colours"]) if k != 1)) == 4 and colours["lines"] == lines,
                  "%s, %d lines" % ({k: (v[:12] if isinstance(v, list) else v) for k, v in colours.items()}, lines))
            # The tokenizer on Swift the exporter may write, and what it must not take for
            # a token: a string with escapes and an interpolation, a nested block comment,
            # numbers (not the digits of a name), a member named like a keyword, a constant.
            sample = ('let s = "a \\"b\\" \\(x)" // note\n'
                      '/* a /* b */ c */ var m34 = 0x1F + 1.5e3 - .default\n'
                      '@objc final class Card: Base { let ITEM_WIDTH: CGFloat = 2 }')
            got = driver.execute_script("return cardluaSwift.tokens(arguments[0]).filter(function (t) { return t[0]; })", sample)
            check("the highlighter's tokens: keywords, a string with its escapes, comments nested, numbers, types",
                  got == [["kw", "let"], ["str", '"a \\"b\\" \\(x)"'], ["com", "// note"],
                          ["com", "/* a /* b */ c */"], ["kw", "var"], ["num", "0x1F"], ["num", "1.5e3"],
                          ["attr", "@objc"], ["kw", "final"], ["kw", "class"], ["type", "Card"], ["type", "Base"],
                          ["kw", "let"], ["type", "CGFloat"], ["num", "2"]], str(got))
            wide = driver.execute_script("var r = document.getElementById('exported').getBoundingClientRect(); return [r.width, innerWidth]")
            check("the code view is wide: over the stage, more than half the window (%.0f of %.0f px)" % tuple(wide),
                  wide[0] > 0.5 * wide[1], str(wide))
            driver.find_element("id", "copyswift").click()
            copied = driver.execute_script("return document.getElementById('copyswift').dataset.copied")
            check("Copy Swift copies the whole file", copied == swift and len(swift) > 0)
            # Download: a link to the file, named after its class (play.lua → PlayLayout, as
            # lol.lua → LolLayout), that saves it.
            link = driver.execute_async_script("""
              var done = arguments[0], a = document.getElementById('downloadswift');
              fetch(a.href).then(function (r) { return r.text(); }).then(function (t) { done([a.getAttribute('download'), a.href, t]); });
            """)
            declared_class = re.search(r"class (\w+): UICollectionViewFlowLayout", swift)
            check("Download saves PlayLayout.swift, the file shown", link[0] == "PlayLayout.swift" and link[2] == swift
                  and declared_class is not None and declared_class.group(1) + ".swift" == link[0], str(link[:2]))
            downloads = os.path.join(tmp, "downloads")
            os.makedirs(downloads, exist_ok=True)
            driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
            driver.find_element("id", "downloadswift").click()
            saved = os.path.join(downloads, "PlayLayout.swift")
            end = time.time() + WAIT
            while time.time() < end and not (os.path.exists(saved) and os.path.getsize(saved) == len(swift.encode())):
                time.sleep(0.05)
            got = open(saved).read() if os.path.exists(saved) else None
            check("clicking Download writes PlayLayout.swift with the file", got == swift,
                  "%s: %s" % (os.listdir(downloads), (got or "")[:80]))
            # The view follows the sliders while it is open: rotate 20 is in the file.
            set_slider("rotate", 20)
            swift20 = wait_text("var t = document.getElementById('exported').textContent; "
                                "return /var rotate: CGFloat = 20(\\.0)?\\b/.test(t) ? t : ''")
            check("the open code view follows a slider (rotate 20 baked in)", bool(swift20))
            # SwiftUI: the same values as `cardlua export --swiftui`'s view, named LolCarousel-style.
            from selenium.webdriver.support.ui import Select
            Select(driver.find_element("id", "exporttarget")).select_by_value("swiftui")
            swiftui = wait_text("var t = document.getElementById('exported').textContent; "
                                "return t.indexOf('import SwiftUI') === 0 ? t : ''")
            expected_view = (subprocess.run([args.cardlua, "export", "--swiftui", script, "--param", "rotate=20"],
                                            capture_output=True, text=True, timeout=120).stdout)
            check("choosing SwiftUI shows `cardlua export --swiftui --param rotate=20`'s view, exactly",
                  swiftui == expected_view and "struct PlayCarousel<" in swiftui,
                  "%d vs %d characters: %s" % (len(swiftui), len(expected_view), swiftui[:120]))
            view_link = driver.execute_script("return document.getElementById('downloadswift').getAttribute('download')")
            check("its download is PlayCarousel.swift", view_link == "PlayCarousel.swift", repr(view_link))
            Select(driver.find_element("id", "exporttarget")).select_by_value("uikit")
            back = wait_text("var t = document.getElementById('exported').textContent; "
                             "return t.indexOf('import UIKit') === 0 ? t : ''")
            check("choosing UIKit again shows the layout", ": UICollectionViewFlowLayout {" in back)
            driver.find_element("id", "closeswift").click()
            check("Close hides the code view", driver.execute_script("return document.getElementById('codeview').hidden"))

            # Reset and A/B: A is rotate 80, B rotate 20; A and B flip the values and the
            # drawing, and the reset brings back the declared 35 and its drawing.
            s = wait_for(lambda s: rotate_value(s) == 20 and s["settled"])
            at20 = transforms()
            driver.find_element("id", "storeb").click()
            set_slider("rotate", 80)
            s = wait_for(lambda s: rotate_value(s) == 80 and s["settled"])
            at80 = transforms()
            driver.find_element("id", "storea").click()
            marks = driver.execute_script("return ['showa', 'showb', 'abflip'].map(function (id) { var b = document.getElementById(id); "
                                          "return [b.disabled, b.classList.contains('on')]; })")
            check("Store A and Store B keep the values: A (on screen) marked, B not, flip enabled",
                  marks == [[False, True], [False, False], [False, False]], str(marks))
            driver.find_element("id", "abflip").click()
            s = wait_for(lambda s: rotate_value(s) == 20 and s["settled"])
            flipped = transforms()
            slider = driver.execute_script("return document.querySelector('#sliders input[data-name=rotate]').value")
            marked = driver.execute_script("return [document.getElementById('showa').classList.contains('on'), "
                                           "document.getElementById('showb').classList.contains('on')]")
            check("⇄ flips to B: rotate 20, the slider at 20, the drawing B's, B marked",
                  rotate_value(s) == 20 and slider == "20" and flipped == at20 and flipped != at80
                  and marked == [False, True] and s["contentOffset"]["x"] == kept, "%s %s %s" % (s["params"], slider, marked))
            driver.find_element("id", "abflip").click()
            s = wait_for(lambda s: rotate_value(s) == 80 and s["settled"])
            check("⇄ again flips back to A: rotate 80 and A's drawing",
                  rotate_value(s) == 80 and transforms() == at80, str(s["params"]))
            driver.find_element("id", "showb").click()
            s = wait_for(lambda s: rotate_value(s) == 20 and s["settled"])
            check("B plays B's values", rotate_value(s) == 20 and transforms() == at20, str(s["params"]))
            reset = driver.execute_script("var b = document.querySelector('.slider[data-name=rotate] .reset'); "
                                          "return [b.disabled, b.title, document.querySelector('.slider[data-name=fade] .reset').disabled]")
            check("a param off its declared value has a reset (to 35), one at it has none",
                  reset == [False, "back to 35, the script's value", True], str(reset))
            driver.find_element("css selector", ".slider[data-name=rotate] .reset").click()
            s = wait_for(lambda s: rotate_value(s) == 35 and s["settled"])
            slider = driver.execute_script("return document.querySelector('#sliders input[data-name=rotate]').value")
            check("the reset restores the declared value (35), the slider and the drawing",
                  rotate_value(s) == 35 and slider == "35" and transforms() == before and s["error"] is None
                  and driver.execute_script("return document.getElementById('resetall').disabled"),
                  "%s %s" % (s["params"], slider))
            refused = driver.execute_async_script("""
              var done = arguments[0];
              fetch('/params', { method: 'POST', headers: { 'Content-Type': 'application/json' },
                                 body: JSON.stringify({ t: window.cardlua.state().time, name: 'rotate', value: 91 }) })
                .then(function (r) { return r.text().then(function (t) { done([r.status, t]); }); });
            """)
            check("an out-of-range value is refused with 400 and the reason",
                  refused[0] == 400 and "outside 0…90" in refused[1], str(refused))
            driver.execute_script("window.cardlua.setParam('rotat', 10)")
            end = time.time() + WAIT
            shown = ""
            while time.time() < end and not shown:
                shown = driver.execute_script("var e = document.getElementById('error'); return e.hidden ? '' : e.textContent")
                time.sleep(0.05)
            check("an unknown name shows the server's reason in the page's error line",
                  "400" in shown and "no param 'rotat'; did you mean rotate?" in shown, repr(shown))

        if args.panel_only:
            stage_checks(args, driver, check, tmp)
            panel_checks(args, driver, check, tmp)
        elif args.only_cards:
            cards_checks(args, driver, check, tmp)
        else:
            if not args.skip_lol:
                lol_checks()
                cards_checks(args, driver, check, tmp)
            stage_checks(args, driver, check, tmp)
            panel_checks(args, driver, check, tmp)
            catalogue(args, driver, check, tmp)
        if args.measure_script:
            other = Play(args.cardlua, args.measure_script)
            try:
                driver.get(other.url)
                wait_for(lambda s: s["contentOffset"] is not None)
                print("measure: %s" % args.measure_script)
                measure(other, driver)
            finally:
                other.stop()

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


PANEL_KINDS = """-- A number with a long label, an on/off, a one-of param and a long camelCase name
-- without a label (too wide for the label column: it must wrap at its humps).
params = {
  zoom = { value = 2, min = 0, max = 5, step = 0.5, label = "Viewpoint offset of the zoomed card, in points" },
  wrap = { value = true },
  style = { value = "cover", options = { "cover", "flat", "stack" } },
  bottomStackAlphaSpeedFactorWhileDragging = { value = 1, min = 0.5, max = 2 },
}
function prepare(layout)
  layout.scrollDirection = "horizontal"
  layout.itemSize = CGSizeMake(200, 600)
  layout.minimumLineSpacing = 10
end
function transform(attributes, layout)
  attributes.alpha = (params.wrap and 1 or 0.5) * math.min(1, params.bottomStackAlphaSpeedFactorWhileDragging)
  if params.style == "flat" then return CATransform3DIdentity end
  return CATransform3DMakeRotation(params.zoom * 0.1, 0, 1, 0)
end
"""

LONG_NAME = "bottomStackAlphaSpeedFactorWhileDragging"

PANEL_NARROW = """function prepare(layout)
  layout.scrollDirection = "horizontal"
  layout.itemSize = CGSizeMake(100, 500)
  layout.minimumLineSpacing = 20
end
"""


def panel_checks(args, driver, check, tmp):
    """`cardlua play FOLDER`: the toggle, the segmented control, labels whole and in the
    script's order, Copy params for the new kinds, and the picker keeping the viewport,
    the item count and the centred item."""
    folder = os.path.join(tmp, "panel")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "a-kinds.lua"), "w") as f:
        f.write(PANEL_KINDS)
    with open(os.path.join(folder, "b-narrow.lua"), "w") as f:
        f.write(PANEL_NARROW)
    with open(os.path.join(ROOT, "scripts", "effects", "icarousel-coverflow.lua")) as source, \
            open(os.path.join(folder, "c-coverflow.lua"), "w") as f:
        f.write(source.read())
    play = Play(args.cardlua, folder, ["--param", "zoom=3"])

    def state():
        return driver.execute_script("return window.cardlua.state()")

    def wait_for(predicate, timeout=WAIT):
        end = time.time() + timeout
        s = None
        while time.time() < end:
            s = state()
            if s and predicate(s):
                return s
            time.sleep(0.03)
        return s

    def value(s, name):
        return next((p["value"] for p in s["params"] or [] if p["name"] == name), None)

    def resets():
        return driver.execute_script("return Array.prototype.map.call(document.querySelectorAll('#sliders .slider'), "
                                     "function (r) { return [r.dataset.name, r.children[3].disabled]; })"
                                     ".concat([['all', document.getElementById('resetall').disabled]])")

    try:
        driver.get(play.url)
        s = wait_for(lambda s: s["contentOffset"] is not None and s["params"])
        # --param zoom=3 starts off the declared 2: its reset (and Reset all) is there, the
        # others' are not; it goes back to the script's 2, not to the 3 play started with.
        shown = resets()
        check("a param started off its declared value (--param zoom=3) shows its reset, the others none",
              value(s, "zoom") == 3 and shown == [["zoom", False], ["wrap", True], ["style", True], [LONG_NAME, True], ["all", False]],
              "%s %s" % (s["params"], shown))
        driver.find_element("css selector", ".slider[data-name=zoom] .reset").click()
        s = wait_for(lambda s: value(s, "zoom") == 2 and s["settled"])
        slider = driver.execute_script("return document.querySelector('#sliders input[data-name=zoom]').value")
        check("the reset brings zoom back to the declared 2 (not --param's 3), and every reset goes",
              value(s, "zoom") == 2 and slider == "2" and all(d for _, d in resets()), "%s %s %s" % (s["params"], slider, resets()))
        picker = driver.execute_script(
            "var p = document.getElementById('picker'); return [document.getElementById('pickerrow').hidden, p.value, "
            "Array.prototype.map.call(p.options, function (o) { return o.textContent; })]")
        check("a folder shows a picker of its scripts in name order", picker == [False, "a-kinds.lua", ["a-kinds", "b-narrow", "c-coverflow"]],
              str(picker))
        labels = driver.execute_script(
            "return Array.prototype.map.call(document.querySelectorAll('#sliders .slider > label'), function (l) { "
            "var r = l.getBoundingClientRect(); return [l.textContent, l.scrollWidth <= l.clientWidth + 1, r.height]; })")
        check("labels are whole (the script's label, else the name), in the script's order",
              [l[0] for l in labels] == ["Viewpoint offset of the zoomed card, in points", "wrap", "style", LONG_NAME]
              and all(l[1] for l in labels) and labels[0][2] > labels[1][2], str(labels))
        # Where the long name's lines break: the index of each character that starts a line.
        name, breaks = driver.execute_script(
            "var l = document.querySelector('#sliders .slider[data-name=' + arguments[0] + '] > label');"
            "var walker = document.createTreeWalker(l, NodeFilter.SHOW_TEXT), range = document.createRange();"
            "var breaks = [], top = null, k = 0, node;"
            "while ((node = walker.nextNode())) { for (var i = 0; i < node.length; i++, k++) {"
            "  range.setStart(node, i); range.setEnd(node, i + 1); var r = range.getClientRects()[0];"
            "  if (top !== null && r.top > top + 1) { breaks.push(k); } top = r.top; } }"
            "return [l.textContent, breaks];", LONG_NAME)
        check("a long camelCase name wraps at its humps only, never mid-word",
              name == LONG_NAME and len(breaks) >= 1
              and all(name[k].isupper() and name[k - 1].islower() for k in breaks), "%r breaks at %s" % (name, breaks))
        toggle = driver.execute_script("var e = document.querySelector('#sliders input[data-name=wrap]'); "
                                       "return e ? [e.type, e.getAttribute('role'), e.checked] : null")
        check("an on/off param (value = true) is a toggle, on", toggle == ["checkbox", "switch", True], str(toggle))
        segments = driver.execute_script(
            "return Array.prototype.map.call(document.querySelectorAll('.segments[data-name=style] button'), "
            "function (b) { return [b.textContent, b.classList.contains('on'), b.getAttribute('aria-checked')]; })")
        check("a param with options is a segmented control, the value marked",
              segments == [["cover", True, "true"], ["flat", False, "false"], ["stack", False, "false"]], str(segments))

        driver.find_element("css selector", "#sliders input[data-name=wrap]").click()
        s = wait_for(lambda s: value(s, "wrap") is False and s["settled"])
        alphas = driver.execute_script("return Array.prototype.map.call(document.querySelectorAll('.card'), "
                                       "function (c) { return c.style.display === 'none' ? null : c.style.opacity; })")
        check("the toggle sets the param to false: the script runs with it (alpha 0.5)",
              value(s, "wrap") is False and "0.5" in alphas and s["error"] is None, "%s %s" % (s["params"], alphas))
        driver.find_element("css selector", ".segments[data-name=style] button[data-option=flat]").click()
        s = wait_for(lambda s: value(s, "style") == "flat" and s["settled"])
        marked = driver.execute_script("return Array.prototype.map.call(document.querySelectorAll("
                                       "'.segments[data-name=style] button.on'), function (b) { return b.textContent; })")
        check("a segment sets the option", value(s, "style") == "flat" and marked == ["flat"], "%s %s" % (s["params"], marked))
        line = driver.execute_script("return document.getElementById('paramsline').textContent")
        check("the panel's --param line has the new kinds' values",
              line == "--param zoom=2 --param wrap=false --param style=flat --param %s=1" % LONG_NAME, repr(line))
        # Where the --param line breaks: the index of each character that starts a line.
        text, breaks, word_break = driver.execute_script(
            "var l = document.getElementById('paramsline');"
            "var walker = document.createTreeWalker(l, NodeFilter.SHOW_TEXT), range = document.createRange();"
            "var breaks = [], top = null, k = 0, node;"
            "while ((node = walker.nextNode())) { for (var i = 0; i < node.length; i++, k++) {"
            "  range.setStart(node, i); range.setEnd(node, i + 1); var r = range.getClientRects()[0];"
            "  if (r && top !== null && r.top > top + 1) { breaks.push(k); } if (r) { top = r.top; } } }"
            "return [l.textContent, breaks, getComputedStyle(l).wordBreak];")
        check("the --param line wraps between options only, never inside one (word-break %s)" % word_break,
              len(breaks) >= 1 and word_break != "break-all"
              and all(text.startswith("--param ", k) and text[k - 1] == " " for k in breaks), "%r breaks at %s" % (text, breaks))
        driver.find_element("id", "copyparams").click()
        block = driver.execute_script("return document.getElementById('copyparams').dataset.copied")
        check("Copy params keeps the kinds, options and labels exactly", block == (
            "params = {\n"
            "  zoom = { value = 2, min = 0, max = 5, step = 0.5, label = \"Viewpoint offset of the zoomed card, in points\" },\n"
            "  wrap = { value = false },\n"
            "  style = { value = \"flat\", options = { \"cover\", \"flat\", \"stack\" } },\n"
            "  %s = { value = 1, min = 0.5, max = 2 },\n"
            "}\n" % LONG_NAME), repr(block))
        if args.panel_screenshot:
            driver.save_screenshot(args.panel_screenshot)

        # Reset all: every param back to the script's values, in one go.
        driver.find_element("id", "resetall").click()
        s = wait_for(lambda s: value(s, "wrap") is True and value(s, "style") == "cover" and s["settled"])
        line = driver.execute_script("return document.getElementById('paramsline').textContent")
        check("Reset all brings back every declared value (wrap on, style cover), its button and the resets gone",
              [value(s, n) for n in ("zoom", "wrap", "style", LONG_NAME)] == [2, True, "cover", 1]
              and line == "--param zoom=2 --param wrap=true --param style=cover --param %s=1" % LONG_NAME
              and all(d for _, d in resets()), "%s %r %s" % (s["params"], line, resets()))

        # Export refuses a script with an options param: its file:line: message beside the
        # Export button (on its row, to its right), not over the stage, no code view.
        driver.find_element("id", "export").click()
        end, refusal = time.time() + WAIT, ""
        while time.time() < end and not refusal:
            refusal = driver.execute_script("var e = document.getElementById('exporterror'); return e.hidden ? '' : e.textContent")
            time.sleep(0.05)
        where = driver.execute_script("""
          var b = document.getElementById('export').getBoundingClientRect(), e = document.getElementById('exporterror').getBoundingClientRect();
          return { button: [b.left, b.top, b.right, b.bottom], error: [e.left, e.top, e.right, e.bottom],
                   stageError: !document.getElementById('error').hidden, code: !document.getElementById('codeview').hidden };
        """)
        b, e = where["button"], where["error"]
        check("an export refusal shows its file:line: message beside the Export button",
              re.match(re.escape(os.path.join(folder, "a-kinds.lua")) + r":\d+: export: params\.style: ", refusal) is not None
              and e[0] >= b[2] and e[0] - b[2] < 20 and e[1] < b[3] and e[1] >= b[1] - 4
              and not where["stageError"] and not where["code"], "%r %s" % (refusal, where))

        # A release (a short wheel scroll), so the panel has one to show.
        driver.execute_script("window.cardlua.stage.dispatchEvent(new WheelEvent('wheel', "
                              "{deltaX: 10, bubbles: true, cancelable: true}))")
        s = wait_for(lambda s: s["lastSnap"] and s["settled"])
        check("a wheel scroll is a release the panel shows", bool(s["lastSnap"]), str(s))

        # The picker: iPhone 15, item 2 centred, then the other script.
        driver.find_element("xpath", "//button[@data-w='393']").click()
        wait_for(lambda s: s["viewport"] == [393, 852] and s["settled"])
        for _ in range(3):   # the resize keeps item 1 centred: → until item 2 is
            if (state()["centredItem"] or [0, 0])[1] >= 2:
                break
            driver.execute_script("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}))")
            time.sleep(0.05)
            wait_for(lambda s: s["settled"])
        s = wait_for(lambda s: s["centredItem"] == [0, 2] and s["settled"])
        items = s["items"]
        check("→ centres item 2 before the switch", s["centredItem"] == [0, 2], str(s))
        from selenium.webdriver.support.ui import Select
        Select(driver.find_element("id", "picker")).select_by_value("b-narrow.lua")
        s = wait_for(lambda s: s["script"] == "b-narrow.lua" and s["settled"])
        check("picking keeps the viewport, the item count and the centred item",
              s["script"] == "b-narrow.lua" and s["viewport"] == [393, 852] and s["items"] == items
              and s["centredItem"] == [0, 2] and s["contentOffset"]["x"] == 240 + 50 - 196.5 and not s["params"],
              str(s))
        hidden = driver.execute_script("return document.getElementById('params').hidden")
        check("the new script's panel has no params section", hidden is True, str(hidden))
        release = driver.execute_script("return document.getElementById('release').textContent")
        check("picking does not carry the last script's release into the new one's panel",
              s["lastSnap"] is None and release == "none yet", "%s %r" % (s["lastSnap"], release))

        # Four → 50 ms apart: four items on, each press going on from the item the one
        # before it was sent to (item 2 → 6, at 120·6 + 50 − 196.5).
        for _ in range(4):
            driver.execute_script("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}))")
            time.sleep(0.05)
        s = wait_for(lambda s: s["settled"] and s["centredItem"] == [0, 6])
        text = driver.execute_script("return document.getElementById('centred').textContent")
        check("four → 50 ms apart move four items", s["centredItem"] == [0, 6]
              and s["contentOffset"]["x"] == 120 * 6 + 50 - 196.5 and text == "item 6 of %d" % items, "%s %r" % (s, text))
        # The watcher follows the pick: a save of b-narrow reloads.
        version = s["scriptVersion"]
        with open(os.path.join(folder, "b-narrow.lua"), "w") as f:
            f.write(PANEL_NARROW.replace("100, 500", "120, 500"))
        s = wait_for(lambda s: s["scriptVersion"] == version + 1)
        check("saving the picked script reloads it", s["scriptVersion"] == version + 1, str(s))

        # A port whose element query puts every card at the centre (iCarousel's cover flow,
        # item i centred at offset 200 i): the panel's centred item is the engine's, the one
        # `cardlua run --offset` marks, not the first card of the frame.
        driver.execute_script("window.cardlua.pick('c-coverflow.lua')")
        s = wait_for(lambda s: s["script"] == "c-coverflow.lua" and s["settled"])
        # Its params in groups by their first word (a word only one param starts with:
        # general), each in the script's order; a group folds and unfolds.
        groups = driver.execute_script("""
          var out = [], cur = null;
          Array.prototype.forEach.call(document.getElementById('sliders').children, function (e) {
            if (e.classList.contains('group')) { cur = [e.querySelector('.fold').textContent, []]; out.push(cur); }
            else if (cur) { cur[1].push(e.dataset.name); }
          });
          return out;
        """)
        check("the cover flow's params come in groups: general, viewpoint, fade", groups == [
            ["general", ["tilt", "spacing", "perspective", "wrap", "showBackfaces", "visibleItems", "decelerationRate", "pagingEnabled"]],
            ["viewpoint", ["viewpointOffsetX", "viewpointOffsetY"]],
            ["fade", ["fadeMin", "fadeMax", "fadeRange", "fadeMinAlpha"]]], str(groups))
        fold_js = ("return Array.prototype.map.call(document.querySelectorAll('.slider[data-group=\"g:fade\"] > label'), "
                   "function (l) { return l.getClientRects().length > 0; })")
        driver.find_element("css selector", '.group[data-group="g:fade"] .fold').click()
        folded = driver.execute_script(fold_js)
        driver.find_element("css selector", '.group[data-group="g:fade"] .fold').click()
        unfolded = driver.execute_script(fold_js)
        check("a group folds and unfolds", folded == [False] * 4 and unfolded == [True] * 4, "%s %s" % (folded, unfolded))
        # A group's reset: the viewpoint's two back to 0, the tilt (another group) kept.
        driver.execute_script("window.cardlua.setParam('viewpointOffsetX', 40); window.cardlua.setParam('tilt', 0.5)")
        s = wait_for(lambda s: value(s, "viewpointOffsetX") == 40 and value(s, "tilt") == 0.5 and s["settled"])
        driver.find_element("css selector", '.group[data-group="g:viewpoint"] .groupreset').click()
        s = wait_for(lambda s: value(s, "viewpointOffsetX") == 0 and s["settled"])
        check("a group's reset resets its params only", value(s, "viewpointOffsetX") == 0 and value(s, "tilt") == 0.5,
              str(s["params"]))
        driver.find_element("id", "resetall").click()
        s = wait_for(lambda s: value(s, "tilt") == 0.9 and s["settled"])
        k = round(s["contentOffset"]["x"] / 200) + 2
        for step in (1, 2):
            driver.execute_script("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}))")
            s = wait_for(lambda s: s["settled"] and s["contentOffset"]["x"] == 200 * (k - 2 + step))
        text = driver.execute_script("return document.getElementById('centred').textContent")
        check("the cover flow's centred item is the engine's (item k at offset 200 k)",
              s["contentOffset"]["x"] == 200 * k and s["centredItem"] == [0, k] and text == "item %d of %d" % (k, items),
              "%s %r" % (s, text))
    finally:
        play.stop()



def stage_checks(args, driver, check, tmp):
    """The stage uses the window: at widths from 800 to 1920 px it takes all the width the
    panel leaves (the panel at the right edge, clamp(300 px, 32 % of the window, 440 px)
    wide), and the viewport is drawn as large as the stage lets it (up to 2×, 16 px from
    its edges), centred; on a phone-narrow window the panel goes under the stage, which
    takes the width."""
    script = os.path.join(tmp, "stage.lua")
    shutil.copyfile(os.path.join(ROOT, "scripts", "effects", "icarousel-coverflow.lua"), script)
    play = Play(args.cardlua, script, ["--viewport", "852x393"])   # landscape: the width is what limits it
    measure_js = """
      var w = document.getElementById('wrap').getBoundingClientRect(), p = document.getElementById('panel').getBoundingClientRect();
      var d = window.cardlua.stage.getBoundingClientRect();
      return { inner: [innerWidth, innerHeight], wrap: [w.left, w.top, w.width, w.height], panel: [p.left, p.top, p.width, p.height],
               drawn: [d.left, d.top, d.width, d.height], scroll: document.documentElement.scrollWidth };
    """

    def measure(expect):
        """The page's boxes once the stage has been fitted (a resize is seen at the next frame)."""
        end, m = time.time() + WAIT, None
        while time.time() < end:
            m = driver.execute_script(measure_js)
            if expect(m):
                break
            time.sleep(0.05)
        return m

    def close(a, b, within=1.5):
        return abs(a - b) <= within

    try:
        driver.get(play.url)
        end = time.time() + WAIT
        while time.time() < end and not driver.execute_script("return window.cardlua && window.cardlua.state().settled"):
            time.sleep(0.05)
        widths = {}
        for width, height in [(800, 700), (1280, 800), (1600, 900), (1920, 1080)]:
            # The window's inner size exactly (a window manager's frame aside).
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

            def expected(m):
                iw, ih = m["inner"]
                panel = min(max(300, 0.32 * iw), 440)
                wrap_w, wrap_h = iw - 24 - 16 - panel, ih - 24
                k = min((wrap_w - 32) / 852, (wrap_h - 32) / 393, 2)
                return panel, wrap_w, wrap_h, 852 * k, 393 * k

            def fitted(m):
                panel, wrap_w, wrap_h, dw, dh = expected(m)
                return (m["inner"] == [width, height] and close(m["wrap"][2], wrap_w) and close(m["drawn"][2], dw, 1)
                        and close(m["drawn"][0] - m["wrap"][0], (wrap_w - dw) / 2, 1.5)
                        and close(m["drawn"][1] - m["wrap"][1], (wrap_h - dh) / 2, 1.5))
            m = measure(fitted)
            panel, wrap_w, wrap_h, dw, dh = expected(m)
            iw, ih = m["inner"]
            widths[width] = m["drawn"][2]
            check("at %d×%d the stage takes the width the panel leaves (%.0f px of %d), the viewport drawn %.0f px wide, centred"
                  % (iw, ih, m["wrap"][2], iw, m["drawn"][2]),
                  fitted(m) and close(m["wrap"][3], wrap_h) and close(m["panel"][2], panel)
                  and close(m["panel"][0] + m["panel"][2], iw - 12) and m["scroll"] <= iw, str(m))
        check("the stage grows with the window: wider at 1600 than at 1280 (%.0f → %.0f px), %.0f%% of the window at 1280"
              % (widths[1280], widths[1600], 100 * widths[1280] / 1280),
              widths[1600] > widths[1280] + 200 and widths[1280] > 0.6 * 1280, str(widths))

        # A phone-narrow window (390 pt, as --lan on a phone): the stage across the width,
        # the panel under it, nothing wider than the window.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 390, "height": 700, "deviceScaleFactor": 1, "mobile": True})

        def narrow(m):
            k = min((m["inner"][0] - 24) / 852, m["inner"][1] * 0.8 / 393, 2)
            return m["inner"][0] == 390 and close(m["drawn"][2], 852 * k, 1) and close(m["wrap"][2], 390 - 24)
        m = measure(narrow)
        check("on a phone-narrow window the stage takes the width, the panel under it", narrow(m)
              and m["panel"][1] >= m["wrap"][1] + m["wrap"][3] and close(m["drawn"][0], 12) and m["scroll"] <= 390, str(m))
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        play.stop()


MATRIX_EPS = 1e-9


def cards_checks(args, driver, check, tmp):
    """`play --cards --lan` opened as a phone would: the LAN URL with its token, images on
    the cards, touches dragging the collection view."""
    script = os.path.join(tmp, "cards.lua")
    shutil.copyfile(os.path.join(ROOT, "scripts", "lol.lua"), script)
    play = Play(args.cardlua, script, ["--cards", os.path.join(ROOT, "examples", "cards"),
                                       "--lan", "--lan-address", "127.0.0.2"])
    try:
        check("--lan prints the LAN URL with the token", play.lan_url ==
              play.url.replace("http://127.0.0.1:", "http://127.0.0.2:"), repr(play.lan_url))
        driver.get(play.lan_url)
        end, s = time.time() + WAIT, None
        while time.time() < end:
            s = driver.execute_script("return window.cardlua && window.cardlua.state()")
            pics = driver.execute_script("return document.querySelectorAll('.card .pic').length")
            if s and s["contentOffset"] is not None and pics:
                break
            time.sleep(0.05)
        shown = driver.execute_async_script("""
          var done = arguments[0];
          var cards = Array.prototype.filter.call(document.querySelectorAll('.card'), function (c) { return c.style.display !== 'none'; });
          var pic = cards.length && cards[0].querySelector('.pic');
          var url = pic ? getComputedStyle(pic).backgroundImage : '';
          var m = /url\\("(.*)"\\)/.exec(url), img = new Image();
          img.onload = function () { done([url, img.naturalWidth, cards[0].classList.contains('photo')]); };
          img.onerror = function () { done([url, 0, false]); };
          if (m) { img.src = m[1]; } else { done([url, 0, false]); }
        """)
        check("a card shows the folder's first image (served under the LAN URL, with the token)",
              play.lan_url + "cards/0" in shown[0] and shown[1] == 300 and shown[2], str(shown))
        look_js = """
          var cards = Array.prototype.filter.call(document.querySelectorAll('.card.photo'), function (c) {
            return getComputedStyle(c).display !== 'none'; });
          return cards.map(function (c) { var s = getComputedStyle(c), p = c.querySelector('.pic').getBoundingClientRect(),
                                              r = c.getBoundingClientRect();
            return [s.borderTopWidth, s.borderLeftWidth, s.backgroundColor, s.boxShadow,
                    Math.abs(p.width - r.width) < 0.5 && Math.abs(p.height - r.height) < 0.5]; });
        """

        def no_outline(looks):
            """No border (the picture covers the whole box), no fill under it, no 1 px ring
            (box-shadow 0 0 0 1px) but a transparent one; an appearance's shadow may stay."""
            def ring_free(shadow):
                return all(c == "rgba(0, 0, 0, 0)" for c in re.findall(r"(rgba?\([^)]*\)) 0px 0px 0px 1px", shadow))
            return bool(looks) and all(l[0] == "0px" and l[1] == "0px" and l[2] == "rgba(0, 0, 0, 0)" and l[4]
                                       and ring_free(l[3]) for l in looks)
        looks = driver.execute_script(look_js)
        check("no outline under the card images: no border, fill or ring, the picture the card's whole box",
              no_outline(looks), str(looks[:3]))
        touch = driver.execute_script("return getComputedStyle(window.cardlua.stage).touchAction")
        check("the viewport takes touches itself (touch-action: none)", touch == "none", touch)
        before = driver.execute_script("return window.cardlua.state().contentOffset.x")
        r = driver.execute_script("var r = window.cardlua.stage.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]")
        x, y = r[0] + r[2] * 0.8, r[1] + r[3] / 2
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for _ in range(12):
            x -= r[2] * 0.04
            driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
            time.sleep(0.016)
        if args.screenshot_cards:
            time.sleep(0.15)
            driver.save_screenshot(args.screenshot_cards)
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        end = time.time() + WAIT
        while time.time() < end:
            s = driver.execute_script("return window.cardlua.state()")
            if s["settled"]:
                break
            time.sleep(0.05)
        snapped = s["lastSnap"] and s["contentOffset"]["x"] == s["lastSnap"]["targetContentOffset"]["x"]
        check("a touch drag moves the collection view and the release snaps", s["settled"] and
              s["contentOffset"]["x"] > before + 100 and snapped, "offset %s → %s, snap %s" % (before, s["contentOffset"], s["lastSnap"]))
        refused = driver.execute_async_script("""
          var done = arguments[0];
          Promise.all([fetch('/state'), fetch('state')]).then(function (r) { done([r[0].status, r[1].status]); });
        """)
        check("the state without the token in its path is refused (403), under it answered",
              refused == [403, 200], str(refused))
        cookies = driver.get_cookies()
        check("no cookie is set (a host's cookies go to all its ports)", cookies == [], str(cookies))
        # The static preview's cards with the same images: the same look.
        preview = os.path.join(tmp, "preview.html")
        made = subprocess.run([args.cardlua, "run", script, "-o", preview, "--cards", os.path.join(ROOT, "examples", "cards")],
                              capture_output=True, text=True, timeout=120)
        driver.get("file://" + preview)
        looks = driver.execute_script(look_js)
        check("no outline under the card images of run's HTML preview either", made.returncode == 0 and no_outline(looks),
              "%s %s" % (made.stderr[-300:], looks[:3]))
    finally:
        play.stop()


def same_cards(drawn, run_frame):
    """Whether a frame the page drew (play's JSON: "o", and "c" cards [section, item, left,
    top, width, height, m11 … m44, alpha, zIndex, flags, …]) shows run's frame: the same
    items in the same order, places, transforms, alpha and zIndex (clamped as drawn) and
    hidden. Returns the first difference, or None."""
    o = run_frame["contentOffset"]
    if drawn["o"] != [o["x"], o["y"]]:
        return "offset %s, run %s" % (drawn["o"], o)
    cards, items = drawn["c"], run_frame["items"]
    if len(cards) != len(items):
        return "%d cards, run %d: %s vs %s" % (len(cards), len(items), [c[:2] for c in cards],
                                               [[i["section"], i["item"]] for i in items])

    def close(a, b):
        return abs(a - b) <= MATRIX_EPS * max(1.0, abs(b))

    for c, i in zip(cards, items):
        name = "item %d" % i["item"]
        if c[0] != i["section"] or c[1] != i["item"]:
            return "order: %s vs %s" % ([c[:2] for c in cards], [[i["section"], i["item"]] for i in items])
        if not (close(c[2], i["frame"]["x"] - o["x"]) and close(c[3], i["frame"]["y"] - o["y"])):
            return "%s place %s vs %s" % (name, c[2:4], i["frame"])
        if not all(close(a, b) for a, b in zip(c[6:22], i["transform3D"])):
            return "%s transform %s vs %s" % (name, c[6:22], i["transform3D"])
        if not close(c[22], min(max(i["alpha"], 0.0), 1.0)):
            return "%s alpha %s vs %s" % (name, c[22], i["alpha"])
        # CSS holds z-indices to about ±2^31; the frames hold them to ±2e9 (FrameWire).
        if c[23] != min(max(i["zIndex"], -2000000000), 2000000000) or bool(c[24] & 1) != i["hidden"]:
            return "%s zIndex/hidden %s %s vs %s %s" % (name, c[23], c[24] & 1, i["zIndex"], i["hidden"])
    return None


def catalogue(args, driver, check, tmp):
    """Every shipped script in play: open, a drag, a flick, a wheel gesture, a reload; each
    sampled drawn frame equals run's frame at its offset."""
    scripts = sorted(glob.glob(os.path.join(ROOT, "scripts", "*.lua"))) + \
        sorted(glob.glob(os.path.join(ROOT, "scripts", "effects", "*.lua")))
    if args.only:
        scripts = [p for p in scripts if args.only in os.path.basename(p)]
    folder = os.path.join(tmp, "catalogue")
    os.makedirs(folder, exist_ok=True)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    started = time.time()

    def state():
        return driver.execute_script("return window.cardlua.state()")

    def wait_for(predicate, timeout=WAIT):
        end = time.time() + timeout
        s = None
        while time.time() < end:
            s = state()
            if s and predicate(s):
                return s
            time.sleep(0.02)
        return s

    # A drag of `steps` moves of d points along the scroll axis every 16 ms, then a
    # pause (a rest: velocity 0) or none (a flick) before the lift.
    drag_js = """
      var steps = arguments[0], d = arguments[1], pause = arguments[2], done = arguments[arguments.length - 1];
      var st = window.cardlua.stage, s = window.cardlua.state(), r = st.getBoundingClientRect(), k = r.width / s.viewport[0];
      var x = r.left + r.width / 2, y = r.top + r.height / 2, i = 0, h = s.horizontal;
      function ev(type) { st.dispatchEvent(new PointerEvent(type, { pointerId: 5, bubbles: true, clientX: x, clientY: y, pointerType: 'touch' })); }
      ev('pointerdown');
      function step() {
        if (i++ < steps) { if (h) { x += d * k; } else { y += d * k; } ev('pointermove'); setTimeout(step, 16); }
        else { setTimeout(function () { ev('pointerup'); done(1); }, pause); }
      }
      setTimeout(step, 16);
    """
    wheel_js = """
      var n = arguments[0], d = arguments[1], done = arguments[arguments.length - 1], st = window.cardlua.stage, i = 0;
      var h = window.cardlua.state().horizontal;
      function step() {
        if (i++ < n) { st.dispatchEvent(new WheelEvent('wheel', {deltaX: h ? d : 0, deltaY: h ? 0 : d, bubbles: true, cancelable: true})); setTimeout(step, 16); }
        else { done(1); }
      }
      step();
    """
    def take():
        """The frames drawn since the last take, waiting for one at least (a frame the
        engine answered is drawn at the page's next display frame)."""
        frames, end = [], time.time() + WAIT
        while True:
            frames += driver.execute_script("return window.cardlua.drawn()")
            if frames or time.time() > end:
                return frames
            time.sleep(0.02)

    pending = []
    for path in scripts:
        name = os.path.relpath(path, os.path.join(ROOT, "scripts"))
        copy = os.path.join(folder, os.path.basename(path))
        with open(path) as f:
            source = f.read()
        with open(copy, "w") as f:
            f.write(source)
        play = Play(args.cardlua, copy)
        samples = {}   # what: [frames]
        try:
            driver.get(play.url)
            s = wait_for(lambda s: s["contentOffset"] is not None)
            samples["open"] = take()
            driver.execute_async_script(drag_js, 8, -15, 120)
            time.sleep(0.1)  # a little of the release; the flick's touch stops the rest
            samples["drag"] = take()
            driver.execute_async_script(drag_js, 5, -25, 0)
            time.sleep(0.2)
            samples["flick"] = take()
            driver.execute_async_script(wheel_js, 6, 20)
            time.sleep(0.25)  # the 100 ms pause ends the gesture, then some of the release
            samples["wheel"] = take()
            version = state()["scriptVersion"]
            with open(copy, "w") as f:
                f.write(source + "\n-- saved again\n")
            s = wait_for(lambda s: s["scriptVersion"] == version + 1)
            samples["reload"] = take()
            error = s["error"] if s else "no state"
            reloaded = s is not None and s["scriptVersion"] == version + 1
        finally:
            play.stop()
        # The frames to compare: the first drawn after each action and two more spread
        # through it, at most 13 per script.
        chosen = []
        for what, frames in samples.items():
            if frames:
                chosen += [(what, f) for f in [frames[0]] + frames[1:][::max(1, len(frames) // 2)][:2]]
        horizontal = s is not None and s.get("horizontal", True)
        offsets = sorted({(f["o"][0] if horizontal else f["o"][1], tuple(f["v"])) for _, f in chosen})

        def run_at(key, copy=copy):
            offset, viewport = key
            out = subprocess.run([args.cardlua, "run", copy, "--offset", repr(offset), "--format", "json",
                                  "--viewport", "%sx%s" % (viewport[0], viewport[1])],
                                 capture_output=True, text=True, timeout=120)
            if out.returncode != 0:
                return key, out.stderr.strip()[:300]
            return key, json.loads(out.stdout)["frames"][0]
        pending.append((name, samples, chosen, horizontal, offsets, reloaded, error,
                        [pool.submit(run_at, key) for key in offsets]))

    # run's frames were computed meanwhile (two at a time), while the browser went on.
    for name, samples, chosen, horizontal, offsets, reloaded, error, futures in pending:
        runs = dict(f.result() for f in futures)
        problems = []
        for what, f in chosen:
            key = (f["o"][0] if horizontal else f["o"][1], tuple(f["v"]))
            expected = runs.get(key)
            if isinstance(expected, str):
                problems.append("%s: run failed: %s" % (what, expected))
                continue
            difference = same_cards(f, expected)
            if difference:
                problems.append("%s frame at %s (%s): %s" % (what, f["o"], f["p"], difference))
        counts = " ".join("%s %d" % (k, len(v)) for k, v in samples.items())
        check("%s: %d drawn frames at %d offsets equal run's (%s)" % (name, len(chosen), len(offsets), counts),
              not problems and reloaded and not error and all(samples[k] for k in ("open", "drag", "reload")),
              "; ".join(problems[:2]) + ("" if reloaded else " not reloaded") + (" error %s" % error if error else ""))
    pool.shutdown()
    print("catalogue: %d scripts in %.0f s" % (len(scripts), time.time() - started))


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
