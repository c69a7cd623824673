"""Jeton's central system (docs/central.md): the site controller polling cabinets over SAS, the
store, coupons paid once, the floor's web page. A host room: CPython only."""
