#!/usr/bin/env python3
"""Take a screenshot of every page of the documentation in a headless browser.

Builds the site (``mkdocs build --strict``) into a temporary folder (or uses ``--site DIR``),
serves it on localhost, and has headless Chromium take one PNG per page at the given window
size, so that a person can look at every page as a reader's browser draws it::

    python scripts/screenshots.py --width 360 --out /tmp/shots-360
    python scripts/screenshots.py --width 1280 --height 2400 --pages index rules/tricks

Each Chromium run is bounded by ``--timeout`` seconds and killed if it overruns. Prints one line
per page (the PNG written, or why not) and exits 1 if any page failed. Needs Chromium
(Debian: ``apt-get install chromium``; ``--chromium PATH`` names another binary).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def build_site(site: Path) -> None:
    """``mkdocs build --strict`` of the repository into ``site``."""
    environment = dict(os.environ, PYTHONPATH=str(REPO), NO_MKDOCS_2_WARNING="1")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
        cwd=REPO, env=environment, check=True, timeout=600,
    )


def pages(site: Path) -> list[str]:
    """The site's pages as paths below its root (``""`` for the home page, ``"rules/tricks/"``),
    without the 404 page."""
    found = []
    for index in sorted(site.rglob("index.html")):
        relative = index.parent.relative_to(site).as_posix()
        found.append("" if relative == "." else relative + "/")
    return found


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base's name)
        pass


@contextlib.contextmanager
def serve(site: Path) -> Iterator[str]:
    """Serve ``site`` on a free localhost port while the block runs; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def find_chromium(name: str | None = None) -> str | None:
    """The Chromium binary: ``name`` if given, else the first of the usual names on the PATH."""
    if name:
        return shutil.which(name) or (name if Path(name).is_file() else None)
    for candidate in CHROMIUM_NAMES:
        found = shutil.which(candidate)
        if found:
            return found
    return None


BROWSER_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)


def run_chromium(chromium: str, arguments: list[str], timeout: float) -> tuple[int, bytes, bytes]:
    """Run headless Chromium with a fresh profile in its own process group: ``(exit status,
    stdout, stderr)``. ``subprocess.TimeoutExpired`` if it overruns ``timeout`` seconds; the
    browser and every helper process it started are killed either way."""
    with tempfile.TemporaryDirectory(prefix="bottleimp-chromium-") as profile:
        command = [chromium, *BROWSER_FLAGS, f"--user-data-dir={profile}", *arguments]
        process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
        )
        try:
            out, errors = process.communicate(timeout=timeout)
        finally:
            _kill(process)
    return process.returncode, out, errors


def screenshot(
    chromium: str, url: str, out: Path, width: int, height: int, timeout: float
) -> str | None:
    """One PNG of ``url`` at ``width`` x ``height``; ``None``, or why it failed."""
    try:
        status, _, errors = run_chromium(
            chromium,
            [f"--window-size={width},{height}", "--virtual-time-budget=5000", f"--screenshot={out}", url],
            timeout,
        )
    except subprocess.TimeoutExpired:
        return f"timed out after {timeout:g} s"
    if not out.is_file() or out.stat().st_size == 0:
        last = errors.decode(errors="replace").strip().splitlines()[-1:] or ["no output"]
        return f"no screenshot (exit {status}): {last[0]}"
    return None


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill the browser's process group (the helper processes it started), then reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--width", type=int, default=1280, help="window width in CSS pixels")
    parser.add_argument("--height", type=int, default=900, help="window height in CSS pixels")
    parser.add_argument("--out", type=Path, default=Path("screenshots"),
                        help="folder for the PNG files (default ./screenshots)")
    parser.add_argument("--site", type=Path, help="an already built site (skips the build)")
    parser.add_argument("--pages", nargs="*", metavar="PAGE",
                        help="only these pages (index, rules/tricks, ...)")
    parser.add_argument("--chromium", help="the Chromium binary (default: found on the PATH)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per page (default 60)")
    args = parser.parse_args(argv)
    chromium = find_chromium(args.chromium)
    if chromium is None:
        print("screenshots: no Chromium found (apt-get install chromium)", file=sys.stderr)
        return 2
    with contextlib.ExitStack() as stack:
        site = args.site
        if site is None:
            site = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bottleimp-site-")))
            build_site(site)
        wanted = {page.strip("/") for page in args.pages or ()}
        selected = [
            page for page in pages(site)
            if not wanted or (page.strip("/") or "index") in wanted
        ]
        args.out.mkdir(parents=True, exist_ok=True)
        base = stack.enter_context(serve(site))
        failed = 0
        for page in selected:
            name = (page.strip("/").replace("/", "-") or "index") + f"-{args.width}.png"
            out = args.out / name
            out.unlink(missing_ok=True)
            why = screenshot(chromium, base + page, out, args.width, args.height, args.timeout)
            if why is None:
                print(f"{out}")
            else:
                failed += 1
                print(f"{page or 'index'}: {why}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
