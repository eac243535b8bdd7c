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
