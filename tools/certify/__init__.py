"""Exact certification of reel models: `python -m tools.certify MODEL [--json] [--write-cert]`."""
from tools.certify.core import (FLOOR, below_floor, certificate, certify_model, load_model,  # noqa: F401
                                to_json)
