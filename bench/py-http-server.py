#!/usr/bin/env python3
"""The peer "python http.server": the standard library's ThreadingHTTPServer (HTTP/1.0, a new connection per
request, as it ships) serving the same bytes as the C baseline from the same map file.

Usage: py-http-server.py MAPFILE   (binds 127.0.0.1 on a free port; prints http://127.0.0.1:PORT first)"""
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

routes = {}
with open(sys.argv[1]) as mapping:
    for line in mapping:
        status, content_type, uri, path = line.rstrip("\n").split("\t")
        with open(path, "rb") as body:
            routes[uri] = (int(status), content_type, body.read())


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        status, content_type, body = routes.get(self.path, (404, "text/plain", b"not found"))
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
