# glslice: `make demo` and `make test` work on a fresh Debian machine with Swift.
SHELL := /bin/bash
SYSTEM_PACKAGES := libpng-dev zlib1g-dev libdeflate-dev libssl-dev libwebp-dev webp libegl-dev libgles-dev libegl-mesa0 libgl1-mesa-dri
SWIFT ?= swift
# One build configuration for everything (issue 70): release, with testing enabled so the tests
# build beside the products, and no target builds the same modules twice with other flags.
# (Renders/s against a plain release build, alternated: 0.96x small outputs, 1.05x HD, within noise.)
RELEASE := -c release -Xswiftc -enable-testing
RELEASE_BIN := .build/release
GLSLICE := $(RELEASE_BIN)/glslice

.PHONY: test-decoders bench-compression same-bytes readme-picture install uninstall docker-image test-browser bench-serve soak-serve fuzz test-asan test-tsan bench-hostile bench-round-five setup deps install-missing test-slurm build demo test bench bench-cpu bench-gpu bench-giant bench-fills bench-peers bench-peers-small bench-gpu-own bench-hybrid bench-bound bench-bound-images fuzz-bound bench-memory bench-serve-memory bench-gpu-memory time-tool fixtures clean

setup: deps build

# Installs only the Debian packages that are missing (as root, or through sudo).
deps:
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(SYSTEM_PACKAGES)"

install-missing:
	@missing=""; \
	for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "setup: system packages present ($(PACKAGES))"; exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; \
	else echo "setup: missing:$$missing; install them as root: apt-get install$$missing" >&2; exit 1; fi; \
	echo "setup: installing$$missing"; \
	$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing

build: deps
	$(SWIFT) build $(RELEASE)

demo: setup
	@mkdir -p out
	$(GLSLICE) render Fixtures/button.png    --insets 14,12,14,12 --size 160x44 -o out/button-160x44@1x.png
	$(GLSLICE) render Fixtures/button@2x.png --insets 14,12,14,12 --size 160x44 -o out/button-160x44@2x.png
	$(GLSLICE) render Fixtures/button@3x.png --insets 14,12,14,12 --size 160x44 -o out/button-160x44@3x.png
	$(GLSLICE) render Fixtures/button@2x.png --insets 14,12,14,12 --size 90x60 --scale 3 -o out/button-90x60-from2x@3x.png
	$(GLSLICE) render Fixtures/panel.png     --insets 8,8,8,8 --pixels 320x200 -o out/panel-320x200.png
	$(GLSLICE) render Fixtures/panel.png     --insets 8,8,8,8 --size 160x100 --scale 2 -o out/panel-160x100@2x.png
	$(GLSLICE) render Fixtures/bar.png       --pixels 400x24 -o out/bar-400x24.png
	$(GLSLICE) render Fixtures/texture.png   --insets 6,6,6,6 --mode tile  --pixels 300x200 -o out/texture-tile.png
	$(GLSLICE) render Fixtures/texture.png   --insets 6,6,6,6 --mode round --pixels 300x200 -o out/texture-round.png
	$(GLSLICE) render Fixtures/texture.png   --insets 6,6,6,6 --mode space --pixels 300x200 -o out/texture-space.png
	$(GLSLICE) render Fixtures/texture.png   --insets 6,6,6,6 --mode repeat --no-center --pixels 300x200 -o out/texture-frame.png
	$(GLSLICE) render Fixtures/shadow.png    --insets 16,16,16,16 --pixels 240x160 -o out/shadow-240x160.png
	$(GLSLICE) render Fixtures/bubble.9.png  --pixels 160x60 -o out/bubble-160x60.png
	$(GLSLICE) render Fixtures/button.imageset --size 160x44 --scale 3 -o out/button-imageset-160x44@3x.png
	$(GLSLICE) inspect Fixtures/texture.png --insets 6,6,6,6
	$(GLSLICE) optimize Fixtures/bubble.9.png -o out/bubble-optimized.9.png
	$(GLSLICE) preview Fixtures/bubble.9.png Fixtures/button.imageset Fixtures/android/gradient.9.png \
	    Fixtures/android/optical.9.png -o out/preview-sheet.png
	$(GLSLICE) preview Fixtures/texture.png --insets 6,6,6,6 -o out/preview-texture.png
	$(GLSLICE) preview Fixtures/shadow.png --insets 16,16,16,16 -o out/preview-shadow.png
	@# The same texture tiled and rounded: the heat map shows where CSS round rescales the bricks.
	$(GLSLICE) compare out/texture-tile.png out/texture-round.png --diff out/compare-tile-vs-round.png || test $$? = 1
	@echo "demo: $$(ls out/*.png | wc -l) images in $$(pwd)/out/"

test: setup
	python3 Scripts/check-flow.py
	python3 Scripts/check-words.py
	@# Every shader as the driver gets it, through Khronos's reference compiler (issue 68).
	@$(MAKE) --no-print-directory install-missing PACKAGES="glslang-tools"
	python3 Scripts/check-shaders.py $(RELEASE_BIN)/glslice-bench Shaders
	$(SWIFT) build $(RELEASE) --build-tests
	@# Two runs of one build: the CLI suites wait on glslice processes, holding the test
	@# process's threads (two on two cores) for minutes, and the in-process servers'
	@# handlers and drain windows in GlsliceServeTests need those threads to answer in time.
	$(SWIFT) test $(RELEASE) --skip-build --disable-xctest --skip GlsliceServeTests
	$(SWIFT) test $(RELEASE) --skip-build --disable-xctest --filter GlsliceServeTests
	@$(MAKE) --no-print-directory test-decoders

# `default` files (glslice deflate) read by Pillow and pypng (Debian's packages) to the pixels of
# their zlib twins: seeded random jobs and shapes at the limits (Scripts/test-decoders.py).
DECODER_PACKAGES := python3-pil python3-png
test-decoders: build
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(DECODER_PACKAGES)"
	@# Debian's python3, which the Debian packages install into (a pyenv python3 on PATH would not see them).
	/usr/bin/python3 Scripts/test-decoders.py $(GLSLICE)

# The preview page in headless Chromium (Debian's chromium), driven over the DevTools
# protocol: pick, drag a cap guide, drag the resize handle, switch modes; each time the
# page's image must equal `glslice render` for the command line it shows.
BROWSER_PACKAGES := chromium
test-browser: setup
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(BROWSER_PACKAGES)"
	python3 Scripts/test-browser.py $(GLSLICE)

# `glslice serve` under wrk (Debian's package): 200 URLs, 60 s at 64 connections, warm
# cache and cold, then SIGTERM under load (Scripts/bench-serve.py; BENCH_SECONDS=60).
bench-serve: setup
	@$(MAKE) --no-print-directory install-missing PACKAGES="wrk"
	@mkdir -p out
	set -o pipefail; python3 Scripts/bench-serve.py $(GLSLICE) | tee out/bench-serve.txt

# `glslice serve` for 10 minutes at 64 connections (wrk's mix of renders, previews and bad
# requests, slow readers, idle and half-sent connections), RSS every 10 s; fails when RSS
# after the first minute leaves 10% of its level then (Scripts/soak-serve.py; SOAK_SECONDS=600).
# SOAK_BACKEND=gpu serves on the GPU and adds wide, tall and many-source URLs.
SOAK_BACKEND ?= cpu
soak-serve: setup
	@$(MAKE) --no-print-directory install-missing PACKAGES="wrk"
	@mkdir -p out
	set -o pipefail; SOAK_BACKEND=$(SOAK_BACKEND) python3 Scripts/soak-serve.py $(GLSLICE) | tee out/soak-serve-$(SOAK_BACKEND).txt

# A single-node Slurm cluster on this machine (as root): three array shapes over one
# manifest must render every job once, byte-identical to one machine (Scripts/test-slurm.sh).
SLURM_PACKAGES := slurmctld slurmd slurm-client munge
test-slurm: setup
	@$(MAKE) --no-print-directory install-missing PACKAGES="$(SLURM_PACKAGES)"
	Scripts/test-slurm.sh $(GLSLICE) $(RELEASE_BIN)/glslice-bench

bench-cpu: setup
	$(RELEASE_BIN)/glslice-bench --backend cpu --jobs 1200 --out out/bench-cpu

# The same job set through the GPU backend (llvmpipe where there is no GPU).
bench-gpu: setup
	$(RELEASE_BIN)/glslice-bench --backend gpu --jobs 1200 --out out/bench-gpu

# One-colour cells (CellFill): a 2,000^2 render whose centre cell is one colour, from
# centres of 1 to 2,048 px, filled and sampled, on both backends.
bench-fills: setup
	$(RELEASE_BIN)/glslice-bench fills --backend cpu
	$(RELEASE_BIN)/glslice-bench fills --backend gpu

# 20,000 x 20,000 px on each backend, peak RSS from /usr/bin/time -v (Debian package `time`).
bench-giant: setup time-tool
	Scripts/bench-giant.sh

# The render farm: a deterministic 2,400-job manifest through `glslice batch` on both
# backends (renders/s, bytes, peak RSS), and the encode-only floor of its outputs.
BENCH_DIR := out/bench-farm
bench: setup time-tool
	@mkdir -p $(BENCH_DIR)
	$(RELEASE_BIN)/glslice-bench manifest $(BENCH_DIR)/manifest.jsonl --jobs 2400 --seed 42
	Scripts/bench-farm.sh $(BENCH_DIR)

# A refactor's check (issue 41): every output of the bench manifest (a fifth WebP), the HD
# set, the 20,000^2 giant and the README examples, on cpu, gpu and hybrid, written by BEFORE
# (a glslice binary built from the commit before) and by this build, compared byte for byte.
#   make same-bytes BEFORE=/tmp/glslice-before
same-bytes: setup
	@test -x "$(BEFORE)" || { echo "same-bytes: give BEFORE=PATH, a glslice binary to compare against"; exit 64; }
	Scripts/same-bytes.sh $(BEFORE) out/same-bytes/before
	Scripts/same-bytes.sh $(RELEASE_BIN)/glslice out/same-bytes/after
	diff -r -x .glslice-resume out/same-bytes/before out/same-bytes/after && echo "same-bytes: every file identical (each run's resume index, named by its process, aside)"

# `default` (glslice's own deflate, issues 42 and 51) against `zlib` (zlib 6, the default
# before renderer 7), and with BEFORE=PATH an older glslice's fast: the bench manifest, 400 HD outputs (the device kit's mix) and the
# three giants, RUNS=5 alternated batch runs each (Scripts/bench-compression.py).
bench-compression: setup
	@mkdir -p out/bench-compression
	$(RELEASE_BIN)/glslice-bench manifest out/bench-compression/bench.jsonl --jobs 2400 --seed 42
	python3 Scripts/hd-set.py out/bench-compression
	python3 Scripts/bench-compression.py $(GLSLICE) out/bench-compression $(BEFORE) | tee out/bench-compression.txt

# Issue 52's bound: the GL thread's own work per GPU-encoded output against the CPU's draw +
# encode per output, 600 small and 40 HD outputs, GPU encoding forced (Scripts/bench-gpu-own.py).
bench-gpu-own: setup
	@mkdir -p out/bench-compression
	$(RELEASE_BIN)/glslice-bench manifest out/bench-compression/bench.jsonl --jobs 2400 --seed 42
	python3 Scripts/hd-set.py out/bench-compression
	python3 Scripts/bench-gpu-own.py $(GLSLICE) out/bench-compression | tee out/bench-gpu-own.txt

# Issue 68: `--backend hybrid` against `cpu` on llvmpipe (600 small and 40 HD outputs, GPU encoding
# forced and off, RUNS=3 alternated runs, /dev/shm), then the scheduler with a device double at 0.1x,
# 1x and 10x a core against the ideal n / (CPU rate + GPU rate) (Scripts/bench-hybrid.py).
bench-hybrid: setup
	@mkdir -p out/bench-compression
	$(RELEASE_BIN)/glslice-bench manifest out/bench-compression/bench.jsonl --jobs 2400 --seed 42
	python3 Scripts/hd-set.py out/bench-compression
	set -o pipefail; python3 Scripts/bench-hybrid.py $(GLSLICE) $(RELEASE_BIN)/glslice-bench out/bench-compression | tee out/bench-hybrid.txt

# The default encoder against zlib 6 on the adversarial corpus (issue 69: rows repeating k rows
# back, rows shifted s px, dithers, a screenshot, two-colour noise, narrow tall `round`, 1-px
# stretches): bytes and encode time, each family's worst (Benchmarks/GlsliceBench/EncoderBound.swift).
bench-bound: setup
	@mkdir -p out
	set -o pipefail; $(RELEASE_BIN)/glslice-bench bound --runs 5 | tee out/bench-bound.txt

# The corpus at other seeds and sizes: prints each image over 1.10x zlib 6's bytes or 1.5x its time
# (medians of 7, about 3 minutes; figures, not a verdict: with medians of 3 a 1-ms image's time ratio
# moved by a third from run to run, and each run put a different one over 1.5x).
fuzz-bound: setup
	@mkdir -p out
	set -o pipefail; for seed in 1 2 3; do for size in "600 240" "1500 300" "333 901"; do set -- $$size; \
	  $(RELEASE_BIN)/glslice-bench bound --runs 7 --seed $$seed --width $$1 --height $$2 \
	  | awk -F'|' -v run="seed $$seed, $$1x$$2:" '/^\| [a-z]/ && ($$6 + 0 > 1.10 || $$9 + 0 > 1.5) { print run, $$0 }'; done; done | tee out/fuzz-bound.txt

# The bound image by image on the outputs a farm writes: the bench manifest and the HD set, each
# rendered by the default and by zlib 6; how many are over 1.10x, the worst (Scripts/bound-per-image.py).
bench-bound-images: setup
	@mkdir -p out/bench-compression
	$(RELEASE_BIN)/glslice-bench manifest out/bench-compression/bench.jsonl --jobs 2400 --seed 42
	python3 Scripts/hd-set.py out/bench-compression
	set -o pipefail; for set in bench hd400; do python3 Scripts/bound-per-image.py $(GLSLICE) out/bench-compression/$$set.jsonl; done \
	  | tee out/bench-bound-images.txt

# The same manifest through Skia and libvips (from PyPI, in .venv), one table.
bench-peers: setup time-tool
	@test -x .venv/bin/python || python3 -m venv .venv
	.venv/bin/pip install -q skia-python==144.1 pyvips==3.2.0 pyvips-binary==8.18.7
	@mkdir -p out/bench-peers
	$(RELEASE_BIN)/glslice-bench manifest out/bench-peers/manifest.jsonl --jobs 2400 --seed 42
	.venv/bin/python Benchmarks/peers/bench_peers.py out/bench-peers/manifest.jsonl out/bench-peers

# The same peers on issue 51's farm of small outputs (Scripts/small-farm.py: 40-640 x 30-240 px
# from the five fixtures, stretch and tile), where a job's fixed costs weigh most; runs on /dev/shm.
bench-peers-small: setup time-tool
	@test -x .venv/bin/python || python3 -m venv .venv
	.venv/bin/pip install -q skia-python==144.1 pyvips==3.2.0 pyvips-binary==8.18.7
	@mkdir -p /dev/shm/glslice-peers-small
	python3 Scripts/small-farm.py /dev/shm/glslice-peers-small/manifest.jsonl
	RUNS=$${RUNS:-5} .venv/bin/python Benchmarks/peers/bench_peers.py /dev/shm/glslice-peers-small/manifest.jsonl /dev/shm/glslice-peers-small | tee out/bench-peers-small.txt

# 200,000 jobs (small outputs) through batch on the CPU backend: peak RSS stays flat.
bench-memory: setup time-tool
	Scripts/bench-memory.sh

# serve's peak RSS against --answer-mb 256 under ulimit -v: lattice URLs at the region
# limit, two and three concurrent WebPs by name and by Accept (Scripts/bench-serve-memory.py).
bench-serve-memory: setup
	python3 Scripts/bench-serve-memory.py $(GLSLICE)

# GPU memory under hostile shapes (issue 39): serve's RSS after 40000x1 then 1x40000 on the
# GPU, 30 insets-only URLs on one 3000² source, hybrid with 20 jobs past the GPU's texture
# limit among 40 (RUNS=10 runs), a batch's peak RSS (Scripts/bench-gpu-memory.py).
bench-gpu-memory: setup time-tool
	@mkdir -p out
	set -o pipefail; python3 Scripts/bench-gpu-memory.py $(GLSLICE) | tee out/bench-gpu-memory.txt

# /usr/bin/time -v measures peak RSS in the benchmarks (Debian package `time`).
time-tool:
	@command -v /usr/bin/time >/dev/null || { [ "$$(id -u)" = 0 ] && apt-get install -y -qq time; } \
	  || { echo "bench: install the 'time' package (apt-get install time)" >&2; exit 1; }

# Round five's figures (issue 49): tall `fast` outputs on gpu and hybrid with GPU encoding
# forced, serve alongside them, the encoder's memory, and `fast` against `default`
# (Scripts/bench-round-five.py; RUNS, SERVE_ROUNDS, TALL). About 15 minutes here.
bench-round-five: setup
	@mkdir -p out
	set -o pipefail; python3 Scripts/bench-round-five.py $(GLSLICE) | tee out/bench-round-five.txt

# Time and peak RSS on issue 10's hostile inputs (Scripts/bench-hostile.sh).
bench-hostile: setup time-tool
	Scripts/bench-hostile.sh

# libFuzzer + AddressSanitizer over every input parser, FUZZ_SECONDS each (default 600),
# FUZZ_JOBS targets at a time; corpora in Fuzz/corpus/ (Scripts/fuzz.sh). Not a CI step.
fuzz: deps
	Scripts/fuzz.sh

# The encoder's random round trip at length: GLSLICE_ENCODER_CASES random images and
# plans of cuts, each decoded by libpng and encoded again on 3 threads (make test runs 300).
ENCODER_CASES ?= 100000
fuzz-encoder: deps
	GLSLICE_ENCODER_CASES=$(ENCODER_CASES) $(SWIFT) test $(RELEASE) --disable-xctest --filter SegmentedZlibTests

# The whole suite under AddressSanitizer. Leaks are the fuzzers' to find
# (`make fuzz` runs with detect_leaks=1 per input); here every glslice process
# ends in exit() with its objects alive, which LeakSanitizer would list. The
# two `ulimit -v` tests skip themselves (ASan's shadow memory needs terabytes
# of address space). Not a CI step: about three times the plain suite's time.
test-asan: deps
	GLSLICE_SANITIZER=address ASAN_OPTIONS=detect_leaks=0 \
	  $(SWIFT) test --disable-xctest --sanitize=address --scratch-path .build-asan

# The batch tests (queues, workers, source cache, GPU batch) under ThreadSanitizer.
# GLSLICE_TSAN makes `Locked` (Sources/GlsliceKit/System/Locked.swift) annotate its
# critical sections: ThreadSanitizer cannot see Synchronization.Mutex on Linux.
test-tsan: deps
	GLSLICE_SANITIZER=thread TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --disable-xctest --sanitize=thread --scratch-path .build-tsan -Xswiftc -DGLSLICE_TSAN \
	  --filter 'Batch|BoundedQueue|StageQueue|SharedGPU|SourceCache|Shard|Manifest|Hardening|LoadControl|RenderEndpoint|Preview|Signature'

# Regenerates Fixtures/ sources (the PngSuite expectations need pypng, see the script).
fixtures:
	python3 Scripts/make-fixtures.py

# `make install PREFIX=~/.local` puts glslice in PREFIX/bin, with bash and zsh completion.
PREFIX ?= /usr/local
# Builds only the glslice product: not glslice-bench, glslice-fuzz or the test-only packages.
install: deps
	$(SWIFT) build $(RELEASE) --product glslice
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions"
	install -m 755 $(GLSLICE) "$(DESTDIR)$(PREFIX)/bin/glslice"
	$(GLSLICE) --generate-completion-script bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/glslice"
	$(GLSLICE) --generate-completion-script zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_glslice"
	@echo "install: $(DESTDIR)$(PREFIX)/bin/glslice"
	@echo "install: bash completion in $(DESTDIR)$(PREFIX)/share/bash-completion/completions/glslice"
	@case "$(PREFIX)" in "$$HOME/.local"|/usr/local|/usr) echo "install: bash-completion loads it from there" ;; \
	  *) echo "install: for bash, add it: echo 'source $(PREFIX)/share/bash-completion/completions/glslice' >> ~/.bashrc" ;; esac
	@echo "install: zsh completion in $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_glslice"
	@echo "install: for zsh, add it before any compinit in ~/.zshrc, or run: echo 'fpath=($(PREFIX)/share/zsh/site-functions \$$fpath); autoload -Uz compinit && compinit' >> ~/.zshrc"
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; \
	  *) echo "install: $(PREFIX)/bin is not on your PATH; add it: echo 'export PATH=\"$(PREFIX)/bin:\$$PATH\"' >> ~/.bashrc" ;; esac

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/glslice" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/glslice" \
	      "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_glslice"

# The image builds from the dependency versions this checkout resolved (deploy/README.md).
docker-image:
	$(SWIFT) package resolve
	docker build -f deploy/Dockerfile -t glslice .

clean:
	rm -rf .build out

# The README's picture (docs/images/overview.png): button@2x.png with its caps, and two renders.
readme-picture: build
	python3 Scripts/readme-picture.py $(GLSLICE) docs/images/overview.png
