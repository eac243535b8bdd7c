#!/usr/bin/env bash
# Builds the extension and its tests with javac against Debian's junit5 and runs them with its
# console launcher: ./clients/java/test.sh (the emulator from APNS_EMULATOR_BIN or PATH).
set -euo pipefail
cd "$(dirname "$0")"
junit=${JUNIT_CONSOLE:-/usr/share/java/junit-platform-console-standalone.jar}
[ -f "$junit" ] || { echo "no JUnit console launcher at $junit: apt-get install junit5" >&2; exit 1; }
rm -rf build
javac -Xlint:all -Werror -d build/main -cp "$junit" $(find src/main -name '*.java')
javac -Xlint:all -Werror -d build/test -cp "build/main:$junit" $(find src/test -name '*.java')
exec java -jar "$junit" -cp build/main:build/test --select-class apnsemulator.ApnsEmulatorTest --select-class apnsemulator.EnvironmentsTest --disable-banner --details=tree
