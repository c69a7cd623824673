## powercut: kill the firmware at >= 1000 random instants (+ NVRAM bit flips); JSON summary, all zero but cuts
CUTS ?= 1000
powercut: $(STAMP)
	$(PY) -m sim.powercut --cuts $(CUTS)
.PHONY: powercut
