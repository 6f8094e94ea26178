"""The transport under the generated client: one HTTP call per RPC, jobs, table reads. Standard library only."""

import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from datetime import date, datetime
from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple, Union

from ._version import API_VERSION, __version__
from .errors import ApiError, JobTimeout

#: Where the client connects when neither base_url nor RANKRELAY_BASE_URL is given (the default of `npm start`).
DEFAULT_BASE_URL = "http://127.0.0.1:8080"

#: Job statuses after which a job never changes again.
TERMINAL_JOB_STATUSES = ("done", "failed", "cancelled")

#: The API refuses longer Idempotency-Key values (400); the client refuses them before sending.
MAX_IDEMPOTENCY_KEY_LENGTH = 200

_METHOD_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_TABLE_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class Unset:
    """The default of optional parameters: an argument left UNSET is not sent (None is sent as null)."""

    _instance: Optional["Unset"] = None

    def __new__(cls) -> "Unset":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET = Unset()


def _query_value(value: Any) -> str:
    """A where_ filter value as the table read parses it: null, true/false, ISO times, digits, text."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError("filter times need a timezone (the API compares instants)")
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return str(value)


class BaseClient:
    """HTTP plumbing shared by every generated method. Use :class:`rankrelay.Client`."""

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        timeout: float = 30.0,
        user_agent: Optional[str] = None,
    ) -> None:
        """api_key: an rrk_ key or rro_ token (default: RANKRELAY_API_KEY); base_url: the service address
        (default: RANKRELAY_BASE_URL, else http://127.0.0.1:8080); timeout: seconds per HTTP request."""
        key = api_key if api_key is not None else os.environ.get("RANKRELAY_API_KEY")
        if not key:
            raise ValueError("an API key is required: pass api_key or set RANKRELAY_API_KEY")
        url = base_url or os.environ.get("RANKRELAY_BASE_URL") or DEFAULT_BASE_URL
        self.api_key = key
        self.base_url = url.rstrip("/")
        self.timeout = timeout
        self.user_agent = user_agent or f"rankrelay-python/{__version__} (api {API_VERSION})"
        #: The headers of the last response, names in lower case (x-ratelimit-remaining, idempotency-replayed,
        #: x-request-id, x-service-api-version, ...).
        self.last_headers: Dict[str, str] = {}

    # -- RPC -------------------------------------------------------------------------------------------

    def call(self, method: str, params: Optional[Mapping[str, Any]] = None, /, *, idempotency_key: Optional[str] = None, **kwargs: Any) -> Any:
        """Calls any RPC by name with keyword arguments (or a dict of them) and returns its ``result``.

        Raises ApiError on any non-2xx answer. Arguments equal to UNSET are left out.
        """
        if not isinstance(method, str) or not _METHOD_NAME.match(method):
            raise ValueError(f"not an RPC method name: {method!r}")
        body: Dict[str, Any] = {}
        if params:
            body.update(params)
        body.update(kwargs)
        return self._rpc(method, body, idempotency_key)

    def _rpc(self, method: str, params: Mapping[str, Any], idempotency_key: Optional[str]) -> Any:
        body = {name: value for name, value in params.items() if value is not UNSET}
        answer = self._request("POST", f"/api/v1/rpc/{method}", body=body, idempotency_key=idempotency_key)
        if not isinstance(answer, dict) or "result" not in answer:
            raise ApiError(200, "unexpected_response", "The RPC answer has no result", body=answer)
        return answer["result"]

    # -- jobs ------------------------------------------------------------------------------------------

    def create_job(
        self,
        kind: str,
        client_id: Optional[int] = None,
        payload: Optional[Mapping[str, Any]] = None,
        *,
        group_id: Optional[int] = None,
        org_id: Optional[int] = None,
        meter: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
    ) -> Dict[str, Any]:
        """Starts a background job (POST /api/v1/jobs); returns ``{job_id, status_url}`` (202).

        kind: strategist, bulk_strategist, execute_tier_a, keyword_generation, blog_pipeline,
        fulfill_selected, autopilot, content_edit, ad_copy, prompted_edit or export_org. A job already running
        for the client answers ApiError code job_already_running (409): poll it, then retry.
        """
        body: Dict[str, Any] = {"kind": kind}
        if client_id is not None:
            body["client_id"] = client_id
        if group_id is not None:
            body["group_id"] = group_id
        if org_id is not None:
            body["org_id"] = org_id
        if meter is not None:
            body["meter"] = meter
        if payload is not None:
            body["payload"] = dict(payload)
        return self._request("POST", "/api/v1/jobs", body=body, idempotency_key=idempotency_key)

    def get_job(self, job_id: Union[int, Mapping[str, Any]]) -> Dict[str, Any]:
        """The job record (GET /api/v1/jobs/{job_id}): status, progress, result when done, error when failed."""
        return self._request("GET", f"/api/v1/jobs/{_job_id(job_id)}")

    def cancel_job(self, job_id: Union[int, Mapping[str, Any]]) -> Dict[str, Any]:
        """Cancels a queued or running job; a finished one answers ApiError code job_already_terminal (409)."""
        return self._request("POST", f"/api/v1/jobs/{_job_id(job_id)}/cancel")

    def wait_for_job(self, job_id: Union[int, Mapping[str, Any]], timeout: float = 600.0, interval: float = 2.0) -> Dict[str, Any]:
        """Polls the job every ``interval`` seconds until it is done, failed or cancelled, and returns the record.

        A failed or cancelled job is returned, not raised: check ``record["status"]``. Raises JobTimeout (a
        TimeoutError) after ``timeout`` seconds; a 429 while polling waits for its Retry-After.
        """
        ident = _job_id(job_id)
        if interval <= 0:
            raise ValueError("interval must be positive")
        deadline = time.monotonic() + timeout
        last: Optional[Dict[str, Any]] = None
        while True:
            pause = interval
            try:
                last = self.get_job(ident)
                if isinstance(last, dict) and last.get("status") in TERMINAL_JOB_STATUSES:
                    return last
            except ApiError as error:
                if error.status != 429:
                    raise
                pause = max(interval, error.retry_after or 0.0)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise JobTimeout(ident, timeout, last)
            time.sleep(min(pause, remaining))

    # -- table reads -----------------------------------------------------------------------------------

    def read_table(
        self,
        table: str,
        where: Optional[Mapping[str, Any]] = None,
        *,
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        org_id: Optional[int] = None,
    ) -> Dict[str, Any]:
        """One page of an allow-listed read-model table (GET /api/v1/db/<table>).

        where: equality filters by column (None matches NULL, booleans and aware datetimes are converted).
        Returns ``{table, rows, limit, offset, next_offset?}``; next_offset is present when more rows follow.
        """
        if not _TABLE_NAME.match(table):
            raise ValueError(f"not a table name: {table!r}")
        query: List[Tuple[str, str]] = [(f"where_{column}", _query_value(value)) for column, value in (where or {}).items()]
        if limit is not None:
            query.append(("limit", str(int(limit))))
        if offset is not None:
            query.append(("offset", str(int(offset))))
        if org_id is not None:
            query.append(("org_id", str(int(org_id))))
        return self._request("GET", f"/api/v1/db/{table}", query=query)

    def iter_table(
        self,
        table: str,
        where: Optional[Mapping[str, Any]] = None,
        *,
        page_size: int = 100,
        org_id: Optional[int] = None,
    ) -> Iterator[Dict[str, Any]]:
        """Every row of a table read, page after page, in the table's stable (primary key) order."""
        offset: Optional[int] = 0
        while offset is not None:
            page = self.read_table(table, where, limit=page_size, offset=offset, org_id=org_id)
            for row in page["rows"]:
                yield row
            offset = page.get("next_offset")

    # -- HTTP ------------------------------------------------------------------------------------------

    def _request(
        self,
        http_method: str,
        path: str,
        *,
        body: Any = None,
        idempotency_key: Optional[str] = None,
        query: Optional[List[Tuple[str, str]]] = None,
    ) -> Any:
        url = self.base_url + path
        if query:
            url += "?" + urllib.parse.urlencode(query)
        headers = {
            "Authorization": f"Bearer {self.api_key}",
            "Accept": "application/json",
            "User-Agent": self.user_agent,
        }
        data: Optional[bytes] = None
        if body is not None:
            data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
            headers["Content-Type"] = "application/json"
        if idempotency_key is not None:
            if not isinstance(idempotency_key, str) or not idempotency_key or len(idempotency_key) > MAX_IDEMPOTENCY_KEY_LENGTH:
                raise ValueError(f"idempotency_key must be a non-empty string of at most {MAX_IDEMPOTENCY_KEY_LENGTH} characters")
            headers["Idempotency-Key"] = idempotency_key
        request = urllib.request.Request(url, data=data, headers=headers, method=http_method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
                self.last_headers = {name.lower(): value for name, value in response.headers.items()}
        except urllib.error.HTTPError as error:
            raw = error.read()
            self.last_headers = {name.lower(): value for name, value in error.headers.items()} if error.headers is not None else {}
            raise ApiError.from_response(error.code, self.last_headers, raw) from None
        if not raw:
            return None
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise ApiError(200, "unexpected_response", "The answer is not JSON", body=raw[:1000]) from None


def _job_id(job: Union[int, Mapping[str, Any]]) -> int:
    """A job id, from an id or from the record create_job returned."""
    value = job.get("job_id") if isinstance(job, Mapping) else job
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"not a job id: {job!r}")
    return value
