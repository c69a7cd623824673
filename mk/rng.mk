# RNG room: statistical batteries on the DRBG stream of the emulated board (tools/rngtest.py).
.PHONY: rngtest rngtest-full rngtest-tools

# ent, dieharder and rngtest (FIPS 140-2, Debian package rng-tools) come from Debian packages.
rngtest-tools:
	@if ! command -v ent >/dev/null || ! command -v dieharder >/dev/null || ! command -v rngtest >/dev/null; then \
		echo "installing ent dieharder rng-tools"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ent dieharder rng-tools >/dev/null; \
	fi

## rngtest: ent (100 MiB), FIPS 140-2, dieharder selection, scaled-output chi-square (~6 min on 2 cores: docs/rng.md)
rngtest: $(STAMP) rngtest-tools
	$(PY) -m tools.rngtest

## rngtest-full: the same with the whole dieharder -a battery (hours)
rngtest-full: $(STAMP) rngtest-tools
	$(PY) -m tools.rngtest --full
