# Central room: the central system (docs/central.md).
.PHONY: floor postgres-tools broker-tools

## floor: a site of 8 emulated cabinets (mixed games, casino and vlt) on SAS, the site controller and the
## central service's page (http://127.0.0.1:$(FLOOR_PORT)/); FLOOR_STATE=, FLOOR_PORT=, FLOOR_CABINETS=;
## FLOOR_BROKER=nats: the site and the centre apart, through NATS JetStream (docs/central.md); Ctrl-C stops
FLOOR_STATE    ?= var/floor
FLOOR_PORT     ?= 38080
FLOOR_CABINETS ?= 8
FLOOR_BROKER   ?=
floor: $(STAMP) unix32-tools $(if $(filter nats,$(FLOOR_BROKER)),broker-tools)
	$(PY) -m central.floor --state $(FLOOR_STATE) --port $(FLOOR_PORT) --cabinets $(FLOOR_CABINETS) $(if $(filter nats,$(FLOOR_BROKER)),--broker)

# Debian's PostgreSQL, which the central system's tests start privately (central/pg_local.py), installed
# when missing (central/pg_local.py PACKAGES)
POSTGRES_PACKAGES := postgresql
postgres-tools:
	@if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then \
		echo "installing $(POSTGRES_PACKAGES)"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(POSTGRES_PACKAGES) >/dev/null; \
	fi

# Debian's NATS server, the broker between a site and the centre (central/broker.py PACKAGES)
BROKER_PACKAGES := nats-server
broker-tools:
	@if ! command -v nats-server >/dev/null; then \
		echo "installing $(BROKER_PACKAGES)"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(BROKER_PACKAGES) >/dev/null; \
	fi
