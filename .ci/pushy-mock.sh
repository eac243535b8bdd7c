#!/usr/bin/env bash
# Builds Pushy's MockApnsServer (https://github.com/jchambers/pushy), the mock Java projects test
# against, as the benchmark's peer (.ci/benchmark.sh peers). Nothing of Pushy is kept in this
# repository: this compiles its com.eatthepath.pushy.apns.server classes (and what they use) from a
# checkout with javac, against Debian's Netty 4.1.48 and its OpenSSL binding, SLF4J and JCTools.
#
#   git clone https://github.com/jchambers/pushy /tmp/pushy
#   .ci/pushy-mock.sh /tmp/pushy /tmp/pushy-mock      (a work tree, or a git directory)
#   PUSHY_MOCK=/tmp/pushy-mock/run .ci/benchmark.sh peers
#
# Writes OUT/classes and OUT/run (run PORT CERT.pem KEY.pem: the key is turned into PKCS#8, which
# Pushy reads, and the server runs with two event-loop threads, ALPN and OpenSSL).
set -euo pipefail
source=${1:?"usage: $0 PUSHY_CHECKOUT OUT"}
out=${2:?"usage: $0 PUSHY_CHECKOUT OUT"}
root=$(cd "$(dirname "$0")/.." && pwd)
packages=(default-jdk-headless libnetty-java libnetty-tcnative-java libnetty-tcnative-jni libslf4j-java libjctools-java)
missing=()
for p in "${packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then apt-get install -y "${missing[@]}" >&2
  else echo "missing: ${missing[*]} (apt-get install -y ${missing[*]})" >&2; exit 1; fi
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
src="$out/src"
rm -rf "$src" "$out/classes"
mkdir -p "$src" "$out/classes" "$out/lib"
if [ -d "$source/pushy/src/main/java" ]; then
  cp -r "$source/pushy/src/main/java/." "$src/"
else
  git --git-dir="$source" archive HEAD pushy/src/main/java | tar -x -C "$out"
  cp -r "$out/pushy/src/main/java/." "$src/" && rm -rf "$out/pushy"
fi
j=/usr/share/java
cp=$(printf '%s:' "$j"/netty-{buffer,codec,codec-dns,codec-http,codec-http2,common,handler,handler-proxy,resolver,resolver-dns,transport}.jar "$j/netty-tcnative.jar" "$j/slf4j-api.jar" "$j/slf4j-nop.jar" "$j/jctools-core.jar")
# netty-tcnative looks for libnetty_tcnative.so; Debian ships it as libnetty-tcnative.so.
cp /usr/lib/*/jni/libnetty-tcnative.so "$out/lib/libnetty_tcnative.so"
# javac follows the source path from the server package and the main to what they use.
javac -nowarn -encoding UTF-8 -d "$out/classes" -cp "$cp" -sourcepath "$src" \
  "$src"/com/eatthepath/pushy/apns/server/*.java "$root/.ci/pushy/PushyMockMain.java" >&2
cat > "$out/run" <<RUN
#!/usr/bin/env bash
# run PORT CERT.pem KEY.pem: Pushy's MockApnsServer on PORT, accepting every notification.
set -euo pipefail
key="$out/server-key.pkcs8.pem"
openssl pkcs8 -topk8 -nocrypt -in "\$3" -out "\$key"
exec java -Djava.library.path="$out/lib" -cp "$out/classes:$cp" PushyMockMain "\$1" "\$2" "\$key"
RUN
chmod +x "$out/run"
echo "$out/run"
