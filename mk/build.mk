# Build room: the Jeton firmware image from MicroPython source (docs/build.md).
.PHONY: firmware firmware-arm arm-tools deploy release

## firmware: MicroPython's unix port with manifest.py frozen (the emulated board's image), build/firmware/
firmware: $(STAMP)
	$(PY) -m tools.firmware

# Debian's Cortex-M toolchain and qemu, installed when missing.
ARM_PACKAGES := gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
arm-tools:
	@if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null \
		|| ! test -f /usr/lib/arm-none-eabi/newlib/libc.a; then \
		echo "installing $(ARM_PACKAGES)"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(ARM_PACKAGES) >/dev/null; \
	fi

## firmware-arm: the qemu port (MPS2-AN385, Cortex-M3) with the same manifest frozen, build/firmware/qemu/
firmware-arm: $(STAMP) arm-tools
	$(PY) -m tools.firmware --arm

## deploy: install the .mpy image, models, certificates and main.py on a board (PORT=/dev/ttyACM0)
PORT ?= /dev/ttyACM0
deploy: $(STAMP)
	$(PY) -m tools.deploy $(PORT)

## release: build/release/jeton-<version>/ (images, certificates, PAR sheets, SHA-256 manifest)
release: $(STAMP) firmware
	$(PY) -m tools.release
