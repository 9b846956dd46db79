#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A minimal headless-Chromium driver over the DevTools protocol on a pipe
(--remote-debugging-pipe: commands on fd 3, replies on fd 4, each message
NUL-terminated JSON), standard library only. Opens one page with the
network cut off, and records console errors, exceptions and every request
the page makes."""
import json
import os
import shutil
import subprocess
import tempfile
import time


class BrowserError(Exception):
    pass


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise BrowserError("no chromium on PATH: install Debian's chromium "
                       "package (scripts/deps.sh does)")


class Page:
    def __init__(self, width=1000, height=1400, timeout=60):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="iospd-html-chromium-")
        to_chrome_r, self._w = os.pipe()
        self._r, from_chrome_w = os.pipe()
        # Chromium reads fd 3 and writes fd 4.
        def setup():
            # via fds 10 and 11, in case a pipe end already is 3 or 4
            os.dup2(to_chrome_r, 10)
            os.dup2(from_chrome_w, 11)
            os.dup2(10, 3)
            os.dup2(11, 4)
        args = [find_chromium(), "--headless", "--no-sandbox", "--disable-gpu",
                "--remote-debugging-pipe", "--user-data-dir=" + self.profile,
                # networking off: no name resolves, every proxy is nowhere
                "--host-resolver-rules=MAP * ~NOTFOUND",
                "--proxy-server=http://127.0.0.1:9", "--no-first-run",
                "--disable-background-networking", "--disable-sync",
                "--disable-component-update", "--disable-default-apps",
                "--disable-extensions", "--mute-audio",
                "--hide-scrollbars", "--force-color-profile=srgb",
                "--window-size=%d,%d" % (width, height), "about:blank"]
        self.proc = subprocess.Popen(args, pass_fds=(),
                                     preexec_fn=setup, close_fds=False,
                                     stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._id = 0
        self.events = []
        self.session = None
        target = self.call("Target.createTarget", {"url": "about:blank"})
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target["targetId"],
                                  "flatten": True})["sessionId"]
        for domain in ("Runtime", "Log", "Network", "Page"):
            self.call(domain + ".enable", {})

    def _read(self):
        deadline = time.time() + self.timeout
        while b"\0" not in self._buf:
            if time.time() > deadline:
                raise BrowserError("chromium did not answer within %ds"
                                   % self.timeout)
            chunk = os.read(self._r, 1 << 16)
            if not chunk:
                err = self.proc.stderr.read().decode(errors="replace")
                raise BrowserError("chromium exited: " + err[-2000:])
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params, session=True):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        while True:
            m = self._read()
            if m.get("id") == self._id:
                if "error" in m:
                    raise BrowserError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def wait_event(self, method):
        for e in self.events:
            if e["method"] == method:
                return e
        deadline = time.time() + self.timeout
        while time.time() < deadline:
            m = self._read()
            if "method" in m:
                self.events.append(m)
                if m["method"] == method:
                    return m
        raise BrowserError("no %s within %ds" % (method, self.timeout))

    def open(self, url):
        self.call("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")
        # let late scripts and requests show up
        self.evaluate("new Promise(r => setTimeout(r, 300))", True)

    def evaluate(self, expr, await_promise=False):
        r = self.call("Runtime.evaluate", {"expression": expr,
                                           "returnByValue": True,
                                           "awaitPromise": await_promise})
        if "exceptionDetails" in r:
            raise BrowserError("script failed: %s" % r["exceptionDetails"])
        return r["result"].get("value")

    def screenshot(self):
        import base64
        r = self.call("Page.captureScreenshot", {"format": "png",
                                                  "captureBeyondViewport": True})
        return base64.b64decode(r["data"])

    def console_errors(self):
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.exceptionThrown":
                out.append("exception: %s" % p.get("exceptionDetails"))
            elif (e["method"] == "Runtime.consoleAPICalled"
                  and p.get("type") in ("error", "assert")):
                out.append("console.%s: %s" % (p.get("type"), p.get("args")))
            elif (e["method"] == "Log.entryAdded"
                  and p.get("entry", {}).get("level") == "error"):
                out.append("log: %s" % p["entry"].get("text"))
        return out

    def requests(self):
        return [e["params"]["request"]["url"] for e in self.events
                if e["method"] == "Network.requestWillBeSent"]

    def close(self):
        try:
            self.call("Browser.close", {}, session=False)
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._w)
        os.close(self._r)
        shutil.rmtree(self.profile, ignore_errors=True)
