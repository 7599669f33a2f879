# Thin wrapper over meson/ninja: the commands the README names.
BUILD      ?= build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
TSAN_TESTS ?= parse policy opt options topology portconf gen_options sim quiesce control ctl faults consolidate move_fail tsan_canary
MESON_TEST ?= meson test --print-errorlogs
TSAN_OPTS = halt_on_error=1:second_deadlock_stack=1:suppressions=$(CURDIR)/tests/tsan.supp

.PHONY: all deps deb build build-asan build-tsan test test-unit test-asan test-tsan fuzz run bench format format-check clean

all: build

deps:
	@./scripts/install-deps.sh

$(BUILD)/build.ninja:
	meson setup $(BUILD)

build: deps $(BUILD)/build.ninja
	ninja -C $(BUILD)

# The sanitizer build uses clang: it also enforces -Wmissing-variable-declarations,
# which GCC 12 lacks.
$(ASAN_BUILD)/build.ninja:
	CC=clang meson setup $(ASAN_BUILD) -Dbuildtype=debugoptimized \
		-Db_sanitize=address,undefined -Db_lundef=false -Dfuzz=true -Dman=disabled

build-asan: deps $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)

# ThreadSanitizer: the control plane (main and telemetry threads) against the PMDs.
$(TSAN_BUILD)/build.ninja:
	CC=clang meson setup $(TSAN_BUILD) -Dbuildtype=debugoptimized \
		-Db_sanitize=thread -Db_lundef=false -Dman=disabled

build-tsan: deps $(TSAN_BUILD)/build.ninja
	ninja -C $(TSAN_BUILD)

# The unit tests and the concurrency tests (live reconfiguration, stats read and
# clear, port add and remove while PMDs run, a port removed under load, link
# loss, SIGTERM under load) under TSan.
test-tsan: build build-tsan
	TSAN_OPTIONS=$(TSAN_OPTS) \
		LULL_GEN_OVERRIDE=$(CURDIR)/$(BUILD)/gen/lull-gen LULL_SLOW=1 \
		$(MESON_TEST) -C $(TSAN_BUILD) $(TSAN_TESTS)

test-unit: build
	$(MESON_TEST) -C $(BUILD) --suite unit

# Everything: unit + integration tests, again under ASan + UBSan (with the fuzz
# targets), and the concurrency tests under TSan.
# All three runs go to the end whatever fails; the summary then repeats each
# failure's last lines, so that the end of the output says why.
test: build build-asan build-tsan
	-$(MESON_TEST) -C $(BUILD)
	-UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $(MESON_TEST) -C $(ASAN_BUILD)
	-TSAN_OPTIONS=$(TSAN_OPTS) \
		LULL_GEN_OVERRIDE=$(CURDIR)/$(BUILD)/gen/lull-gen LULL_SLOW=1 \
		$(MESON_TEST) -C $(TSAN_BUILD) $(TSAN_TESTS)
	@./scripts/test-summary.sh $(BUILD)/meson-logs/testlog.json \
		$(ASAN_BUILD)/meson-logs/testlog.json $(TSAN_BUILD)/meson-logs/testlog.json

# Every fuzz target for longer than the 8 s each of `make test` (FUZZ_SECONDS each);
# DOCS=1 writes the table into docs/reliability.md.
FUZZ_SECONDS ?= 120
fuzz: build-asan
	./scripts/fuzz-all $(ASAN_BUILD) $(FUZZ_SECONDS)

# lull_<version>_amd64.deb in dist/ (debhelper + meson, lintian-clean for errors)
deb: deps
	./scripts/make-deb.sh dist

run: build
	./scripts/run-demo.sh

bench: build
	./bench/report

C_SOURCES = lib/*.[ch] dp/*.[ch] nap/*.[ch] fwd/*.c fwd/*/*.[ch] gen/*.[ch] ctl/*.[ch] sim/*.[ch] tests/unit/*.[ch] tests/fuzz/*.c tests/tsan/*.c tests/nap/*.c tests/integration/shim/*.c

format:
	clang-format -i $(C_SOURCES)

# Fails when clang-format would change a file (CI runs it first).
format-check: deps
	clang-format --dry-run -Werror $(C_SOURCES)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD)
