"""A headless Chromium driven through the DevTools protocol, with the standard library only.

Enough to test a page: load a file, collect script errors and console errors, press keys,
click elements with the mouse, read values with JavaScript, wait for a condition in the page
and take a screenshot. Every wait is bounded by a deadline; ``close`` (or leaving the ``with``
block) always ends the browser process and removes its profile directory.

``Chromium`` is the browser and its first tab; ``Chromium.new_page`` opens another tab (a
``Page``, with its own errors), so that several tests can share one browser, its start-up and
its cache (Chromium keeps the code it compiled for a script or a WebAssembly module it loaded
before from the same address).
"""

from __future__ import annotations

import base64
import fnmatch
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path
from collections.abc import Callable
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--remote-debugging-port=0",
    "--window-size=1280,900",
)

KEYS = {"ArrowLeft": 37, "ArrowRight": 39, "Home": 36, "End": 35}

WAIT_UNTIL = """new Promise(function (done, fail) {
  var check = function () { return (%s); }, observer = null, every = null, limit = null;
  function stop() { observer.disconnect(); clearInterval(every); clearTimeout(limit); }
  function test() {
    try { if (check()) { stop(); done(true); } } catch (error) { stop(); fail(error); }
  }
  observer = new MutationObserver(test);
  observer.observe(document, {subtree: true, childList: true, attributes: true,
                              characterData: true});
  every = setInterval(test, 50);
  limit = setTimeout(function () { stop(); done(false); }, %d);
  test();
})"""
"""``Page.wait_until``'s promise: true once the condition holds, false at the time limit."""


def find_chromium() -> str | None:
    """The path of a Chromium executable on this machine, or ``None``."""
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


class BrowserError(Exception):
    """The browser failed, refused a command or did not answer in time."""


class _WebSocket:
    """A minimal client side of RFC 6455: text frames out (masked), frames in, ping answered."""

    def __init__(self, url: str, timeout: float) -> None:
        parts = urlsplit(url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {parts.path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise BrowserError("the browser closed the connection during the handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise BrowserError(f"websocket handshake refused: {head[:200]!r}")

    def _exactly(self, count: int) -> bytes:
        while len(self.buffer) < count:
            chunk = self.sock.recv(max(65536, count - len(self.buffer)))
            if not chunk:
                raise BrowserError("the browser closed the connection")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        header = bytes([0x80 | opcode])
        size = len(payload)
        if size < 126:
            header += bytes([0x80 | size])
        elif size < 1 << 16:
            header += bytes([0x80 | 126]) + size.to_bytes(2, "big")
        else:
            header += bytes([0x80 | 127]) + size.to_bytes(8, "big")
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send(self, text: str) -> None:
        self._send_frame(0x1, text.encode("utf-8"))

    def receive(self) -> str:
        message = b""
        while True:
            first, second = self._exactly(2)
            opcode, size = first & 0x0F, second & 0x7F
            if size == 126:
                size = int.from_bytes(self._exactly(2), "big")
            elif size == 127:
                size = int.from_bytes(self._exactly(8), "big")
            mask = self._exactly(4) if second & 0x80 else b""
            data = self._exactly(size)
            if mask:
                data = bytes(byte ^ mask[index % 4] for index, byte in enumerate(data))
            if opcode == 0x8:
                raise BrowserError("the browser closed the websocket")
            if opcode == 0x9:
                self._send_frame(0xA, data)
                continue
            if opcode in (0x0, 0x1, 0x2):
                message += data
                if first & 0x80:
                    return message.decode("utf-8")

    def close(self) -> None:
        try:
            self._send_frame(0x8, b"")
        except OSError:
            pass
        self.sock.close()


class Page:
    """One tab of a headless Chromium, driven through the DevTools protocol: the script errors
    and console errors of what it shows are collected in ``errors``."""

    def __init__(self, timeout: float = 30.0) -> None:
        self.timeout = timeout
        self.errors: list[str] = []
        self.events: list[dict[str, Any]] = []
        self._next_id = 0
        self._unanswered: set[int] = set()  # commands sent without waiting for their answer
        self._answers: dict[str, Callable[[dict[str, Any]], None]] = {}
        self.socket: _WebSocket | None = None
        self._on_close: Callable[[], None] | None = None

    def _attach(self, url: str) -> None:
        """Connect to the tab whose DevTools websocket is ``url``; collect its errors."""
        self.socket = _WebSocket(url, self.timeout)
        for domain in ("Runtime", "Log", "Page"):
            self.call(f"{domain}.enable")

    def __enter__(self) -> Page:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the tab."""
        if self.socket is not None:
            self.socket.close()
            self.socket = None
        if self._on_close is not None:
            on_close, self._on_close = self._on_close, None
            on_close()

    # --- the protocol ----------------------------------------------------------------------

    def _receive(self, deadline: float) -> dict[str, Any]:
        if self.socket is None:
            raise BrowserError("the browser is closed")
        if time.monotonic() > deadline:
            raise BrowserError("the browser did not answer in time")
        message: dict[str, Any] = json.loads(self.socket.receive())
        if "method" in message:
            self._note(message)
        elif message.get("id") in self._unanswered:
            self._unanswered.discard(message["id"])
            if "error" in message:
                self.errors.append(f"a command the test sent failed: {message['error']}")
        return message

    def _note(self, event: dict[str, Any]) -> None:
        self.events.append(event)
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            text = details.get("exception", {}).get("description") or details.get("text", "")
            self.errors.append(f"uncaught exception: {text}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            values = [arg.get("value", arg.get("description", "")) for arg in params.get("args", [])]
            self.errors.append("console.error: " + " ".join(map(str, values)))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            self.errors.append("log: " + str(params["entry"].get("text", "")))
        elif method == "Fetch.requestPaused":
            url = params.get("request", {}).get("url", "")
            answer = next((self._answers[pattern] for pattern in self._answers
                           if fnmatch.fnmatchcase(url, pattern)), None)
            if answer is None:
                self._send("Fetch.continueRequest", requestId=params["requestId"])
            else:
                answer(params)

    def _send(self, method: str, **params: Any) -> int:
        """Send one command without waiting for its answer; its number."""
        if self.socket is None:
            raise BrowserError("the browser is closed")
        self._next_id += 1
        self.socket.send(json.dumps({"id": self._next_id, "method": method, "params": params}))
        return self._next_id

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        """Send one command and return its result (events that arrive meanwhile are noted)."""
        return self._call(method, params, self.timeout)

    def _call(self, method: str, params: dict[str, Any], seconds: float) -> dict[str, Any]:
        number = self._send(method, **params)
        deadline = time.monotonic() + seconds
        while True:
            message = self._receive(deadline)
            if message.get("id") == number:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result

    def wait_for(self, method: str) -> dict[str, Any]:
        """Wait for the next event ``method`` (one that already arrived counts)."""
        for index, event in enumerate(self.events):
            if event["method"] == method:
                del self.events[: index + 1]
                return event
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._receive(deadline)
            if message.get("method") == method:
                self.events.clear()
                return message

    # --- what a test does ------------------------------------------------------------------

    def open(self, path: Path) -> None:
        """Load a local file and wait for its load event."""
        self.events.clear()
        self.call("Page.navigate", url=path.resolve().as_uri())
        self.wait_for("Page.loadEventFired")

    def navigate(self, url: str) -> None:
        """Load ``url`` and wait for its load event."""
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (a thrown error fails); a promise
        is waited for, and its value is the value."""
        return self._evaluate(expression, self.timeout)

    def _evaluate(self, expression: str, seconds: float) -> Any:
        result = self._call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                 "awaitPromise": True}, seconds)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_until(self, condition: str, seconds: float) -> bool:
        """Whether the JavaScript expression ``condition`` became true within ``seconds``.

        The page itself tests it, at once, after every change of the document (a
        ``MutationObserver``) and every 50 ms, so the answer comes as soon as it holds, with no
        polling from here; an error that the expression throws fails."""
        return bool(self._evaluate(WAIT_UNTIL % (condition, round(seconds * 1000)),
                                   seconds + self.timeout))

    def answer(self, pattern: str, status: int, content_type: str, body: bytes) -> None:
        """Answer every request of the page whose address matches ``pattern`` (``*`` for any
        text) with ``body`` instead of loading it; other requests load as usual."""

        def fulfil(paused: dict[str, Any]) -> None:
            number = self._send(
                "Fetch.fulfillRequest", requestId=paused["requestId"], responseCode=status,
                responseHeaders=[{"name": "Content-Type", "value": content_type}],
                body=base64.b64encode(body).decode("ascii"))
            self._unanswered.add(number)

        self._answers[pattern] = fulfil
        self.call("Fetch.enable", patterns=[{"urlPattern": each} for each in self._answers])

    def press(self, key: str) -> None:
        """Press and release a key (``ArrowLeft``, ``ArrowRight``, ``Home``, ``End``)."""
        code = KEYS[key]
        for kind in ("rawKeyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=key,
                      windowsVirtualKeyCode=code, nativeVirtualKeyCode=code)

    def click(self, selector: str, scroll: bool = False) -> None:
        """Click the middle of the element ``selector`` with the mouse, as a person would (who
        scrolls it into view first with ``scroll``)."""
        box = self.evaluate(
            f"(function(){{var e=document.querySelector({json.dumps(selector)});"
            + ("e.scrollIntoView({block: 'center'});" if scroll else "")
            + "var r=e.getBoundingClientRect();return [r.left+r.width/2, r.top+r.height/2];})()"
        )
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                      clickCount=1)

    def screenshot(self, path: Path) -> None:
        """Save a PNG of the page's viewport."""
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))


class Chromium(Page):
    """A headless Chromium with one page, driven through the DevTools protocol; ``new_page``
    opens another."""

    def __init__(self, executable: str, timeout: float = 30.0) -> None:
        super().__init__(timeout)
        self.profile = Path(tempfile.mkdtemp(prefix="bottleimp-chromium-"))
        self.port: int | None = None
        self.process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            self._attach(self._page_url())
        except BaseException:
            self.close()
            raise

    def _page_url(self) -> str:
        deadline = time.monotonic() + self.timeout
        port_file = self.profile / "DevToolsActivePort"
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BrowserError(f"chromium exited with status {self.process.returncode}")
            if port_file.exists():
                lines = port_file.read_text().split()
                if lines:
                    try:
                        targets = self._http("GET", f"http://127.0.0.1:{lines[0]}/json/list")
                    except OSError:
                        targets = []
                    for target in targets:
                        if target.get("type") == "page" and "webSocketDebuggerUrl" in target:
                            self.port = int(lines[0])
                            return str(target["webSocketDebuggerUrl"])
            time.sleep(0.05)
        raise BrowserError(f"chromium did not open its DevTools port in {self.timeout} s")

    @staticmethod
    def _http(method: str, url: str) -> Any:
        """The JSON answer of the browser's DevTools HTTP endpoint ``url``."""
        request = urllib.request.Request(url, method=method)
        with urllib.request.urlopen(request, timeout=5) as answer:
            return json.load(answer)

    def new_page(self, timeout: float | None = None) -> Page:
        """A new tab (blank), with its own errors; closing it leaves the browser running."""
        if self.port is None or self.socket is None:
            raise BrowserError("the browser is closed")
        endpoint = f"http://127.0.0.1:{self.port}/json"
        target = self._http("PUT", f"{endpoint}/new?about:blank")
        page = Page(self.timeout if timeout is None else timeout)

        def close_tab() -> None:
            try:
                urllib.request.urlopen(f"{endpoint}/close/{target['id']}", timeout=5).close()
            except OSError:
                pass  # the browser is gone already

        page._on_close = close_tab
        try:
            page._attach(str(target["webSocketDebuggerUrl"]))
        except BaseException:
            page.close()
            raise
        return page

    def __enter__(self) -> Chromium:
        return self

    def close(self) -> None:
        """End the browser (its whole process group) and remove its profile."""
        if self.socket is not None:
            self.socket.close()
            self.socket = None
        # The browser leads its own process group (start_new_session): end the whole group, so
        # that no renderer or helper process outlives the test. (Chromium's crash handler runs
        # in a session of its own and exits by itself once the browser has gone.)
        group = self.process.pid
        self._signal(group, signal.SIGTERM)
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        deadline = time.monotonic() + 2
        while self._group_alive(group) and time.monotonic() < deadline:
            time.sleep(0.02)
        self._signal(group, signal.SIGKILL)
        if self.process.poll() is None:
            self.process.wait(timeout=5)
        shutil.rmtree(self.profile, ignore_errors=True)

    @staticmethod
    def _signal(group: int, number: signal.Signals) -> None:
        try:
            os.killpg(group, number)
        except (ProcessLookupError, PermissionError):
            pass

    @staticmethod
    def _group_alive(group: int) -> bool:
        """Whether a process of the group still runs. A process that has ended but that its
        parent has not reaped yet (a zombie, which holds no file) does not count: the browser's
        helpers are reaped by the system's init process, which may take a second or two."""
        try:
            os.killpg(group, 0)
        except (ProcessLookupError, PermissionError):
            return False
        try:
            entries = os.listdir("/proc")
        except OSError:
            return True  # no /proc to look in: a member of the group is still there
        for entry in entries:
            if not entry.isdigit():
                continue
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[-1].split()
            if len(fields) > 2 and fields[2] == str(group) and fields[0] != "Z":
                return True
        return False
