"""A server's HTTP responder for the peer's data-path proofs (prove-datapath.sh, prove-amphora.sh).

    http_responder.py NAME [PORT]    (run in the server's network namespace; PORT defaults to 8080)

Answers every GET with "vm=NAME client=<the address the request came from>", so a proof sees which server
answered and whose address reached it (the client's, or a load balancer's).
"""
import http.server
import sys


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = f"vm={sys.argv[1]} client={self.client_address[0]}\n".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


http.server.HTTPServer(("0.0.0.0", int(sys.argv[2]) if len(sys.argv) > 2 else 8080), Handler).serve_forever()
