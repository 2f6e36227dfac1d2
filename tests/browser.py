"""A headless Chromium driven over the DevTools protocol (aiohttp WebSocket, no extra package).

Started with ``--headless --no-sandbox --disable-gpu --disable-background-networking`` and an
empty user-data-dir; the DevTools endpoint listens on 127.0.0.1 only; everything is bounded in
time and the browser is killed on exit.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


class Browser:
    def __init__(self, exe: str) -> None:
        self.exe = exe
        self._dir = tempfile.TemporaryDirectory(ignore_cleanup_errors=True)
        self._next = 0

    async def __aenter__(self) -> Browser:
        self.proc = subprocess.Popen(
            [
                self.exe,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-extensions",
                "--no-first-run",
                "--remote-debugging-address=127.0.0.1",
                "--remote-debugging-port=0",
                f"--user-data-dir={self._dir.name}",
                "--window-size=1280,1600",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its helper processes die with it
        )
        port_file = Path(self._dir.name) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not port_file.exists() or "\n" not in port_file.read_text():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("chromium did not start its DevTools endpoint")
            await asyncio.sleep(0.05)
        port = int(port_file.read_text().split()[0])
        self.session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30))
        async with self.session.get(f"http://127.0.0.1:{port}/json/list") as r:
            pages = [t for t in await r.json() if t.get("type") == "page"]
        self.ws = await self.session.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0)
        await self.send("Page.enable")
        await self.send("Runtime.enable")
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.ws.close()
        await self.session.close()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self._dir.cleanup()

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        self._next += 1
        mid = self._next
        await self.ws.send_str(json.dumps({"id": mid, "method": method, "params": params}))
        while True:
            msg = await asyncio.wait_for(self.ws.receive(), 30)
            data = json.loads(msg.data)
            if data.get("id") == mid:
                if "error" in data:
                    raise RuntimeError(f"{method}: {data['error']}")
                return dict(data.get("result") or {})

    async def eval(self, expression: str) -> Any:
        r = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"JS error in {expression!r}: {r['exceptionDetails']}")
        return r["result"].get("value")

    async def open(self, url: str) -> None:
        await self.send("Page.navigate", url=url)
        deadline = time.monotonic() + 30
        while await self.eval("document.readyState") != "complete":
            if time.monotonic() > deadline:
                raise RuntimeError(f"{url} did not finish loading")
            await asyncio.sleep(0.05)

    async def screenshot(self, path: Path, full_page: bool = True) -> None:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            size = await self.eval(
                "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
            )
            params["clip"] = {
                "x": 0,
                "y": 0,
                "width": size[0],
                "height": min(size[1], 6000),
                "scale": 1,
            }
            params["captureBeyondViewport"] = True
        r = await self.send("Page.captureScreenshot", **params)
        path.write_bytes(base64.b64decode(r["data"]))
