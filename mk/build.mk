# Build room: the Jeton firmware image from MicroPython source (docs/build.md).
.PHONY: firmware firmware-arm arm-tools unix32-tools deploy release

# Debian's i686 compiler and runtime, installed when missing: the emulated board's image has 32-bit
# words, as the boards have (tools/firmware.py UNIX32_PACKAGES).
UNIX32_PACKAGES := gcc-i686-linux-gnu libc6-dev-i386-cross libc6-i386
unix32-tools:
	@if ! command -v i686-linux-gnu-gcc >/dev/null || ! test -f /usr/i686-linux-gnu/lib/libc.so \
		|| ! test -e /lib/ld-linux.so.2; then \
		echo "installing $(UNIX32_PACKAGES)"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(UNIX32_PACKAGES) >/dev/null; \
	fi

## firmware: MicroPython's unix port with manifests/unix.py frozen (the emulated board's 32-bit image), build/firmware/
firmware: $(STAMP) unix32-tools
	$(PY) -m tools.firmware

# Debian's Cortex-M toolchain and qemu, installed when missing.
ARM_PACKAGES := gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
arm-tools:
	@if ! command -v arm-none-eabi-gcc >/dev/null || ! command -v qemu-system-arm >/dev/null \
		|| ! test -f /usr/lib/arm-none-eabi/newlib/libc.a; then \
		echo "installing $(ARM_PACKAGES)"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(ARM_PACKAGES) >/dev/null; \
	fi

## firmware-arm: the qemu port (MPS2-AN385, Cortex-M3) with manifests/qemu.py frozen, build/firmware/qemu/
firmware-arm: $(STAMP) arm-tools
	$(PY) -m tools.firmware --arm

# The image target of PROFILE (tools/targets.py): the emulated board's image is the unix port's.
IMAGE_TARGET = $(if $(filter emulated,$(PROFILE)),unix,$(PROFILE))

## deploy: install the .mpy image, models, certificates and main.py on a board (PORT=/dev/ttyACM0;
## PROFILE=pyboard|rp2|esp32: that board's .mpy set, manifests/PROFILE.py; default the emulated board's)
PORT ?= /dev/ttyACM0
deploy: $(STAMP)
	$(PY) -m tools.deploy $(PORT) --target $(IMAGE_TARGET)

## release: build/release/jeton-<version>/ (images, certificates, PAR sheets, SHA-256 manifest)
release: $(STAMP) firmware firmware-arm
	$(PY) -m tools.release
