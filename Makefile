# wkpi-web: two commands matter. `make run` builds and serves the app on
# http://127.0.0.1:8000; `make test` runs every test, browser tests included.
GO      ?= go
ADDR    ?= 127.0.0.1:8000
WEB     := build/web
VERSION := $(shell git rev-parse --short HEAD 2>/dev/null || echo dev)-$(shell date +%s)

DIST    := dist
PREFIX  ?=
MODELS  ?=
EDGE    := build/edge

.PHONY: all run test data web dist edge node bench fuzz clean

all: web

## data: copy the benchmark datasets from ../shared/datasets (or download the TU zips) into data/
data:
	$(GO) run ./cmd/datasets -from ../shared/datasets -to data

## web: build the static site (app wasm, worker and classifier wasm with their SIMD loops, assets, demo data, RDKit
## for drawing molecules) into build/web; MODELS="a.json b.json" bundles model files from wkpi train (see dist)
WASMFLAGS := -trimpath -ldflags="-s -w"
# The page computes nothing (the workers do): built without inlining, its
# binary is 7 % smaller in brotli. The classifier inlines the numerical
# pipeline's inner loops, Go's runtime, math and gonum, and nothing else (not
# the parsers, the explanations' bookkeeping, the job glue, the per-graph
# orchestration of features and model, the training code it links only
# traces of): 6 % smaller (docs/deploy.md).
PAGEFLAGS := $(WASMFLAGS) -gcflags=all=-l
NOINLINE := smiles graphfile scaffold explain dataset tu swc wire spec features model learn eval crossval compare fingerprint wl pdkernel graphstats
CLASSIFIERFLAGS := $(WASMFLAGS) -tags wkpisimd -gcflags=all=-l -gcflags=wkpi-web/...= -gcflags=runtime= -gcflags=math/...= -gcflags=gonum.org/...= \
	$(foreach p,$(NOINLINE),-gcflags=wkpi-web/core/$(p)=-l) -gcflags=wkpi-web/wasm/...=-l
RDKIT     := cmd/static/rdkit/node_modules/@rdkit/rdkit/dist
web: data cmd/static/rdkit/node_modules/.package-lock.json
	mkdir -p $(WEB)/web
	GOOS=js GOARCH=wasm $(GO) build $(PAGEFLAGS) -o $(WEB)/web/app.wasm ./wasm/app
	GOOS=js GOARCH=wasm $(GO) build $(WASMFLAGS) -tags wkpisimd -o $(WEB)/web/worker.wasm ./wasm/worker
	GOOS=js GOARCH=wasm $(GO) build $(CLASSIFIERFLAGS) -o $(WEB)/web/classifier.wasm ./wasm/classifier
	@command -v wat2wasm >/dev/null || { echo "make web: wat2wasm not found: install Debian's wabt (apt-get install wabt)"; exit 1; }
	wat2wasm core/kernel/terms_wasm.wat -o $(WEB)/web/kernel.wasm
	$(GO) run ./cmd/static -out $(WEB) -public public -data data -version $(VERSION) -models "$(MODELS)" -rdkit $(RDKIT)

## dist: the site to deploy, into dist/: content-hashed wasm, worker and data names, .br and .gz
## copies (brotli 11: about a minute). PREFIX=/wkpi-web builds it for that sub-path. MODELS="a.json
## b.json" publishes a classifier: the site opens on Classify with those models kept. docs/deploy.md
dist: web
	rm -rf $(DIST)
	$(GO) run ./cmd/static -out $(DIST) -wasm $(WEB)/web -public public -data data -version $(VERSION) -prefix "$(PREFIX)" -models "$(MODELS)" -rdkit $(RDKIT) -hash -brotli 11

## edge: the Cloudflare Worker (cmd/edge) into build/edge: its entry worker.mjs (ours, one Go instance
## per isolate), app.wasm, and site/ (dist/ as hard links, plus the bundled model trained on MUTAG,
## which the Worker reads through its ASSETS binding). Needs dist/: make dist edge. docs/deploy.md
edge: data
	@test -f $(DIST)/index.html || { echo "make edge: no $(DIST)/index.html: the Worker serves the site, run make dist edge"; exit 1; }
	$(GO) run ./cmd/wkpi train -data data/MUTAG -out cmd/edge/model.json
	$(GO) tool workers-assets-gen -mode=go -o $(EDGE)
	rm -f $(EDGE)/runtime.mjs
	cp cmd/edge/worker.mjs $(EDGE)/worker.mjs
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags="-s -w -X main.version=$(VERSION)" -o $(EDGE)/app.wasm ./cmd/edge
	cp -al $(DIST) $(EDGE)/site 2>/dev/null || cp -R $(DIST) $(EDGE)/site
	mkdir -p $(EDGE)/site/api/_bundled
	$(GO) run ./cmd/edge -model cmd/edge/model.json -stored $(EDGE)/site/api/_bundled/model.bin

## node: the npm packages the tests use (axe-core, wrangler), pinned by their lock files;
## npm ci runs again only when a lock file changes (the rule also installs RDKit for web)
NODE_DIRS := cmd/serve/testdata/axe cmd/edge
node: $(addsuffix /node_modules/.package-lock.json,$(NODE_DIRS))
%/node_modules/.package-lock.json: %/package-lock.json
	npm ci --no-audit --no-fund --prefix $*

## run: build and serve the app
run: web
	$(GO) run ./cmd/serve -addr $(ADDR) -root $(WEB)

## test: every test; browser tests run in headless Chromium
test: data web dist edge node
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 40m ./...

## bench: the speed targets (figures go to docs/benchmarks.md)
bench: data
	$(GO) test -run '^$$' -bench . -benchmem ./core/...

## fuzz: a short run of every fuzz target (the seed corpora also run in `make test`)
fuzz:
	@for pkg in $$($(GO) list ./core/...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime 20s $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf build $(DIST)
