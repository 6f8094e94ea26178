"""RankRelay API client (generated from the service's RPC registry; standard library only).

    from rankrelay import Client, ApiError
    client = Client(api_key="rrk_...", base_url="https://rankrelay.example.com")
    client_id = client.add_client(client={"name": "Acme", "website_url": "https://acme.example"})
    try:
        client.get_client(client_id=999999)
    except ApiError as error:
        print(error.status, error.code, error.hint)
"""

from ._base import DEFAULT_BASE_URL, TERMINAL_JOB_STATUSES, UNSET, Unset
from ._methods import METHODS, Client
from ._version import API_VERSION, REGISTRY_FINGERPRINT, __version__
from .errors import ApiError, JobTimeout
from .webhooks import DEFAULT_TOLERANCE, verify_webhook_signature

__all__ = [
    "API_VERSION",
    "ApiError",
    "Client",
    "DEFAULT_BASE_URL",
    "DEFAULT_TOLERANCE",
    "JobTimeout",
    "METHODS",
    "REGISTRY_FINGERPRINT",
    "TERMINAL_JOB_STATUSES",
    "UNSET",
    "Unset",
    "__version__",
    "verify_webhook_signature",
]
