"""A small DevTools-protocol client for headless Chromium (Debian's `chromium`).

Opens a local file in a fresh headless browser, records every console message, uncaught
exception, log entry and network request, and evaluates expressions in the page. The browser
listens on 127.0.0.1 on a port it picks itself (port 0) and is killed when the session ends.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

CHROMIUM = "/usr/bin/chromium"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
)
_LISTENING = re.compile(r"DevTools listening on (ws://\S+)")


def chromium() -> str | None:
    """The Chromium binary, or None when it is not installed."""
    if os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    return shutil.which("chromium")


@dataclass
class Page:
    """What happened while a page was open."""

    socket: ClientConnection
    session: str
    console: list[dict[str, Any]] = field(default_factory=list)
    exceptions: list[dict[str, Any]] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    _next: int = 100

    def send(
        self, method: str, params: dict[str, Any] | None = None, timeout: float = 30
    ) -> dict[str, Any]:
        self._next += 1
        ident = self._next
        self.socket.send(
            json.dumps(
                {"id": ident, "method": method, "params": params or {}, "sessionId": self.session}
            )
        )
        deadline = time.monotonic() + timeout
        while True:
            message = self._receive(deadline)
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result

    def wait_for(self, event: str, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self._receive(deadline)
            if message.get("method") == event:
                params: dict[str, Any] = message.get("params", {})
                return params

    def evaluate(self, expression: str) -> Any:
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: Path, width: int = 1280) -> None:
        """A PNG of the whole page (for looking at the report, not for asserting on)."""
        import base64

        height = int(self.evaluate("document.documentElement.scrollHeight"))
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        shot = self.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
        path.write_bytes(base64.b64decode(shot["data"]))

    def capture(self, path: Path | None = None) -> bytes:
        """A PNG of what the viewport shows now (at the window's size, device scale 1)."""
        import base64

        shot = self.send("Page.captureScreenshot", {"format": "png"})
        data = base64.b64decode(shot["data"])
        if path is not None:
            path.write_bytes(data)
        return data

    def click(self, x: float, y: float) -> None:
        """A real mouse click (pressed and released) at viewport coordinates."""
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.send(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1},
            )

    def wait_until(self, expression: str, timeout: float = 30) -> Any:
        """The value of `expression` once it is truthy (polled), or TimeoutError."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.05)
        raise TimeoutError(f"never true: {expression}")

    def _receive(self, deadline: float) -> dict[str, Any]:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError("Chromium did not answer in time")
        message: dict[str, Any] = json.loads(self.socket.recv(timeout=remaining))
        method = message.get("method")
        params = message.get("params", {})
        if method == "Runtime.consoleAPICalled":
            self.console.append(params)
        elif method == "Runtime.exceptionThrown":
            self.exceptions.append(params)
        elif method == "Log.entryAdded":
            self.log.append(params["entry"])
        elif method == "Network.requestWillBeSent":
            self.requests.append(params["request"]["url"])
        return message


def _wait_for_group(group: int, timeout: float = 10) -> None:
    """Until no process of `group` is left (a killed group's members exit asynchronously)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)


@contextmanager
def open_page(path: Path | str, width: int = 1280, height: int = 900) -> Iterator[Page]:
    """Load `path` (a file, or a URL given as a string) in a fresh headless Chromium; yield
    the page once it has loaded."""
    binary = chromium()
    assert binary is not None, "chromium is not installed"
    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        # Its own process group: the renderer and helper processes die with the browser
        # before the profile folder is removed (they write into it until they exit).
        process = subprocess.Popen(
            [
                binary,
                *FLAGS,
                f"--user-data-dir={profile}",
                f"--window-size={width},{height}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            assert process.stderr is not None
            browser_url = None
            deadline = time.monotonic() + 60
            while browser_url is None and time.monotonic() < deadline:
                line = process.stderr.readline()
                if not line and process.poll() is not None:
                    break
                match = _LISTENING.search(line)
                browser_url = match.group(1) if match else None
            assert browser_url, "Chromium did not start its DevTools endpoint"
            with connect(browser_url, max_size=None, open_timeout=30) as socket:
                socket.send(
                    json.dumps(
                        {"id": 1, "method": "Target.createTarget", "params": {"url": "about:blank"}}
                    )
                )
                target = _answer(socket, 1)["targetId"]
                socket.send(
                    json.dumps(
                        {
                            "id": 2,
                            "method": "Target.attachToTarget",
                            "params": {"targetId": target, "flatten": True},
                        }
                    )
                )
                page = Page(socket, _answer(socket, 2)["sessionId"])
                for domain in ("Runtime", "Log", "Network", "Page"):
                    page.send(f"{domain}.enable")
                url = path if isinstance(path, str) else path.resolve().as_uri()
                page.send(
                    "Emulation.setDeviceMetricsOverride",
                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                )
                page.send("Page.navigate", {"url": url})
                page.wait_for("Page.loadEventFired")
                yield page
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
            _wait_for_group(process.pid)
            if process.stderr is not None:
                process.stderr.close()


def _answer(socket: ClientConnection, ident: int) -> dict[str, Any]:
    while True:
        message = json.loads(socket.recv(timeout=30))
        if message.get("id") == ident:
            result: dict[str, Any] = message["result"]
            return result


def section_table(html: Path, section: str, screenshot: Path) -> str | None:
    """The text of the first table after heading `#section` of report `html` as Chromium
    shows it (a screenshot of the section written to `screenshot`), after checking the page
    raised and logged nothing; None when Chromium is not installed (a failure when
    PACKETBENCH_REQUIRE_BROWSER is set)."""
    if chromium() is None:
        assert not os.environ.get("PACKETBENCH_REQUIRE_BROWSER"), (
            "PACKETBENCH_REQUIRE_BROWSER is set but chromium is not installed"
        )
        return None
    with open_page(html) as page:
        shown: str = page.evaluate(
            f"Array.from(document.querySelectorAll('#{section} ~ table'))[0].innerText"
        )
        page.evaluate(f"document.getElementById('{section}').scrollIntoView()")
        page.screenshot(screenshot)
        problems = page.exceptions + [
            m for m in page.console if m.get("type") in ("error", "warning", "assert")
        ]
    assert problems == []
    return shown


# What of a page a 1280 px screen would not show: the page wider than the window (it scrolls
# sideways), a table cell past the right edge of the box that scrolls it (a cut column), a
# cell whose content is wider than the cell. The document pane of the viewer (#viewer) pans a
# zoomed page or a wide workbook by design, and is left out; so are cells not shown (another
# tab, a folded section).
CUT = """(() => {
    const found = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
        found.push(`the page scrolls sideways: ${root.scrollWidth} px in ${root.clientWidth}`);
    }
    const frameOf = (node) => {
        for (let at = node.parentElement; at; at = at.parentElement) {
            const style = getComputedStyle(at);
            if (["auto", "scroll", "hidden"].includes(style.overflowX)) return at;
        }
        return null;
    };
    for (const cell of document.querySelectorAll("th, td")) {
        if (cell.closest("#viewer") || !cell.getClientRects().length) continue;
        const box = cell.getBoundingClientRect();
        const frame = frameOf(cell);
        const right = frame
            ? Math.min(frame.getBoundingClientRect().left + frame.clientWidth, root.clientWidth)
            : root.clientWidth;
        const name = (cell.textContent || "").trim().slice(0, 40);
        if (box.right > right + 1) {
            found.push(`cut column: "${name}" ends at ${Math.round(box.right)} px, ` +
                       `its frame at ${Math.round(right)}`);
        }
        if (cell.scrollWidth > cell.clientWidth + 1) {
            found.push(`cut cell: "${name}" needs ${cell.scrollWidth} px, ` +
                       `has ${cell.clientWidth}`);
        }
    }
    return found;
})()"""


def cut(page: Page) -> list[str]:
    """What of the page open in `page` its window does not show (`CUT`); [] when it all fits."""
    found: list[str] = page.evaluate(CUT)
    return found
