# Thin wrapper over meson/ninja: the commands the README names.
BUILD      ?= build
ASAN_BUILD ?= build-asan
MESON_TEST ?= meson test --print-errorlogs

.PHONY: all deps build build-asan test test-unit test-asan fuzz run bench format clean

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
		-Db_sanitize=address,undefined -Db_lundef=false -Dfuzz=true

build-asan: deps $(ASAN_BUILD)/build.ninja
	ninja -C $(ASAN_BUILD)

test-unit: build
	$(MESON_TEST) -C $(BUILD) --suite unit

# Everything: unit + integration tests, then again under ASan + UBSan.
test: build build-asan
	$(MESON_TEST) -C $(BUILD)
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 $(MESON_TEST) -C $(ASAN_BUILD)
	@./scripts/test-summary.sh $(BUILD)/meson-logs/testlog.json $(ASAN_BUILD)/meson-logs/testlog.json

# Every fuzz target for longer than the 8 s each of `make test` (FUZZ_SECONDS each).
FUZZ_SECONDS ?= 120
FUZZ_TARGETS = config_set lull_options text_parsers gen_rx
fuzz: build-asan
	for t in $(FUZZ_TARGETS); do \
		./tests/fuzz/run.sh $(ASAN_BUILD)/tests/fuzz/fuzz_$$t $(FUZZ_SECONDS) tests/fuzz/corpus/$$t || exit 1; \
	done

run: build
	./scripts/run-demo.sh

bench: build
	./bench/report

format:
	clang-format -i lib/*.[ch] fwd/*.[ch] gen/*.[ch] ctl/*.[ch] sim/*.[ch] tests/unit/*.c tests/fuzz/*.c

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
