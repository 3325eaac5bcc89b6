"""Verifies captured deliveries with the published standardwebhooks library, as a receiver would.

Reads a JSON array from stdin, each case {"secret", "body" (base64 of the raw body bytes),
"headers", "now" (optional: the receiver's clock, in Unix seconds)}, and prints a JSON array of
verdicts: "verified", or the library's refusal message. The secret is given to the library as it
comes: the test passes what docs/receivers.md tells a receiver to pass (a generated whsec_ secret
as it is; a chosen one as "whsec_" + base64 of its UTF-8 bytes).
"""
import base64
import json
import sys
from datetime import timezone

import standardwebhooks.webhooks as library
from standardwebhooks import Webhook, WebhookVerificationError

REAL_DATETIME = library.datetime


def clock_at(seconds: float) -> type:
    """The library's datetime, its now() set to `seconds`: a receiver whose clock reads that."""

    class Clock(REAL_DATETIME):
        @classmethod
        def now(cls, tz=None):  # type: ignore[override]
            return REAL_DATETIME.fromtimestamp(seconds, tz=tz or timezone.utc)

    return Clock


def verdict(case: dict) -> str:
    library.datetime = REAL_DATETIME if case.get("now") is None else clock_at(case["now"])
    try:
        Webhook(case["secret"]).verify(base64.b64decode(case["body"]), case["headers"])
        return "verified"
    except WebhookVerificationError as error:
        return str(error)
    finally:
        library.datetime = REAL_DATETIME


if __name__ == "__main__":
    print(json.dumps([verdict(case) for case in json.load(sys.stdin)]))
