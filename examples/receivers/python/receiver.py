"""A webhook receiver that checks X-Webhook-Signature, with the Python standard library alone.

    WEBHOOK_SECRET=... PORT=4000 python3 receiver.py

Answers 204 to a correctly signed POST and prints the event; 401 otherwise.
"""
import hashlib
import hmac
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

SECRET = os.environ.get("WEBHOOK_SECRET", "").encode("utf-8")
if not SECRET:
    sys.exit("Set WEBHOOK_SECRET to the webhook secret.")
PORT = int(os.environ.get("PORT", "4000"))


def signature_is_valid(raw_body: bytes, header: str | None) -> bool:
    """Lowercase hex HMAC-SHA256 of the raw body, compared in constant time."""
    expected = hmac.new(SECRET, raw_body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, header or "")


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        # Check the bytes as received, before parsing: re-serialised JSON would not match.
        raw_body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if not signature_is_valid(raw_body, self.headers.get("X-Webhook-Signature")):
            print(f"refused: POST {self.path} (bad or missing signature)", flush=True)
            self.send_response(401)
            self.end_headers()
            return
        event = json.loads(raw_body)
        # Retries and resends carry the same event id: handle each id once.
        delivery = self.headers.get("X-Service-Delivery-Id")
        print(f"verified {event['event']} {event['id']} delivery={delivery}", flush=True)
        print(json.dumps(event, indent=2), flush=True)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args) -> None:  # the lines above say what happened
        pass


if __name__ == "__main__":
    server = HTTPServer(("127.0.0.1", PORT), Receiver)
    print(f"listening on http://127.0.0.1:{PORT}/", flush=True)
    server.serve_forever()
