# Every target that builds first installs what is missing (Debian packages via
# apt-get), so each works on a fresh machine.
SANITIZE ?= 0
CXX_COMPILER ?=
JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 60

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

.PHONY: all deps build test demo bench fuzz clean

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

clean:
	rm -rf build build-asan build-fuzz
