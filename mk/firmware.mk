## powercut: kill the firmware at >= 1000 random instants (+ NVRAM bit flips); JSON summary, all zero but cuts
CUTS ?= 1000
powercut: $(STAMP)
	$(PY) -m sim.powercut --cuts $(CUTS)
.PHONY: powercut

## image: compile the device rooms to .mpy in build/mpy (incremental); the emulated board runs these
image: $(STAMP)
	$(PY) -m tools.image
.PHONY: image
