# apns-emulator: build the release binary, put it on PATH, run the tests.
PREFIX ?= /usr/local

.PHONY: build install test

build:
	swift build -c release --static-swift-stdlib --product apns-emulator

install: build
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -s -m 755 "$$(swift build -c release --show-bin-path)/apns-emulator" "$(DESTDIR)$(PREFIX)/bin/apns-emulator"

test:
	.ci/run

# The container image (Containerfile): the release binary on a slim Debian base, run as a non-root
# user. ENGINE=docker or podman (whichever is found); BASE=<image> for a base other than
# debian:bookworm-slim (.ci/container-base.sh makes one from Debian's mirror alone).
ENGINE ?= $(shell command -v podman >/dev/null 2>&1 && echo podman || echo docker)
IMAGE ?= apns-emulator:latest
BASE ?= debian:bookworm-slim

.PHONY: image
image: build
	cp "$$(swift build -c release --show-bin-path)/apns-emulator" .build/apns-emulator.image
	strip .build/apns-emulator.image
	$(ENGINE) build $(if $(filter podman,$(ENGINE)),--format docker) --build-arg BASE=$(BASE) --build-arg BINARY=.build/apns-emulator.image -t $(IMAGE) -f Containerfile .
