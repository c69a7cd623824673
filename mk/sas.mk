# SAS room: saspy, an independent SAS host (MIT), from the vendored tarball into the virtualenv.
# It is a flat set of modules: unpacked under .venv and put on sys.path by a .pth file. The only
# step besides the firmware build that reads ../shared (tests/host/test_self_contained.py).
.PHONY: saspy
SASPY_TGZ   := ../shared/vendor/saspy-e2224b2.tar.gz
SASPY_SUMS  := ../shared/vendor/SHA256SUMS
SASPY_STAMP := $(VENV)/.saspy-e2224b2

saspy: $(SASPY_STAMP)

$(SASPY_STAMP): $(STAMP) tools/install_saspy.py
	$(PY) -m tools.install_saspy $(SASPY_TGZ) $(SASPY_SUMS) $(VENV)
	@touch $@
