"""How long `towerlab serve`'s hints take: three served games each of a
2-player `tower` and a 6-player `black-tower` (seeds 1 to 3), a person's
seat asking a hint at every question and taking its option, the other
seats greedy; prints each variant's median and longest hint, and the
median by kind of question.

Usage: python3 benches/hints.py [BINARY]   (default target/release/towerlab;
serves on 127.0.0.1:18765 and stops the server it started)
"""

import json
import statistics
import subprocess
import sys
import time
import urllib.request

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/towerlab"
PORT = 18765
BASE = f"http://127.0.0.1:{PORT}"


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(BASE + path, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read())


def game(variant, players, seed):
    seats = ["person"] + ["greedy"] * (players - 1)
    s = call("POST", "/api/games", {"variant": variant, "seats": seats, "seed": seed})
    gid, key = s["id"], s["keys"][0]["key"]
    times, kinds = [], {}
    while True:
        if s["status"] in ("over", "failed"):
            assert s["status"] == "over", s["error"]
            return times, kinds
        if s["status"] == "bot":
            s = call("POST", f"/api/games/{gid}/advance", {"token": s["token"], "key": key})
            continue
        t0 = time.perf_counter()
        h = call("POST", f"/api/games/{gid}/hint", {"token": s["token"], "key": key})
        dt = (time.perf_counter() - t0) * 1000
        times.append(dt)
        kinds.setdefault(s["status"], []).append(dt)
        s = call(
            "POST",
            f"/api/games/{gid}/choose",
            {"decision": s["status"], "token": s["token"], "option": h["option"], "key": key},
        )


server = subprocess.Popen(
    [BIN, "serve", "--host", "127.0.0.1", "--port", str(PORT)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
)
try:
    for _ in range(100):
        try:
            call("GET", "/api/catalog")
            break
        except Exception:
            time.sleep(0.1)
    for variant, players in (("tower", 2), ("black-tower", 6)):
        alls, byk = [], {}
        for seed in (1, 2, 3):
            t, k = game(variant, players, seed)
            alls += t
            for a, b in k.items():
                byk.setdefault(a, []).extend(b)
        head = f"{variant} {players}p: {len(alls)} hints, median {statistics.median(alls):.1f} ms"
        kinds = ", ".join(f"{a} median {statistics.median(b):.1f} ms ({len(b)})" for a, b in sorted(byk.items()))
        print(f"{head}, max {max(alls):.1f} ms; {kinds}")
finally:
    server.terminate()
    server.wait()
