"""Exact certification of reel models: `python -m tools.certify MODEL [--json] [--write-cert|--check-certs]`."""
from tools.certify.core import FLOOR, below_floor, cert_mismatches, certificate, certify_model, load_model, to_json  # noqa: F401
