"""gunicorn settings for a gate's server (trigsight.gates.liveserver): the site's, less one hook.

A gate loads pages and their scripts and never asks a question, so the question encoder that
`gunicorn_conf.on_starting` loads into the arbiter before the workers fork (more than half of a
start: bench/scale/servers.py) would only delay every release. Every other setting is the
site's own, imported from it.
"""
from trigsight_site.gunicorn_conf import (  # noqa: F401  (gunicorn reads them from this module)
    graceful_timeout,
    keepalive,
    limit_request_field_size,
    limit_request_fields,
    limit_request_line,
    timeout,
    when_ready,
    worker_class,
    worker_connections,
)
