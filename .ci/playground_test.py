"""Headless Chromium test of the browser playground (web/): draws on the page with real mouse
clicks, reads the page's answer (`<pre id="answer">`, the library compiled to WebAssembly) and
compares it with the `gridbits` command line's --json for the same grid and command.
Usage: playground_test.py SCREENSHOT.png (run by .ci/playground-test, from the repository root).
"""

import functools
import http.server
import json
import subprocess
import sys
import tempfile
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

CELL = 22  # web/app.js


def serve(folder):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def cli(args, grid):
    """The command line's JSON for `grid` (text on standard input)."""
    out = subprocess.run(
        ["cargo", "run", "--release", "-q", "--", *args, "--json"],
        input=grid, capture_output=True, text=True, check=True,
    ).stdout
    return json.loads(out)


class Page:
    def __init__(self, driver):
        self.d = driver

    def select(self, id_, value):
        Select(self.d.find_element(By.ID, id_)).select_by_value(value)

    def click_cells(self, cells):
        """Real mouse clicks at the centres of the cells (x, y) of the canvas."""
        rect = self.d.execute_script(
            "const r = document.getElementById('board').getBoundingClientRect();"
            "return [r.left, r.top];")
        for x, y in cells:
            a = ActionBuilder(self.d)
            a.pointer_action.move_to_location(int(rect[0] + x * CELL + CELL // 2),
                                              int(rect[1] + y * CELL + CELL // 2))
            a.pointer_action.click()
            a.perform()

    def state(self):
        text = lambda id_: self.d.find_element(By.ID, id_).get_attribute("textContent")
        return text("grid"), text("option"), json.loads(text("answer"))


def same(name, page, expected, skip=()):
    """Every key of the page's answer (but `skip`) equals the command line's."""
    assert "error" not in page, f"{name}: page error {page['error']}"
    for key, value in page.items():
        if key in skip:
            continue
        assert key in expected, f"{name}: the CLI has no key {key!r}"
        assert value == expected[key], f"{name}: {key} differs:\npage {value}\ncli  {expected[key]}"
    print(f"ok {name}: {', '.join(k for k in page if k not in skip)} equal to the CLI's")


def main():
    shot = sys.argv[1]
    server = serve("web")
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    profile = tempfile.mkdtemp(prefix="gridbits-chromium-")
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={profile}", "--window-size=1100,1000"]:
        opts.add_argument(flag)
    driver = webdriver.Chrome(options=opts, service=Service("/usr/bin/chromedriver"))
    try:
        driver.get(url)
        WebDriverWait(driver, 30).until(
            lambda d: d.execute_script("return document.body.dataset.ready === '1'"))
        p = Page(driver)

        # fill: clear the board, draw a wall across, a gap in it, the start cell.
        p.select("mode", "fill")
        driver.find_element(By.ID, "clear").click()
        p.select("tool", "#")
        p.click_cells([(x, 6) for x in range(0, 20)] + [(19, y) for y in range(0, 6)])
        p.click_cells([(7, 6)])  # a second click erases: the gap
        p.select("tool", "start")
        p.click_cells([(3, 2)])
        grid, option, answer = p.state()
        assert option == "3,2", option
        assert grid.count("#") == 25, grid
        same("fill", answer, cli(["fill", "--from", option], grid))

        # distance: two sources.
        p.select("mode", "distance")
        p.select("tool", "A")
        p.click_cells([(2, 1), (25, 15)])
        p.select("tool", "#")
        p.click_cells([(x, 12) for x in range(10, 30)])
        for moves in ["4", "8", "queen"]:
            p.select("moves", moves)
            grid, option, answer = p.state()
            same(f"distance --moves {moves}", answer, cli(["distance", "--moves", moves], grid))

        # voronoi: three players.
        p.select("mode", "voronoi")
        p.select("tool", "B")
        p.click_cells([(28, 3)])
        p.select("tool", "C")
        p.click_cells([(5, 17)])
        for moves in ["4", "queen"]:
            p.select("moves", moves)
            grid, option, answer = p.state()
            same(f"voronoi --moves {moves}", answer, cli(["voronoi", "--moves", moves], grid))
            if moves == "4":
                driver.save_screenshot(shot)
                print(f"screenshot: {shot}")

        # reach of the pieces (the sources), rook and bishop.
        p.select("mode", "reach")
        for moves in ["rook", "bishop"]:
            p.select("moves", moves)
            grid, option, answer = p.state()
            same(f"reach --moves {moves}", answer, cli(["reach", "--moves", moves], grid))

        # labels: components of everything drawn.
        p.select("mode", "labels")
        grid, option, answer = p.state()
        same("labels", answer, cli(["components", "--summary"], grid), skip=("labels",))

        # puyo: the built-in field plus one red puyo, step by step.
        p.select("mode", "puyo")
        p.select("tool", "R")
        p.click_cells([(3, 10)])
        grid, option, answer = p.state()
        expected = cli(["puyo"], grid)
        same("puyo", answer, expected, skip=("steps",))
        steps = [{k: s[k] for k in ("cleared", "groups", "score")} for s in answer["steps"]]
        want = [{k: s[k] for k in ("cleared", "groups", "score")} for s in expected["steps"]]
        assert steps == want, f"puyo steps differ:\npage {steps}\ncli  {want}"
        assert answer["chain"] >= 1, answer
        print(f"ok puyo: {answer['chain']}-chain, steps equal to the CLI's")

        # tetris: the placements of each piece.
        p.select("mode", "tetris")
        p.select("tool", "#")
        p.click_cells([(0, 15), (1, 15)])
        for piece in "TIOSZJL":
            p.select("piece", piece)
            grid, option, answer = p.state()
            same(f"tetris --moves {piece}", answer, cli(["tetris", "--moves", piece], grid))
    finally:
        driver.quit()
        server.shutdown()


if __name__ == "__main__":
    t = time.time()
    main()
    print(f"playground test passed in {time.time() - t:.1f} s")
