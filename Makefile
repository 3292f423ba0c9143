# The two README commands (`make run`, `make test`) and developer shortcuts.
.PHONY: run test build asan deps format tidy bench clean

run:
	scripts/run.sh

test:
	scripts/test.sh

deps:
	scripts/deps.sh

build: deps
	cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build build -j $$(nproc)

asan: deps
	cmake -S . -B build-asan -DSK_SANITIZE="address;undefined" >/dev/null
	cmake --build build-asan -j $$(nproc)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

tidy: build
	clang-tidy -p build --quiet $$(git ls-files 'common/*.c' 'engine/*.c' 'store/*.c' 'api/*.c' 'worker/*.c' 'cli/*.c')

bench: build
	bench/run.sh

clean:
	rm -rf build build-asan
