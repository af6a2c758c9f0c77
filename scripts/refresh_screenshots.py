"""Refresh the pictures in docs/screenshots/ on purpose (tests never write there).

    .venv/bin/python scripts/refresh_screenshots.py [--app] [--svg] [--out DIR]

``--app`` (docs/screenshots/app/): starts a real ``fourfold serve`` on 127.0.0.1 with a
temporary ``--data`` folder, and Debian's Chromium (Playwright). A person plays each
ruleset a few moves against bots through the API, then its page is photographed as a
laptop (1280x860) and a phone (390x844, touch) show it, the window only (what is in
sight without scrolling): ``<game>-<variant>-desktop.png`` and ``-phone.png``. Then a
won Folio game, the end of a cooperative Quatrefoil game, a replay, the lobby and a
rules page. ``--svg`` (docs/screenshots/svg/): the drawings alone
(scripts/screenshot_svgs.py). Without either flag, both. ``--out DIR`` writes the
app's pictures to DIR instead, to look at them first.

Look at every picture before committing it (``git diff --stat docs/screenshots``).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "docs" / "screenshots" / "app"
SVG = ROOT / "docs" / "screenshots" / "svg"
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
LAPTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
#: a picture over this many bytes is refused (the docs stay small)
MAX_BYTES = 150_000
#: the person's moves before each ruleset's table is photographed
PLIES = 4
#: every wait on the server or the page, in seconds
WAIT = 40.0

JSON = dict[str, Any]


def wait_for(what: str, check: Callable[[], Any], seconds: float = WAIT) -> Any:
    """Poll ``check`` until it returns something truthy, for at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise RuntimeError(f"waited {seconds:.0f} s in vain for {what}")
        time.sleep(0.1)


#: the per-address limits this script would meet (about twenty tables from one address
#: in a minute), raised where this build of ``fourfold serve`` has them
LIMITS = {"--max-bot-tables-per-address": "1000", "--max-tables-per-address": "1000",
          "--max-lobby-tables-per-address": "1000", "--tables-per-minute": "1000"}


class Server:
    """``fourfold serve`` on a free loopback port, with quick bots for turn play and
    slow ones in real time (Dual), so the person's moves can be made first."""

    def __init__(self, data: Path) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = (data / "server.log").open("w")
        serve = [sys.executable, "-m", "fourfold.cli.main", "serve"]
        offered = subprocess.run([*serve, "--help"], capture_output=True, text=True,
                                 check=True, cwd=ROOT).stdout
        limits = [part for flag, value in LIMITS.items() if flag in offered
                  for part in (flag, value)]
        self.process = subprocess.Popen(
            [*serve, "--port", str(self.port), "--data", str(data), "--bot-pace", "0.2",
             "--real-time-bot-pace", "20", "--no-warm-up", *limits],
            stdout=self.log, stderr=subprocess.STDOUT, cwd=ROOT)

        def up() -> bool:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {(data / 'server.log').read_text()}")
            with contextlib.suppress(httpx.HTTPError):
                return httpx.get(self.url + "/ui/app.js", timeout=2).status_code == 200
            return False
        wait_for("the server to start", up)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)
        self.log.close()

    def create(self, game: str, variant: str, seats: list[str]) -> JSON:
        r = httpx.post(self.url + "/api/tables", json={"game": game, "variant": variant,
                                                        "seats": seats}, timeout=30)
        r.raise_for_status()
        made: JSON = r.json()
        return made

    def state(self, table: str, token: str | None = None) -> JSON:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = httpx.get(f"{self.url}/api/tables/{table}", headers=headers, timeout=30)
        r.raise_for_status()
        found: JSON = r.json()
        return found

    def move(self, table: str, token: str, move: str, version: int) -> None:
        r = httpx.post(f"{self.url}/api/tables/{table}/moves", json={"move": move,
                       "version": version}, headers={"Authorization": f"Bearer {token}"},
                       timeout=30)
        r.raise_for_status()


def quiet(legal: list[str]) -> list[str]:
    """The moves that neither stack nor challenge (they may end the game at once)."""
    return [m for m in legal if "stack" not in m and m != "challenge"] or legal


def keeps_going(state: JSON, rng: random.Random) -> str:
    """A random quiet move after which the game goes on: in Folio freeform, one that
    leaves a 4x4 grid fitting the pieces (else the bot challenges and wins at once)."""
    moves = quiet(state["legal"])
    rng.shuffle(moves)
    if state["variant"] != "freeform":
        return moves[0]
    import fourfold

    game = fourfold.load(state["game"], state["variant"], **state["options"])
    position = game.parse_position(state["view"]["position"])
    return next((m for m in moves if game.play(position, m).broken is None), moves[0])


def my_turn(server: Server, table: str, token: str) -> JSON:
    """The seat's state once it may act or the game is over."""
    def ready() -> JSON | None:
        state = server.state(table, token)
        return state if state["legal"] or state["outcome"] else None
    found: JSON = wait_for("the seat's turn", ready)
    return found


def play_as(server: Server, made: JSON, seat: int, plies: int, rng: random.Random,
            choose: Callable[[JSON], str] | None = None) -> JSON:
    """``seat`` makes ``plies`` moves (random quiet ones, or ``choose``'s), the bots
    answering; returns the seat's state after the last answer."""
    table, token = made["id"], made["seats"][seat]["token"]
    state = my_turn(server, table, token)
    for _ in range(plies):
        if state["outcome"]:
            break
        move = choose(state) if choose else keeps_going(state, rng)
        server.move(table, token, move, state["version"])
        wait_for("the move", lambda v=state["version"]: server.state(table)["version"] > v)
        state = my_turn(server, table, token)
    return state


def winning_first(rng: random.Random) -> Callable[[JSON], str]:
    """A move that wins at once if there is one, else a random quiet one (placement)."""
    import fourfold

    def choose(state: JSON) -> str:
        game = fourfold.load(state["game"], state["variant"], **state["options"])
        position = game.parse_position(state["view"]["position"])
        for text in state["legal"]:
            if text == "challenge":
                continue
            ended = game.outcome(game.play(position, text))
            if ended is not None and ended.winner == state["you"]:
                return str(text)
        return str(rng.choice(quiet(state["legal"])))
    return choose


class Camera:
    """Chromium pages at laptop and phone size, saved as small PNGs in ``out``."""

    def __init__(self, browser: Any, out: Path) -> None:
        self.browser = browser
        self.out = out
        self.taken: list[Path] = []

    @contextlib.contextmanager
    def page(self, url: str, phone: bool) -> Iterator[Any]:
        context = self.browser.new_context(viewport=PHONE if phone else LAPTOP,
                                           is_mobile=phone, has_touch=phone)
        context.set_default_timeout(WAIT * 1000)
        try:
            page = context.new_page()
            page.goto(url)
            yield page
        finally:
            context.close()

    def shoot(self, page: Any, name: str) -> None:
        from PIL import Image

        page.evaluate("() => document.fonts.ready")
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => "
                      "requestAnimationFrame(r)))")
        page.wait_for_timeout(400)  # the last move's animation (0.3 s) has ended
        path = self.out / f"{name}.png"
        page.screenshot(path=str(path))
        with Image.open(path) as shot:
            small = shot.convert("RGB").quantize(colors=160)
        small.save(path, optimize=True)
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise RuntimeError(f"{path.name} is {size} bytes (over {MAX_BYTES})")
        self.taken.append(path)
        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} {size // 1024} KB")

    def both(self, url: str, name: str, ready: str) -> None:
        """The page at ``url`` as a laptop and a phone show it, once ``ready`` (a CSS
        selector) is on it."""
        for phone in (False, True):
            with self.page(url, phone) as page:
                page.wait_for_selector(ready)
                self.shoot(page, f"{name}-{'phone' if phone else 'desktop'}")


RULESETS = [("folio", "standard"), ("folio", "fixed-grid"), ("folio", "no-grid"),
            ("folio", "freeform"), ("quarto", "standard"), ("dao", "standard"),
            ("icedao", "standard"), ("quatrefoil", "base"), ("quatrefoil", "nothing-to-hide"),
            ("quatrefoil", "half-and-half"), ("quatrefoil", "race-the-clock"),
            ("quatrefoil", "dual")]


def plies_for(game: str, variant: str) -> int:
    """The person's moves before a table is photographed: fewer where the bots may win
    or solve within a few (freeform's bot lines up four of a random person's pieces)."""
    return 1 if game == "quatrefoil" else 2 if variant == "freeform" else PLIES


def bots_for(game: str, variant: str) -> list[str]:
    if game == "quatrefoil":
        return ["bot:quatrefoil"] * 3
    return ["bot:freeform" if variant == "freeform" else "bot:level1"]


def tables(server: Server, camera: Camera) -> None:
    """Each ruleset a few moves in, the person to move (a new table and other moves
    when the game ended first: the bots of Quatrefoil may solve a deal in four)."""
    for game, variant in RULESETS:
        plies = plies_for(game, variant)
        for seed in range(6):
            made = server.create(game, variant, ["human", *bots_for(game, variant)])
            state = play_as(server, made, 0, plies, random.Random(seed))
            if not state["outcome"]:
                break
        url = server.url + made["seats"][0]["url"]
        camera.both(url, f"{game}-{variant}", f'#board[data-version="{state["version"]}"] svg')


def endings(server: Server, camera: Camera) -> None:
    """A won Folio game (two people, each taking a win when one is there), its replay,
    and the end of a cooperative Quatrefoil game (the person stacks when no bot has)."""
    rng = random.Random(7)
    made = server.create("folio", "standard", ["human", "human"])
    table = made["id"]
    choose = winning_first(rng)
    state = server.state(table)
    for _ in range(40):
        if state["outcome"]:
            break
        seat = state["to_act"][0]
        token = made["seats"][seat]["token"]
        mine = server.state(table, token)
        server.move(table, token, choose(mine), mine["version"])
        state = server.state(table)
    winner = state["outcome"]["winner"] if state["outcome"] else None
    if winner is None:
        raise RuntimeError(f"the Folio game did not end in a win: {state['outcome']}")
    camera.both(server.url + made["seats"][winner]["url"], "folio-standard-won",
                "#banner:not([hidden])")
    with camera.page(f"{server.url}/replay/{table}", False) as page:
        page.wait_for_selector("#replay-board svg")
        camera.shoot(page, "folio-standard-replay-desktop")
    made = server.create("quatrefoil", "base", ["human", *bots_for("quatrefoil", "base")])
    state = play_as(server, made, 0, 6, rng)
    if not state["outcome"]:
        stack = next(m for m in state["legal"] if "stack" in m)
        server.move(made["id"], made["seats"][0]["token"], stack, state["version"])
        wait_for("the end", lambda: server.state(made["id"])["outcome"])
    camera.both(server.url + made["seats"][0]["url"], "quatrefoil-base-end",
                "#banner:not([hidden])")


def pages(server: Server, camera: Camera) -> None:
    """The lobby (with a table waiting for a player) and a rules page."""
    server.create("icedao", "standard", ["human", "open"])
    camera.both(server.url + "/", "lobby", "#lobby-list li")
    with camera.page(server.url + "/rules/icedao", False) as page:
        page.wait_for_selector("#pictures figure img")
        camera.shoot(page, "rules-icedao-desktop")


def refresh_app(out: Path) -> int:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        print(f"{CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 1
    out.mkdir(parents=True, exist_ok=True)
    print("refreshing", out.relative_to(ROOT) if out.is_relative_to(ROOT) else out)
    with tempfile.TemporaryDirectory() as data:
        server = Server(Path(data))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                camera = Camera(browser, out)
                tables(server, camera)
                endings(server, camera)
                pages(server, camera)
                browser.close()
        finally:
            server.stop()
    return 0


def refresh_svg() -> int:
    print("refreshing", SVG.relative_to(ROOT))
    command = [sys.executable, str(ROOT / "scripts" / "screenshot_svgs.py"), str(SVG)]
    return subprocess.run(command, cwd=ROOT, check=False).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--app", action="store_true", help="the browser app's screenshots")
    parser.add_argument("--svg", action="store_true", help="the SVG drawings' screenshots")
    parser.add_argument("--out", type=Path, default=APP,
                        help="where the app's screenshots go (default docs/screenshots/app)")
    args = parser.parse_args(argv)
    both = not (args.app or args.svg)
    status = 0
    if args.app or both:
        status = refresh_app(args.out.resolve()) or status
    if args.svg or both:
        status = refresh_svg() or status
    return status


if __name__ == "__main__":
    sys.exit(main())
