# Games room: PAR sheets for every shipped model, reels, keno and video poker (terminal summary + build/par/<id>.md/.html).
.PHONY: par par-pdf certify autohold browser-tools

## par: PAR sheets of every shipped game (exact figures, reel strips, every pay, feature, progressive, charts)
par: $(STAMP)
	$(PY) -m tools.par --out build/par

## par-pdf: the PAR sheets, each also printed to build/par/<id>.pdf by headless Chromium (the file a lab files)
par-pdf: $(STAMP) browser-tools
	$(PY) -m tools.par --pdf --out build/par

# Debian's Chromium and the DejaVu fonts the charts are measured with (tests/host/test_par_render.py),
# installed when missing (tools/par/browser.py PACKAGES).
BROWSER_PACKAGES := chromium fonts-dejavu-core
browser-tools:
	@if ! command -v chromium >/dev/null || ! test -d /usr/share/fonts/truetype/dejavu; then \
		echo "installing $(BROWSER_PACKAGES)"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(BROWSER_PACKAGES) >/dev/null; \
	fi

## certify: re-certify every shipped model; fails (exit 1) if any bet level is below the 83 % floor,
## a model has no certificate in games/certs/, or its math hash or exact return differs from it
certify: $(STAMP)
	$(PY) -m tools.certify --check-certs games/certs games/models/*.json

## autohold: the device's own auto-hold (PokerGame.suggest) on every deal class of every shipped video
## poker table, as dealt (a random member, in a random order): its exact return must equal the
## certificate's strategy_rtp at every bet level (about 30 s per table; issue 23.11)
autohold: $(STAMP)
	$(PY) -m tools.certify.poker_autohold
