# navviz — build, run and test. See README.md.
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin

# Debian packages that Ebitengine (cgo, X11, GL), sqweek/dialog (GTK), the
# headless GUI tests (Xvfb), the arm64 determinism tests (qemu-aarch64 from
# qemu-user, run explicitly: no binfmt registration needed) and the test of
# the scenario report in a browser (chromium, headless) need.
DEB_PKGS := libxrandr-dev libxcursor-dev libxinerama-dev libxi-dev libxxf86vm-dev \
	libgl-dev libx11-dev pkg-config libgtk-3-dev xvfb xauth gcc qemu-user xdotool imagemagick \
	chromium

# GUI tests need an X display: use the real one if set, otherwise a virtual one.
XRUN := $(if $(DISPLAY),,xvfb-run -a)

LEVEL ?= city

.PHONY: deps run test bench instr pgo fmt vet build levels scenarios

## deps: install the missing Debian packages (apt-get as root, else print the command),
## and node with npm for the check against real Detour (interop/detour) when
## there is no node or npm in PATH (a node from elsewhere, such as nodesource's
## nodejs with its own npm, is kept)
deps:
	@if ! command -v node >/dev/null || ! command -v npm >/dev/null; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing: nodejs npm"; \
			apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm; \
		else \
			echo "node and npm are missing; run:"; \
			echo "  sudo apt-get install -y nodejs npm"; \
			exit 1; \
		fi; \
	fi
	@missing=$$(for p in $(DEB_PKGS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
		echo "installing: $$missing"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	else \
		echo "missing Debian packages; run:"; \
		echo "  sudo apt-get install -y $$missing"; \
		exit 1; \
	fi

## build: compile both binaries into ./bin
build: deps
	go build -o bin/navviz ./cmd/navviz
	go build -o bin/navmesh ./cmd/navmesh

## run: open navviz on $(LEVEL) (default city)
run: deps
	go run ./cmd/navviz $(LEVEL)

## test: formatting, vet and every test (GUI tests under Xvfb when no display is set;
## the arm64 tests under qemu, the scenario report's test in headless
## chromium and the check against real Detour fail instead of skipping when
## qemu-aarch64, chromium, node or npm is missing)
test: levels deps fmt vet
	NAVVIZ_REQUIRE_QEMU=1 NAVVIZ_REQUIRE_CHROMIUM=1 NAVVIZ_REQUIRE_NODE=1 NAVVIZ_REQUIRE_X11_TOOLS=1 NAVVIZ_REQUIRE_LEVELS=1 $(XRUN) go test -count=1 ./...

## scenarios: every example scenario against its goldens, as the CI job of
## docs/guide.md ("Regression checks in CI") runs them: the report to open
## in a browser is $(SCENARIOS_OUT)/index.html (one page per scenario in
## $(SCENARIOS_OUT)/NAME/), the JUnit XML $(SCENARIOS_OUT)/junit.xml; exits 1
## when a shot or a report differs from its golden.
SCENARIOS_OUT ?= out
scenarios:
	go build -o bin/navmesh ./cmd/navmesh
	@mkdir -p $(SCENARIOS_OUT)
	bin/navmesh scenario testdata/scenarios -o $(SCENARIOS_OUT) --compare testdata/scenarios --junit $(SCENARIOS_OUT)/junit.xml

## levels: the shared test levels must sit beside the repository (tests that
## need them fail under make test instead of skipping: NAVVIZ_REQUIRE_LEVELS)
levels:
	@if [ ! -d ../shared/levels ]; then \
		echo "the shared test levels are missing: $$(cd .. && pwd)/shared/levels not found."; \
		echo "check out or copy the shared folder beside this repository (../shared/levels/*.obj); the tests read them."; \
		exit 1; \
	fi

fmt:
	@out=$$(gofmt -l .); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	go vet ./...
	go vet -tags nodialog ./ui/ ./cmd/navviz/

## bench: every benchmark, recorded in BENCH_OUT (default bench/DATE-COMMIT.txt)
## for benchstat: benchstat bench/old.txt bench/new.txt. Built with navmesh's
## profile (BENCH_PGO, default cmd/navmesh/default.pgo; off: none), as the
## binaries are.
BENCH_OUT ?= bench/$(shell date -u +%Y%m%dT%H%M%S)-$(shell git rev-parse --short HEAD 2>/dev/null || echo nogit).txt
BENCH_COUNT ?= 1
BENCH_PGO ?= cmd/navmesh/default.pgo
bench: deps
	@mkdir -p $(dir $(BENCH_OUT))
	set -o pipefail; $(XRUN) go test -pgo=$(BENCH_PGO) -run '^$$' -bench . -benchmem -count $(BENCH_COUNT) ./... | tee $(BENCH_OUT)
	@echo "recorded in $(BENCH_OUT)"

## instr: instructions per layer build of the city cycle, counted by valgrind's
## callgrind (the same count on every run, unlike times on a loaded machine):
## UpdateInto's instructions over 50 cycles minus those over 10 (which hold the
## first cycle's one-time work), per layer build. INSTR_LEVEL=dungeon or
## nav_test counts BenchmarkLevelCycle's cycle of that level instead (12
## points on open floor). The test binary is built with navmesh's profile
## (INSTR_PGO, default cmd/navmesh/default.pgo; off: none), as navmesh is.
## Needs valgrind (apt-get install valgrind); cpu.rdtscp=off keeps the runtime
## off RDTSCP, an instruction valgrind stops on.
INSTR_BIN ?= /tmp/navviz-instr-tilecache.test
INSTR_LEVEL ?= city
INSTR_PGO ?= cmd/navmesh/default.pgo
instr:
	go test -c -pgo=$(INSTR_PGO) -o $(INSTR_BIN) ./tilecache
	@bench='BenchmarkCityCycle$$/repair'; \
	if [ "$(INSTR_LEVEL)" != city ]; then bench='BenchmarkLevelCycle/$(INSTR_LEVEL)/repair'; fi; \
	cd tilecache && for n in 10 50; do \
		GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 valgrind --tool=callgrind --callgrind-out-file=$(INSTR_BIN).$$n.out \
			--toggle-collect='navviz/tilecache.(*Cache).UpdateInto' $(INSTR_BIN) -test.run '^$$' \
			-test.bench "$$bench" -test.benchtime $${n}x > $(INSTR_BIN).$$n.log 2>&1 || { cat $(INSTR_BIN).$$n.log; exit 1; }; \
	done; \
	total() { callgrind_annotate --auto=no $$1 | awk '/PROGRAM TOTALS/ {gsub(",", "", $$1); print $$1}'; }; \
	layers=$$(grep -o '[0-9.]* layers/cycle' $(INSTR_BIN).50.log | cut -d' ' -f1 | cut -d. -f1); \
	a=$$(total $(INSTR_BIN).10.out); b=$$(total $(INSTR_BIN).50.out); \
	echo "$(INSTR_LEVEL) cycle: $$(( (b - a) / 40 / layers )) instructions per layer build ($$layers layer builds a cycle; callgrind files $(INSTR_BIN).{10,50}.out)"

## pgo: remake cmd/navmesh/default.pgo, the CPU profile `go build` optimizes
## navmesh and navviz with (profile-guided optimization: hot calls inlined).
## Profiled, built without a profile: navmesh bench's cycles on city,
## dungeon and nav_test (one worker) and the full builds of city
## (BenchmarkBuildLevelCity). Rerun after large changes to the hot paths.
PGO_DIR ?= /tmp/navviz-pgo
pgo:
	@mkdir -p $(PGO_DIR)
	go build -pgo=off -o $(PGO_DIR)/navmesh ./cmd/navmesh
	$(PGO_DIR)/navmesh bench city --workers 1 --cycles 400 --cpuprofile $(PGO_DIR)/city.prof > /dev/null
	for l in dungeon nav_test; do \
		$(PGO_DIR)/navmesh bench ../shared/levels/$$l.obj --auto-points 12 --workers 1 --cycles 1000 --cpuprofile $(PGO_DIR)/$$l.prof > /dev/null || exit 1; \
	done
	go test -pgo=off -c -o $(PGO_DIR)/pipeline.test ./core/pipeline
	cd core/pipeline && $(PGO_DIR)/pipeline.test -test.run '^$$' -test.bench 'BenchmarkBuildLevelCity$$' \
		-test.benchtime 2s -test.cpuprofile $(PGO_DIR)/build.prof > /dev/null
	go tool pprof -proto $(PGO_DIR)/city.prof $(PGO_DIR)/dungeon.prof $(PGO_DIR)/nav_test.prof \
		$(PGO_DIR)/build.prof > cmd/navmesh/default.pgo
	@echo "wrote cmd/navmesh/default.pgo ($$(wc -c < cmd/navmesh/default.pgo) bytes)"
