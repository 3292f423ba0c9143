# The two README commands (`make run`, `make test`) and developer shortcuts.
.PHONY: run test test-docker build asan deps format tidy bench clean

run:
	scripts/run.sh

test:
	scripts/test.sh

# The docker/ images and compose stack, run for real with podman (docs/deploy.md).
test-docker:
	scripts/test-docker.sh

deps:
	scripts/deps.sh

build: deps
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build build -j $$(nproc)

asan: deps
	cmake -S . -B build-asan -DSK_SANITIZE="address;undefined" >/dev/null
	cmake --build build-asan -j $$(nproc)

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

tidy: build
	scripts/tidy.sh build

bench: build
	bench/run.sh

clean:
	rm -rf build build-asan
