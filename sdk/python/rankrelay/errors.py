"""Errors raised by the RankRelay client."""

from typing import Any, Dict, Mapping, Optional


class ApiError(Exception):
    """A non-2xx answer of the API, with the service's error envelope.

    Attributes:
        status: the HTTP status (401, 403, 404, 409, 429, 503, ...).
        code: the stable machine code (``not_found``, ``insufficient_scope``, ...). Branch on this.
        error: the human-readable message.
        detail: extra detail (which field, which id), or None.
        hint: what to try next, or None.
        retry_after: seconds from the Retry-After header (429, idempotency_in_flight), or None.
        request_id: the X-Request-Id of the failed request (quote it in support requests).
        body: the decoded response body (a dict when it was JSON).
    """

    def __init__(
        self,
        status: int,
        code: str,
        error: str,
        detail: Optional[str] = None,
        hint: Optional[str] = None,
        retry_after: Optional[float] = None,
        request_id: Optional[str] = None,
        body: Any = None,
    ) -> None:
        self.status = status
        self.code = code
        self.error = error
        self.detail = detail
        self.hint = hint
        self.retry_after = retry_after
        self.request_id = request_id
        self.body = body
        text = f"{status} {code}: {error}"
        if detail:
            text += f" ({detail})"
        super().__init__(text)

    @classmethod
    def from_response(cls, status: int, headers: Mapping[str, str], raw: bytes) -> "ApiError":
        """Builds the error from a response; a body that is not the envelope still gives a usable error."""
        import json

        body: Any
        try:
            body = json.loads(raw.decode("utf-8")) if raw else None
        except (UnicodeDecodeError, ValueError):
            body = raw.decode("utf-8", "replace")
        envelope: Dict[str, Any] = body if isinstance(body, dict) else {}
        retry_after: Optional[float] = None
        lowered = {str(name).lower(): value for name, value in headers.items()}
        header = lowered.get("retry-after")
        if header is not None:
            try:
                retry_after = float(header)
            except ValueError:
                retry_after = None
        error = envelope.get("error")
        return cls(
            status=status,
            code=str(envelope.get("code") or f"http_{status}"),
            error=str(error) if error is not None else (body if isinstance(body, str) and body else f"HTTP {status}"),
            detail=envelope.get("detail"),
            hint=envelope.get("hint"),
            retry_after=retry_after,
            request_id=lowered.get("x-request-id"),
            body=body,
        )


class JobTimeout(TimeoutError):
    """wait_for_job gave up before the job reached a terminal status; ``job`` is the last record seen."""

    def __init__(self, job_id: int, timeout: float, job: Optional[Dict[str, Any]]) -> None:
        self.job_id = job_id
        self.timeout = timeout
        self.job = job
        status = job.get("status") if isinstance(job, dict) else None
        super().__init__(f"job {job_id} not finished after {timeout} s (last status: {status})")
