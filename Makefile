# The two README commands (`make run`, `make test`) and developer shortcuts.
.PHONY: run test test-all test-gate test-docker build asan deps format gen-skills tidy bench clean

run:
	scripts/run.sh

# The everyday loop (ASan/UBSan build, every C suite side by side, tidy on changed files).
test:
	scripts/test.sh

# The full gate, what CI runs: the everyday loop, then the Release and TSan builds with the
# browser, TypeScript-client and README tests, tidy on every file, the OpenAPI lint, and the
# container images.
test-all:
	scripts/test.sh
	scripts/test.sh --gate
	scripts/test-docker.sh

test-gate:
	scripts/test.sh --gate

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

# What the skill table (engine/battle/rules/battle_skills.h) writes: the skill lists of
# openapi/openapi.json and the skill table of docs/jobs.md, then the TypeScript client's types
# from the document (docs/kernels.md, "Adding a skill"). test_battle_skills fails while
# either file differs from what the table makes.
gen-skills:
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build build -j $$(nproc) --target gen_skills
	build/tools/gen_skills openapi/openapi.json docs/jobs.md
	npm run --silent gen:client

tidy: build
	scripts/tidy.sh build

bench: build
	bench/run.sh

clean:
	rm -rf build build-asan build-tsan
