"""Settings for `python -m bench.api_bench --reference`: the API's own settings, serving
only the bare view of `bench.reference_urls`, without authentication or rate limits."""

from bansugoroku.settings import *  # noqa: F403
from bansugoroku.settings import REST_FRAMEWORK

ROOT_URLCONF = "bench.reference_urls"
REST_FRAMEWORK = REST_FRAMEWORK | {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "DEFAULT_THROTTLE_CLASSES": [],
}
