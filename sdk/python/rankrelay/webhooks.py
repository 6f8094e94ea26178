"""Verification of the signature RankRelay puts on every webhook delivery."""

import hashlib
import hmac
import time
from typing import List, Optional, Union

#: Deliveries whose timestamp is further than this from now (seconds) are rejected, as the API documents.
DEFAULT_TOLERANCE = 300


def verify_webhook_signature(
    secret: Union[str, bytes],
    header: Optional[str],
    raw_body: Union[str, bytes],
    tolerance: int = DEFAULT_TOLERANCE,
    now: Optional[float] = None,
) -> bool:
    """True when ``header`` (X-Service-Signature) signs ``raw_body`` with ``secret`` and is recent.

    The header is ``t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>``; several v1 values
    (during a secret rotation) are accepted if any matches. Pass the body exactly as received (bytes), not a
    re-serialized JSON. The comparison is constant-time, and a timestamp more than ``tolerance`` seconds
    from ``now`` (default: the current time) is rejected so that a captured delivery cannot be replayed.
    Never raises on a malformed header: it answers False.
    """
    if not header or not secret:
        return False
    timestamp: Optional[int] = None
    signatures: List[str] = []
    for part in header.split(","):
        key, sep, value = part.strip().partition("=")
        if not sep:
            continue
        if key == "t":
            try:
                timestamp = int(value)
            except ValueError:
                return False
        elif key == "v1":
            signatures.append(value.strip().lower())
    if timestamp is None or not signatures:
        return False
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance:
        return False
    key_bytes = secret.encode("utf-8") if isinstance(secret, str) else secret
    body = raw_body.encode("utf-8") if isinstance(raw_body, str) else raw_body
    expected = hmac.new(key_bytes, str(timestamp).encode("ascii") + b"." + body, hashlib.sha256).hexdigest()
    # Compare against every candidate (no early exit), each in constant time.
    matched = False
    for candidate in signatures:
        if hmac.compare_digest(expected.encode("ascii"), candidate.encode("ascii", "replace")):
            matched = True
    return matched
