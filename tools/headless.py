"""Driving Debian's headless Chromium like a player: open a page, click where a button is, read
the DOM, take screenshots. The DevTools protocol over `--remote-debugging-pipe` (commands on the
browser's fd 3, answers on its fd 4, each JSON message ended by a NUL byte): no WebDriver, no
websocket, nothing downloaded. The browser is the one tools/par/browser.py finds
(`make browser-tools` installs it)."""
from __future__ import annotations

import base64
import fcntl
import json
import os
import subprocess
import tempfile
import threading
import time
from typing import Any, Callable

from tools.par import browser


class HeadlessError(RuntimeError):
    pass


class Chromium:
    def __init__(self, width: int = 1100, height: int = 900, timeout: float = 30.0):
        exe = browser.find()
        if exe is None:
            raise HeadlessError("no headless Chromium: make browser-tools (apt-get install -y --no-install-recommends "
                                + " ".join(browser.PACKAGES) + ")")
        self.timeout = timeout
        self._profile = tempfile.TemporaryDirectory(prefix="jeton-chromium-")
        cmd_r, self._cmd_w = os.pipe()  # we write, the browser reads on its fd 3
        self._ans_r, ans_w = os.pipe()  # the browser writes on its fd 4, we read

        def fds() -> None:  # in the child: the pipes onto fds 3 and 4, whatever numbers they had
            a, b = fcntl.fcntl(cmd_r, fcntl.F_DUPFD, 10), fcntl.fcntl(ans_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)  # inheritable; every other descriptor of ours is not (PEP 446)
            os.dup2(b, 4)
            os.close(a)
            os.close(b)

        args = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--disable-dev-shm-usage", "--disable-extensions", "--user-data-dir=" + self._profile.name,
                "--remote-debugging-pipe", "--window-size=%d,%d" % (width, height), "about:blank"]
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, preexec_fn=fds, close_fds=False)
        os.close(cmd_r)
        os.close(ans_w)
        self._next = 0
        self._answers: dict[int, dict] = {}
        self._cond = threading.Condition()
        self._closed = False
        self._stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self._stderr.extend(self.proc.stderr or []), daemon=True).start()
        target = self._call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self._session = self._call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        self.call("Page.enable")
        self.call("Runtime.enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    # --- the protocol ------------------------------------------------------------------------------
    def _read(self) -> None:
        buf = b""
        with os.fdopen(self._ans_r, "rb", buffering=0) as f:
            while True:
                chunk = f.read(65536)
                if not chunk:
                    break
                buf += chunk
                *msgs, buf = buf.split(b"\0")
                for m in msgs:
                    d = json.loads(m)
                    if "id" in d:
                        with self._cond:
                            self._answers[d["id"]] = d
                            self._cond.notify_all()
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _call(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        with self._cond:
            self._next += 1
            n = self._next
        msg: dict[str, Any] = {"id": n, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._cmd_w, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        with self._cond:
            while n not in self._answers:
                left = deadline - time.monotonic()
                if self._closed or left <= 0:
                    raise HeadlessError("chromium gave no answer to %s: %s" % (
                        method, b"".join(self._stderr)[-1500:].decode(errors="replace")))
                self._cond.wait(left)
            d = self._answers.pop(n)
        if "error" in d:
            raise HeadlessError("%s: %s" % (method, d["error"]))
        return d["result"]

    def call(self, method: str, params: dict | None = None) -> dict:
        return self._call(method, params, self._session)

    # --- what a player does ------------------------------------------------------------------------
    def open(self, url: str) -> None:
        self.call("Page.navigate", {"url": url})
        self.wait(lambda: self.js("document.readyState") == "complete", "the page loaded")

    def js(self, expression: str) -> Any:
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise HeadlessError("%s: %s" % (expression, r["exceptionDetails"]))
        return r["result"].get("value")

    def wait(self, cond: Callable[[], Any], what: str, timeout: float | None = None) -> Any:
        """Polls cond (a page change has no event to wait on from here) until it holds."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            v = cond()
            if v:
                return v
            if time.monotonic() > deadline:
                raise TimeoutError("the page never showed " + what)
            time.sleep(0.05)

    def box(self, selector: str) -> dict:
        """The element's box in page pixels: {left, top, right, bottom}."""
        b = self.js("(() => { const e = document.querySelector(%s); if (!e) return null;"
                    " const r = e.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right,"
                    " bottom: r.bottom}; })()" % json.dumps(selector))
        if b is None:
            raise HeadlessError("no element " + selector)
        return b

    def click(self, selector: str) -> None:
        """A mouse press and release in the middle of the element, as a finger or a mouse would."""
        self.js("document.querySelector(%s).scrollIntoView({block: 'center'})" % json.dumps(selector))
        b = self.box(selector)
        x, y = (b["left"] + b["right"]) / 2, (b["top"] + b["bottom"]) / 2
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def screenshot(self, clip: dict | None = None) -> bytes:
        """A PNG of the viewport, or of a box {left, top, right, bottom} of the page."""
        params: dict[str, Any] = {"format": "png"}
        if clip:
            params["clip"] = {"x": clip["left"], "y": clip["top"], "width": clip["right"] - clip["left"],
                              "height": clip["bottom"] - clip["top"], "scale": 1}
        return base64.b64decode(self.call("Page.captureScreenshot", params)["data"])

    def close(self) -> None:
        try:
            self._call("Browser.close")
        except (HeadlessError, OSError):
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        os.close(self._cmd_w)
        self._profile.cleanup()
