# The README's commands. Each one installs missing Debian packages, configures
# and builds incrementally, then does its job; each works as the first command
# on a fresh machine.
#
#   make check            build and run every test (lit and unit)
#   make demo             build and run the examples
#   make check-sanitize   the same tests in an ASan+UBSan build (build-san/)
#   make docs             refresh docs/ from the TableGen definitions
#   make fuzz             random programs through the whole pipeline
#                         (FUZZ_SEED, FUZZ_COUNT; failures reduced into
#                         fuzz-failures/)
#   make bench            compile times (bench/compile-results.json), then the workloads'
#                         benchmark (bench/): table, bench/results.json, docs/bench.png,
#                         then bench-matrix-rules and bench-pose-graph
#   make bench-compile    only the compile times
#   make bench-memory-model  what the general memory model costs against the
#                         memref model (bench/memory-model-results.json)
#   make bench-auto-checkpoint  long loops checkpointed without a pragma, against
#                         every loop recorded (bench/auto-checkpoint-results.json)
#   make bench-matrix-rules  Eigen's Cholesky solve differentiated through the
#                         matrix-level rules (bench/matrix-rules-results.json)
#   make bench-eigen-compile  the Eigen tests' compile times with the plugin
#                         and without (bench/eigen-compile-results.json)
#   make bench-pose-graph  a pose-graph edge's Jacobian by Cotangent, by hand
#                         and by Ceres's Jets (bench/pose-graph-results.json)
#   make format           clang-format the C++ sources (format-check: only
#                         check them, as CI does)

BUILD_DIR  ?= build
BUILD_TYPE ?= Release
SANITIZE   ?= OFF
CMAKE_ARGS ?=

CMAKE_CONFIGURE = cmake -G Ninja -S . -B $(BUILD_DIR) \
  -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DCOTANGENT_SANITIZE=$(SANITIZE) $(CMAKE_ARGS)

FUZZ_SEED  ?= 0
FUZZ_COUNT ?= 200

.PHONY: all deps build check demo docs bench bench-compile bench-memory-model bench-matrix-rules bench-eigen-compile bench-pose-graph bench-auto-checkpoint fuzz check-sanitize format format-check clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	@test -f $(BUILD_DIR)/build.ninja || $(CMAKE_CONFIGURE)
	cmake --build $(BUILD_DIR)

check: build
	cmake --build $(BUILD_DIR) --target check-cotangent

demo: build
	@examples/run-demo.sh $(BUILD_DIR)

docs: build
	cmake --build $(BUILD_DIR) --target cotangent-docs

fuzz: build
	python3 test/fuzz/fuzz.py --build $(BUILD_DIR) --clang clang++-22 \
	  --seed $(FUZZ_SEED) --count $(FUZZ_COUNT) --out fuzz-failures

bench: build
	@scripts/install-deps.sh bench
	@bench/run.sh $(BUILD_DIR)

bench-compile: build
	@/usr/bin/python3 bench/compile/run.py $(BUILD_DIR) bench/compile-results.json
	@/usr/bin/python3 scripts/docs-tables.py .

bench-memory-model: build
	@scripts/install-deps.sh bench
	@/usr/bin/python3 bench/memory_model.py $(BUILD_DIR)
	@/usr/bin/python3 scripts/docs-tables.py .

bench-auto-checkpoint: build
	@scripts/install-deps.sh bench
	@/usr/bin/python3 bench/auto_checkpoint.py $(BUILD_DIR)
	@/usr/bin/python3 scripts/docs-tables.py .

bench-matrix-rules: build
	@/usr/bin/python3 bench/matrix_rules.py $(BUILD_DIR)
	@/usr/bin/python3 scripts/docs-tables.py .

bench-eigen-compile: build
	@/usr/bin/python3 bench/eigen_compile.py $(BUILD_DIR)
	@/usr/bin/python3 scripts/docs-tables.py .

bench-pose-graph: build
	@scripts/install-deps.sh bench
	@/usr/bin/python3 bench/pose_graph.py $(BUILD_DIR)
	@/usr/bin/python3 scripts/docs-tables.py .

check-sanitize:
	$(MAKE) check BUILD_DIR=build-san SANITIZE=ON

format: deps
	@scripts/format.sh

format-check: deps
	@scripts/format.sh --check

clean:
	rm -rf $(BUILD_DIR) build-san
