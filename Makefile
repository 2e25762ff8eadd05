# Every target that builds first installs what is missing (Debian packages via
# apt-get), so each works on a fresh machine.
SANITIZE ?= 0
CXX_COMPILER ?=
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 60
# make fuzz-shardings: seeds and mutants per seed of the sharding fuzzer's
# campaign over every shared model (docs/fuzzing.md).
FUZZ_SEEDS ?= 1 2 3 4 5 6 7 8
FUZZ_MUTANTS ?= 440
FUZZ_MODELS ?= ../shared/models

ifeq ($(SANITIZE),1)
BUILD_DIR ?= build-asan
CMAKE_FLAGS += -DAUTOPART_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
else
BUILD_DIR ?= build
CMAKE_FLAGS += -DCMAKE_BUILD_TYPE=RelWithDebInfo
endif
ifneq ($(CXX_COMPILER),)
CMAKE_FLAGS += -DCMAKE_CXX_COMPILER=$(CXX_COMPILER)
endif

.PHONY: all deps build test demo bench fuzz fuzz-shardings clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja $(CMAKE_FLAGS) > /dev/null
	@cmake --build $(BUILD_DIR) -j $(JOBS)
	@if [ "$(BUILD_DIR)" != build ]; then mkdir -p build/bin && ln -sf ../../$(BUILD_DIR)/bin/autopart build/bin/autopart && ln -sf ../../$(BUILD_DIR)/bin/autopart-opt build/bin/autopart-opt; fi

test: build
	@cd $(BUILD_DIR) && ctest -j $(JOBS) --output-on-failure --timeout 900

demo: build
	@scripts/demo.sh $(BUILD_DIR)

bench: build
	@scripts/bench.sh $(BUILD_DIR)

fuzz: deps
	@cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DAUTOPART_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
	@cmake --build build-fuzz -j $(JOBS) --target parser_fuzzer
	@mkdir -p build-fuzz/corpus
	@cp -n examples/*.mlir build-fuzz/corpus/ 2>/dev/null || true
	@build-fuzz/bin/parser_fuzzer -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 -rss_limit_mb=2048 build-fuzz/corpus

fuzz-shardings: build
	@status=0; for seed in $(FUZZ_SEEDS); do \
	  echo "== seed $$seed"; \
	  $(BUILD_DIR)/bin/autopart_sharding_fuzz --seed $$seed --mutants $(FUZZ_MUTANTS) \
	    --work $(BUILD_DIR)/sharding-fuzz/seed-$$seed --models $(FUZZ_MODELS) || status=1; \
	done; exit $$status

clean:
	rm -rf build build-asan build-fuzz

# make fuzz-exec: the executor fuzzer for FUZZ_EXEC_SECONDS over StableHLO's
# interpreter tests, examples/ and the small shared models (docs/fuzzing.md).
FUZZ_EXEC_SECONDS ?= 600
FUZZ_EXEC_SEED ?= 1
.PHONY: fuzz-exec
fuzz-exec: build
	@$(BUILD_DIR)/bin/autopart_exec_fuzz --seed $(FUZZ_EXEC_SEED) --seconds $(FUZZ_EXEC_SECONDS) --timeout 20 \
	  --autopart $(BUILD_DIR)/bin/autopart --work $(BUILD_DIR)/exec-fuzz \
	  ../shared/peer/stablehlo/stablehlo/tests/interpret examples \
	  ../shared/models/jax_mnist_mlp_train_step.mlir
