"""A webhook receiver that verifies the Standard Webhooks headers (webhook-id, webhook-timestamp,
webhook-signature) with the published library, for a webhook with `standardWebhooks` on.

    pip install standardwebhooks
    WEBHOOK_SECRET=... PORT=4000 python3 receiver.py

Answers 204 to a verified POST and prints the event; 401 otherwise: a bad or missing signature,
or a timestamp more than 5 minutes from this machine's clock (a replayed delivery).
"""
import base64
import json
import os
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer

from standardwebhooks import Webhook, WebhookVerificationError

SECRET = os.environ.get("WEBHOOK_SECRET", "")
if not SECRET:
    sys.exit("Set WEBHOOK_SECRET to the webhook secret.")
PORT = int(os.environ.get("PORT", "4000"))

# The library takes the key as whsec_<base64>. A secret the service generated has that form: pass
# it as it is. A secret you chose is keyed with its UTF-8 bytes: whsec_ + their base64 (the dialog
# shows the value the library takes beside the secret).
WEBHOOK = Webhook(
    SECRET
    if SECRET.startswith("whsec_")
    else "whsec_" + base64.b64encode(SECRET.encode("utf-8")).decode("ascii")
)


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        # Verify the bytes as received, before parsing: re-serialised JSON would not match.
        raw_body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            # Checks webhook-timestamp against the clock (5 minutes either way), then each v1
            # signature of webhook-signature (two during a secret rotation's grace period).
            event = WEBHOOK.verify(raw_body, dict(self.headers))
        except WebhookVerificationError as error:
            print(f"refused: POST {self.path} ({error})", flush=True)
            self.send_response(401)
            self.end_headers()
            return
        # webhook-id is the event id: the same on every retry and resend. Handle each id once.
        print(
            f"verified {self.headers.get('X-Webhook-Event')} {self.headers.get('webhook-id')} "
            f"delivery={self.headers.get('X-Service-Delivery-Id')}",
            flush=True,
        )
        print(json.dumps(event, indent=2), flush=True)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args) -> None:  # the lines above say what happened
        pass


if __name__ == "__main__":
    server = HTTPServer(("127.0.0.1", PORT), Receiver)
    print(f"listening on http://127.0.0.1:{PORT}/", flush=True)
    server.serve_forever()
