# Games room: PAR sheets for every shipped reel model (terminal summary + build/par/<id>.md/.html).
.PHONY: par certify

## par: PAR sheets of every shipped game (exact figures, win table, distribution and convergence charts)
par: $(STAMP)
	$(PY) -m tools.par --out build/par

## certify: re-certify every shipped model; fails (exit 1) if any bet level is below the 83 % floor,
## a model has no certificate in games/certs/, or its math hash or exact return differs from it
certify: $(STAMP)
	$(PY) -m tools.certify --check-certs games/certs games/models/*.json
