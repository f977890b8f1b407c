#!/usr/bin/env python3
"""Raw-socket fuzzer: mutated HTTP requests at a live `understudy` on 127.0.0.1, for a bounded number of
iterations, then a check that it still answers /health. Seeded, so a failing run can be replayed.

Usage: fuzz/socket-fuzz.py [--iterations 2000] [--seed 1] [--binary .build/debug/understudy]
"""
import argparse, random, re, socket, subprocess, sys, time

parser = argparse.ArgumentParser()
parser.add_argument("--iterations", type=int, default=2000)
parser.add_argument("--seed", type=int, default=1)
parser.add_argument("--binary", default=".build/debug/understudy")
args = parser.parse_args()
rng = random.Random(args.seed)

SEEDS = [
    b"GET /products/1 HTTP/1.1\r\nHost: x\r\n\r\n",
    b"GET /products?limit=5&skip=2&select=title,price&sortBy=price&order=desc HTTP/1.1\r\nHost: x\r\n\r\n",
    b"POST /products/add HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 16\r\n\r\n{\"title\":\"Lamp\"}",
    b"POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 35\r\n\r\nusername=emilys&password=emilyspass",
    b"GET /products/1 HTTP/1.1\r\nHost: x\r\nX-Understudy-Fault: delay=1ms; status=503\r\n\r\n",
    b"GET /products/stream?count=1&interval=10 HTTP/1.1\r\nHost: x\r\nLast-Event-ID: 3\r\n\r\n",
    b"POST /__understudy/faults HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{\"fault\":\"status=500\",\"session\":\"fuzz\"}",
    b"GET /auth/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer a.b.c\r\nCookie: accessToken=x\r\n\r\n",
]
TOKENS = [b"\r\n", b"\r\n\r\n", b"%", b"%00", b"\x00", b"\xff", b":", b" ", b"?", b"&", b"=", b";", b"/..", b"Content-Length: 99999\r\n",
          b"Transfer-Encoding: chunked\r\n", b"HEAD", b"TRACE", b"HTTP/1.0", b"HTTP/9.9", b"\t", b"-1", b"99999999999999999999"]


def mutate(data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        choice = rng.random()
        position = rng.randint(0, len(data))
        if choice < 0.3 and data:
            data[min(position, len(data) - 1)] = rng.randint(0, 255)
        elif choice < 0.5:
            data[position:position] = rng.choice(TOKENS)
        elif choice < 0.7 and data:
            del data[position:position + rng.randint(1, 16)]
        elif choice < 0.85:
            data[position:position] = bytes(rng.randint(0, 255) for _ in range(rng.randint(1, 32)))
        else:
            data += rng.choice(SEEDS)
    return bytes(data)


def send(port, payload, read=True):
    with socket.create_connection(("127.0.0.1", port), timeout=0.3) as connection:
        connection.sendall(payload)
        if read:
            try:
                return connection.recv(65536)
            except (socket.timeout, ConnectionError):
                return b""
    return b""


def main():
    server = subprocess.Popen([args.binary, "--port", "0", "--quiet"], stdout=subprocess.PIPE, text=True)
    try:
        port = int(re.search(r":(\d+)\s*$", server.stdout.readline()).group(1))
        answered = 0
        started = time.time()
        for iteration in range(args.iterations):
            if time.time() - started > 120:
                break
            try:
                if send(port, mutate(rng.choice(SEEDS)), read=rng.random() < 0.8):
                    answered += 1
            except (ConnectionError, socket.timeout, OSError):
                pass
            if server.poll() is not None:
                print(f"socket-fuzz: the server died at iteration {iteration} (seed {args.seed})", file=sys.stderr)
                return 1
        health = send(port, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        ok = health.startswith(b"HTTP/1.1 200") and server.poll() is None
        print(f"socket-fuzz: {iteration + 1} mutated requests, {answered} answered, server "
              f"{'still answers /health' if ok else 'FAILED /health'} (seed {args.seed})")
        return 0 if ok else 1
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
