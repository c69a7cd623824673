## image: compile the device rooms to .mpy in build/mpy (incremental); the emulated board runs these
image: $(STAMP)
	$(PY) -m tools.image
.PHONY: image
