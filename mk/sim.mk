# Simulation room: campaigns against the real firmware process on the emulated board.
.PHONY: powercut fuzz

## powercut: kill the firmware at >= 1000 random instants (+ NVRAM bit flips), sessions in parallel; JSON summary, all zero but cuts; JURIS=vlt: coupons
CUTS ?= 1000
JOBS ?= 8
powercut: $(STAMP) unix32-tools
	$(PY) -m sim.powercut --cuts $(CUTS) --jobs $(JOBS) $(if $(JURIS),--jurisdiction $(JURIS))

## fuzz: stateful random sequences (hypothesis) against the firmware; STEPS=, SEED=; JSON summary, all zero but the counts
STEPS ?= 2000
SEED ?=
FUZZ_JOBS ?= 4
fuzz: $(STAMP) unix32-tools
	$(PY) -m sim.fuzz --steps $(STEPS) --jobs $(FUZZ_JOBS) $(if $(SEED),--seed $(SEED))
