"""Drives the imock dashboard (/_imock/ui) in headless Chromium through the DevTools protocol.

Usage: python3 ui_check.py --port PORT --secret SECRET --chromium PATH --screenshots DIR

Started by scripts/ui-check.sh against `imock serve --clock virtual --app acme#chat:open
--app beta#test`. Devices are Python `websockets` clients speaking the /ws protocol of
docs/PROTOCOL.md; every button of the dashboard is clicked and its effect checked on the page,
in the event stream and on the device. Prints one line per step; exits 1 with the failed step.
"""
import argparse
import base64
import inspect
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

APP = "acme#chat"
STEP_TIMEOUT = 20.0


class Failure(Exception):
    """A step that did not do what it should."""


def step(text):
    print(f"ui-check: {text}", flush=True)


def wait_until(description, predicate, timeout=STEP_TIMEOUT):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise Failure(f"timed out after {timeout:.0f} s waiting for {description}")
        time.sleep(0.1)


# ---- Devices ---------------------------------------------------------------------------------

class Device:
    """A user registered over REST and logged in on /ws; records every frame and the close."""

    def __init__(self, port, user, os_name="ios", ttl=3600):
        self.user = user
        base = f"http://127.0.0.1:{port}/acme/chat"
        post(base + "/users", {"username": user, "password": "pw"})
        token = post(base + "/token", {"grant_type": "password", "username": user, "password": "pw", "ttl": ttl})
        self.ws = open_websocket(f"ws://127.0.0.1:{port}/ws")
        self.ws.send(json.dumps({
            "op": "login", "id": "1", "appKey": APP, "user": user, "token": token["access_token"],
            "device": {"os": os_name, "name": f"{user}'s phone", "uuid": f"{user}-uuid"}}))
        reply = json.loads(self.ws.recv(timeout=10))
        if reply.get("op") != "login.ok":
            raise Failure(f"{user} could not log in: {reply}")
        self.resource = reply["resource"]
        self.frames = []
        self.close_code = None
        self.closed = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        try:
            while True:
                self.frames.append(json.loads(self.ws.recv()))
        except ConnectionClosed as closed:
            self.close_code = closed.rcvd.code if closed.rcvd else 1006
        finally:
            self.closed.set()

    def ops(self):
        return [frame.get("op") for frame in self.frames]

    def expect_end(self, op, close_code):
        """Waits for the frame `op` (None: no frame) and the close `close_code`."""
        if not self.closed.wait(STEP_TIMEOUT):
            raise Failure(f"{self.user}'s device was not closed; frames {self.ops()}")
        if op is not None and op not in self.ops():
            raise Failure(f"{self.user}'s device got no {op} frame; frames {self.ops()}")
        if self.close_code != close_code:
            raise Failure(f"{self.user}'s device was closed with {self.close_code}, expected {close_code}")

    def close(self):
        self.ws.close()


# Everything here is on loopback: no proxy from the environment may stand in between.
LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def open_websocket(url, **options):
    """A connected sync client (entered as a context manager, as websockets ≥ 16 asks)."""
    if "proxy" in inspect.signature(connect).parameters:
        options["proxy"] = None
    return connect(url, open_timeout=10, **options).__enter__()


def post(url, body):
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST")
    try:
        with LOCAL.open(request, timeout=10) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        raise Failure(f"POST {url} answered {error.code}: {error.read().decode(errors='replace')}") from None


# ---- The browser -----------------------------------------------------------------------------

class Browser:
    """Headless Chromium with one page, driven over its DevTools WebSocket."""

    def __init__(self, chromium, profile):
        arguments = [
            chromium, "--headless=new", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
            "--disable-extensions", "--disable-background-networking", "--disable-sync", "--mute-audio",
            "--hide-scrollbars", "--remote-debugging-port=0", f"--user-data-dir={profile}", "about:blank"]
        if os.geteuid() == 0:
            arguments.insert(1, "--no-sandbox")  # Chromium refuses to run its sandbox as root
        self.log_path = os.path.join(profile, "chromium.log")
        self.process = subprocess.Popen(
            arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=open(self.log_path, "wb"))
        port_file = os.path.join(profile, "DevToolsActivePort")
        wait_until("Chromium's DevTools port", lambda: os.path.exists(port_file) and open(port_file).read().count("\n") >= 1, 30)
        port = open(port_file).read().split("\n")[0]
        targets = wait_until("a page target", lambda: [
            target for target in json.load(LOCAL.open(f"http://127.0.0.1:{port}/json/list", timeout=5))
            if target["type"] == "page"], 15)
        self.ws = open_websocket(targets[0]["webSocketDebuggerUrl"], max_size=None)
        self.next_id = 0
        self.problems = []
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")

    def send(self, method, params=None, timeout=STEP_TIMEOUT):
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params or {}}))
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise Failure(f"Chromium did not answer {method} within {timeout:.0f} s")
            try:
                message = json.loads(self.ws.recv(timeout=remaining))
            except TimeoutError:
                raise Failure(f"Chromium did not answer {method} within {timeout:.0f} s") from None
            if message.get("id") == ident:
                if "error" in message:
                    raise Failure(f"{method} failed: {message['error']}")
                return message["result"]
            self._note(message)

    def _note(self, message):
        """Keeps every script exception, console error and CSP or network error of the page."""
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.problems.append(f"exception: {details.get('exception', {}).get('description', details.get('text'))}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.problems.append("console.error: " + " ".join(str(arg.get("value", arg.get("description"))) for arg in params["args"]))
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            self.problems.append(f"{entry['source']}: {entry['text']} {entry.get('url', '')}")

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in result:
            raise Failure(f"script error in {expression!r}: {result['exceptionDetails'].get('text')}")
        return result["result"].get("value")

    def wait(self, description, expression, timeout=STEP_TIMEOUT):
        return wait_until(description, lambda: self.evaluate(expression), timeout)

    def click(self, selector, description):
        found = self.evaluate(
            f"(() => {{ const el = document.querySelector({json.dumps(selector)});"
            " if (!el || el.disabled || el.offsetParent === null) return false;"
            " el.scrollIntoView({block: 'center'}); el.click(); return true; })()")
        if not found:
            raise Failure(f"no visible, enabled {description} ({selector}) to click")

    def choose(self, selector, value):
        self.evaluate(
            f"(() => {{ const el = document.querySelector({json.dumps(selector)}); el.value = {json.dumps(value)};"
            " el.dispatchEvent(new Event('change', {bubbles: true})); })()")

    def text(self, selector):
        return self.evaluate(f"document.querySelector({json.dumps(selector)})?.textContent ?? null")

    def navigate(self, url):
        self.send("Page.navigate", {"url": url})
        self.wait("the page to load", "document.readyState === 'complete'")

    def viewport(self, width, height, mobile):
        self.send("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})

    def screenshot(self, path):
        """The whole page, not just the viewport."""
        metrics = self.send("Page.getLayoutMetrics")
        size = metrics["cssContentSize"]
        shot = self.send("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}})
        with open(path, "wb") as file:
            file.write(base64.b64decode(shot["data"]))

    def close(self):
        try:
            self.ws.close()
        finally:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


# ---- The check -------------------------------------------------------------------------------

def row(table, **data):
    attributes = "".join(f'[data-{name.replace("_", "-")}="{value}"]' for name, value in data.items())
    return f"#{table} tbody tr{attributes}"


def exists(selector):
    return f"document.querySelector({json.dumps(selector)}) !== null"


def result_says(fragment):
    return (f"document.getElementById('result').dataset.state === 'ok'"
            f" && document.getElementById('result-text').textContent.includes({json.dumps(fragment)})")


def expect_ok(browser, fragment, description):
    browser.wait(f"the result of {description} ({fragment})", result_says(fragment))
    step(f"  {browser.text('#result-text')[:160]}")


def run(browser, port, secret, screenshots):
    base = f"http://127.0.0.1:{port}/_imock/ui"
    browser.viewport(1366, 900, False)

    step("page without a secret asks for one")
    browser.navigate(base)
    browser.wait("the secret form", "!document.getElementById('login').hidden && document.getElementById('board').hidden")
    browser.evaluate("document.getElementById('secret').value = 'wrong'")
    browser.click("#login-form button[type=submit]", "open-dashboard button")
    browser.wait("the refusal", "document.getElementById('login-error').textContent.includes('401')")
    browser.evaluate(f"document.getElementById('secret').value = {json.dumps(secret)}")
    browser.click("#login-form button[type=submit]", "open-dashboard button")
    browser.wait("the board after the form", "!document.getElementById('board').hidden")
    browser.problems.clear()  # the wrong secret's 401 was expected

    step("secret from the URL fragment, which the page then removes")
    browser.evaluate("sessionStorage.clear()")
    browser.navigate("about:blank")
    browser.navigate(f"{base}#secret={secret}")
    browser.wait("the board", "!document.getElementById('board').hidden && document.getElementById('board').dataset.refreshedAt")
    if browser.evaluate("location.hash") != "":
        raise Failure("the secret stayed in the address bar")
    browser.wait("app acme#chat selected", f"document.getElementById('app-select').value === '{APP}'")
    browser.wait("the event stream open", "document.getElementById('stream-state').dataset.state === 'open'")

    step("switch app and back")
    browser.choose("#app-select", "beta#test")
    browser.wait("beta#test's settings", "document.getElementById('settings-app').textContent === 'beta#test'")
    browser.choose("#app-select", APP)
    browser.wait("acme#chat's settings", f"document.getElementById('settings-app').textContent === '{APP}'")
    browser.wait("the event stream open again", "document.getElementById('stream-state').dataset.state === 'open'")

    step("a device logs in and is listed")
    alice = Device(port, "alice")
    browser.wait("alice's session", exists(row("sessions", user="alice", resource=alice.resource)))
    browser.wait("alice's dialect (imock JSON) in her row",
                 f"document.querySelector({json.dumps(row('sessions', user='alice'))}).cells[3].textContent === 'imock'")
    browser.wait("alice's login in the event stream", exists(f'#events li[data-op="login.ok"][data-resource="{alice.resource}"]'))

    step("kick it with code 206 from the page")
    browser.choose("#kick-code", "206")
    browser.click(row("sessions", user="alice") + " button[data-action=kick]", "Kick button")
    expect_ok(browser, '"kicked":["' + alice.resource + '"]', "the kick")
    browser.wait("the kick in the event stream", exists(f'#events li[data-op="kicked"][data-resource="{alice.resource}"]'))
    browser.wait("alice's session gone", f"!({exists(row('sessions', user='alice'))})")
    browser.wait("the kick listed with its code", exists(row("kicks", code="206", resource=alice.resource)))
    alice.expect_end("kicked", 4206)

    step("advance the clock past a 10-minute token")
    bob = Device(port, "bob", os_name="android", ttl=600)
    browser.wait("bob's session", exists(row("sessions", user="bob")))
    browser.wait("bob's live token", exists(row("tokens", subject="bob", state="live")))
    before = browser.text("#clock-now")
    browser.choose("#advance-amount", "600000")
    browser.click("#advance", "Advance button")
    expect_ok(browser, "clock/advance → 200", "the advance")
    browser.wait("the clock moved", f"document.getElementById('clock-now').textContent !== {json.dumps(before)}")
    browser.wait("token.expired in the event stream", exists(f'#events li[data-op="token.expired"][data-resource="{bob.resource}"]'))
    browser.wait("bob's token shown expired", exists(row("tokens", subject="bob", state="expired")))
    browser.wait("bob's session gone", f"!({exists(row('sessions', user='bob'))})")
    bob.expect_end("token.expired", 4108)
    browser.choose("#token-state", "expired")
    browser.wait("only expired tokens listed", "[...document.querySelectorAll('#tokens tbody tr[data-state]')]"
                 ".every(r => r.dataset.state === 'expired') && document.querySelector('#tokens tbody tr[data-state]') !== null")
    browser.choose("#token-state", "")

    step("expire a user's token from the page")
    carol = Device(port, "carol")
    browser.wait("carol's session", exists(row("sessions", user="carol")))
    browser.click(row("sessions", user="carol") + " button[data-action=expire]", "Expire token button")
    expect_ok(browser, '"expired":["' + carol.resource + '"]', "the token expiry")
    browser.wait("carol's token revoked", exists(row("tokens", subject="carol", state="revoked")))
    carol.expect_end("token.expired", 4108)

    step("black-hole a connection, then clear the fault")
    dave = Device(port, "dave")
    browser.wait("dave's session", exists(row("sessions", user="dave")))
    browser.click(row("sessions", user="dave") + " button[data-action=blackhole]", "Black-hole button")
    expect_ok(browser, '"kind":"blackhole"', "the black-hole")
    browser.wait("the black-hole listed", exists(row("faults", kind="blackhole")))
    browser.click(row("faults", kind="blackhole") + " button[data-action=clear-fault]", "Clear button")
    expect_ok(browser, '"cleared":[', "clearing the fault")
    browser.wait("no fault listed", f"!({exists('#faults tbody tr[data-fault-id]')})")

    step("drop a connection")
    browser.click(row("sessions", user="dave") + " button[data-action=drop]", "Drop button")
    expect_ok(browser, '"kind":"drop"', "the drop")
    browser.wait("dave's session gone", f"!({exists(row('sessions', user='dave'))})")
    dave.expect_end(None, 1006)

    step("freeze and resume the clock")
    browser.click("#clock-toggle[data-action=resume]", "Resume button")
    expect_ok(browser, '"frozen":false', "resume")
    browser.wait("the clock shown flowing", "document.getElementById('clock-mode').dataset.state === 'flowing'")
    browser.click("#clock-toggle[data-action=freeze]", "Freeze button")
    expect_ok(browser, '"frozen":true', "freeze")
    browser.wait("the clock shown frozen", "document.getElementById('clock-mode').dataset.state === 'frozen'")

    step("screenshots at laptop and phone width")
    erin = Device(port, "erin", os_name="windows")
    frank = Device(port, "frank", os_name="web")
    browser.wait("erin's and frank's sessions", exists(row("sessions", user="erin")) + " && " + exists(row("sessions", user="frank")))
    browser.choose("#kick-code", "217")
    browser.click(row("sessions", user="erin") + " button[data-action=kick]", "Kick button")
    expect_ok(browser, '"kicked":["' + erin.resource + '"]', "the kick")
    browser.wait("erin's kick listed", exists(row("kicks", code="217", resource=erin.resource)))
    browser.click(row("sessions", user="frank") + " button[data-action=blackhole]", "Black-hole button")
    expect_ok(browser, '"kind":"blackhole"', "the black-hole")
    browser.wait("the black-hole listed", exists(row("faults", kind="blackhole")))
    os.makedirs(screenshots, exist_ok=True)
    browser.evaluate("window.scrollTo(0, 0)")
    browser.screenshot(os.path.join(screenshots, "dashboard-laptop.png"))
    browser.viewport(390, 844, True)
    browser.wait("the phone layout (one column)", "getComputedStyle(document.querySelector('.grid')).gridTemplateColumns.split(' ').length === 1")
    if browser.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1"):
        raise Failure("the page is wider than a 390 px phone screen")
    browser.screenshot(os.path.join(screenshots, "dashboard-phone.png"))
    browser.viewport(1366, 900, False)
    step(f"  wrote {screenshots}/dashboard-laptop.png and dashboard-phone.png")

    step("clear all faults")
    browser.click("#clear-faults", "Clear all faults button")
    expect_ok(browser, "faults → 200", "clearing all faults")
    browser.wait("no fault listed", f"!({exists('#faults tbody tr[data-fault-id]')})")

    step("reset the app (two clicks)")
    browser.click("#reset-app", "Reset app button")
    browser.wait("the confirmation", "document.getElementById('reset-app').dataset.armed === 'true'")
    browser.click("#reset-app", "Reset app button")
    expect_ok(browser, '"reset":"acme#chat"', "the reset")
    frank.expect_end("kicked", 4207)
    browser.wait("no users after the reset", f"!({exists('#users tbody tr[data-user]')})")
    browser.wait("no sessions after the reset", f"!({exists('#sessions tbody tr[data-user]')})")

    step("clear the event list")
    browser.click("#events-clear", "Clear list button")
    browser.wait("an empty event list", "document.getElementById('events').children.length === 0")

    step("forget the secret")
    browser.click("#sign-out", "Forget secret button")
    browser.wait("the secret form again", "!document.getElementById('login').hidden && sessionStorage.getItem('imock.adminSecret') === null")

    if browser.problems:
        raise Failure("the page reported errors:\n  " + "\n  ".join(browser.problems))
    step("no script errors, console errors or CSP violations")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", required=True, type=int)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--screenshots", required=True)
    options = parser.parse_args()
    profile = tempfile.mkdtemp(prefix="imock-ui-check-")
    browser = None
    try:
        browser = Browser(options.chromium, profile)
        run(browser, options.port, options.secret, options.screenshots)
    except (Failure, OSError, ConnectionClosed) as failure:
        print(f"ui-check: FAILED: {failure}", file=sys.stderr)
        if browser and browser.problems:
            print("ui-check: page errors so far:\n  " + "\n  ".join(browser.problems), file=sys.stderr)
        return 1
    finally:
        if browser:
            browser.close()
        shutil.rmtree(profile, ignore_errors=True)
    step("passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
