#!/usr/bin/env python3
"""A slowloris for scripts/test-docker.sh: slowloris.py HOST PORT N HOLD_S

Opens N connections to HOST:PORT, each sending the header of a GET a line per second and
never its end, for HOLD_S seconds at most. Meanwhile (from one second after the last one
opened) a second thread times GET /healthz, each on a new connection, every 0.2 s.
Prints one JSON object:
  opened     connections that were accepted and still open one second after they began
  refused    connections closed (or reset) within that second, before any deadline
  closed     connections the server closed later, with `closed_s`: seconds from opening
             to the close, min/median/max, and `answers`: the status lines it sent first
  still_open connections open at the end (none when the server enforces a deadline)
  healthz    the /healthz timings: count, non_200, p50_ms, p99_ms, max_ms
Only the standard library; the header lines are harmless (X-Slow-N: 1)."""
import json
import socket
import sys
import threading
import time


def healthz(host, port, stop, out):
    while not stop.is_set():
        t0 = time.monotonic()
        status = 0
        try:
            with socket.create_connection((host, port), timeout=5) as s:
                s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                data = b""
                while b"\r\n" not in data:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    data += chunk
                parts = data.split(b" ", 2)
                status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
        except OSError:
            status = 0
        out.append((status, (time.monotonic() - t0) * 1000.0))
        stop.wait(0.2)


def main():
    host, port, n, hold = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    conns = []
    start = time.monotonic()
    for i in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(5)
        rec = {"sock": s, "t0": time.monotonic(), "closed": None, "answer": ""}
        try:
            s.connect((host, port))
            s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            s.setblocking(False)
        except OSError:
            rec["closed"] = 0.0
        conns.append(rec)
    stop = threading.Event()
    timings = []
    th = None
    line = 0
    end = start + hold
    while time.monotonic() < end:
        now = time.monotonic()
        if th is None and now - start > 1.0:
            th = threading.Thread(target=healthz, args=(host, port, stop, timings), daemon=True)
            th.start()
        alive = 0
        for rec in conns:
            if rec["closed"] is not None:
                continue
            s = rec["sock"]
            try:
                data = s.recv(4096)
                if data == b"":
                    rec["closed"] = now - rec["t0"]
                else:
                    if not rec["answer"]:
                        rec["answer"] = data.split(b"\r\n", 1)[0].decode("latin-1")
                    alive += 1  # answered, not closed yet: its close is timed next
                    continue
            except BlockingIOError:
                pass
            except OSError:
                rec["closed"] = now - rec["t0"]
            if rec["closed"] is None:
                try:
                    s.send(b"X-Slow-%d: 1\r\n" % line)
                    alive += 1
                except BlockingIOError:
                    alive += 1
                except OSError:
                    rec["closed"] = now - rec["t0"]
        line += 1
        if alive == 0 and th is not None and now - start > 3.0:
            break
        time.sleep(1.0 - (time.monotonic() - now) % 1.0)
    stop.set()
    if th is not None:
        th.join()
    refused = [r for r in conns if r["closed"] is not None and r["closed"] < 1.0]
    closed = [r for r in conns if r["closed"] is not None and r["closed"] >= 1.0]
    still = [r for r in conns if r["closed"] is None]
    for r in conns:
        r["sock"].close()
    cs = sorted(r["closed"] for r in closed)
    answers = {}
    for r in closed:
        answers[r["answer"] or "(none)"] = answers.get(r["answer"] or "(none)", 0) + 1
    lat = sorted(t for _, t in timings)

    def pct(p):
        return round(lat[min(len(lat) - 1, int(p * len(lat)))], 1) if lat else None

    print(json.dumps({
        "opened": n - len(refused),
        "refused": len(refused),
        "closed": len(closed),
        "closed_s": [round(cs[0], 1), round(cs[len(cs) // 2], 1), round(cs[-1], 1)] if cs else [],
        "answers": answers,
        "still_open": len(still),
        "healthz": {"count": len(timings), "non_200": sum(1 for s, _ in timings if s != 200),
                    "p50_ms": pct(0.5), "p99_ms": pct(0.99), "max_ms": round(lat[-1], 1) if lat else None},
    }))


if __name__ == "__main__":
    main()
