## image: compile the device code to .mpy in build/mpy (incremental); the emulated board runs these
## (PROFILE=pyboard|rp2|esp32: that board's set, build/mpy-PROFILE)
image: $(STAMP)
	$(PY) -m tools.image --target $(IMAGE_TARGET)
.PHONY: image
