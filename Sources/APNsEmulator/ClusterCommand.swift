import APNsCore
import ArgumentParser
import Foundation

/// `apns-emulator cluster`: running several emulators as shards behind HAProxy.
struct ClusterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Run several emulators as shards behind HAProxy.",
        version: EmulatorVersion.string,
        subcommands: [HAProxyConfig.self, Run.self]
    )

    /// Writes a working HAProxy configuration for N shards.
    struct HAProxyConfig: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "haproxy-config",
            abstract: "Write haproxy.cfg and its map for N shards (serve --shard K/N each).",
            discussion: """
                HAProxy terminates TLS for providers with the emulator's CA-signed server certificate, speaks HTTP/2 \
                on both sides, and routes each /3/device/<token> stream to the shard its token's first byte maps to \
                (shards.map, one line per byte); /4/broadcasts/apps/<bundle> and /1/apps/<bundle> go by a CRC-32 of \
                the bundle id (the sum serve --cluster-peers uses to find the shard that owns a bundle). A shard that is down answers 503 {"reason":"ServiceUnavailable"}. Writes haproxy.cfg, \
                shards.map, 503.http and haproxy.pem (certificate and key) into --out; run haproxy -f <out>/haproxy.cfg.
                """,
            version: EmulatorVersion.string
        )

        @Option(help: "How many shards (1 to 256).")
        var shards: Int

        @Option(help: "Each shard's HTTP/2 provider address, in shard order: host:port,host:port,...")
        var hosts: String

        @Option(help: "Where HAProxy listens for providers: the sandbox endpoint (api.sandbox.push.apple.com's).")
        var listen = "127.0.0.1:2197"

        @Option(
            name: .customLong("production-listen"),
            help: """
                Where HAProxy listens for providers of the production endpoint (api.push.apple.com's): the same shards,                 each request marked for production by its :authority. Left out: no production endpoint.
                """)
        var productionListen: String?

        @Option(
            name: .customLong("device-hosts"),
            help: "Each shard's device address, in shard order: devices then connect through HAProxy (TCP, routed by TLS SNI).")
        var deviceHosts: String?

        @Option(name: .customLong("device-listen"), help: "Where HAProxy listens for devices (with --device-hosts).")
        var deviceListen = "127.0.0.1:5223"

        @Option(
            name: .customLong("certs-dir"), help: "The emulators' certificates directory (ca.pem, server.pem, server-key.pem).")
        var certificatesDirectory = "certs"

        @Option(help: "Where the files go.")
        var out = "haproxy"

        func validate() throws {
            guard (1...256).contains(self.shards) else { throw ValidationError("--shards is 1 to 256") }
            let addresses = self.addresses
            guard addresses.count == self.shards else {
                throw ValidationError(
                    "--hosts names \(addresses.count) addresses; --shards \(self.shards) needs one per shard, in shard order")
            }
            if let devices = self.deviceAddresses, devices.count != self.shards {
                throw ValidationError(
                    "--device-hosts names \(devices.count) addresses; --shards \(self.shards) needs one per shard, in shard order"
                )
            }
            for address in addresses + [self.listen] + [self.productionListen].compactMap({ $0 }) + (self.deviceAddresses ?? [])
            where address.split(separator: ":").count != 2 || Int(address.split(separator: ":").last ?? "") == nil {
                throw ValidationError("\(address) is not host:port")
            }
        }

        var addresses: [String] { Self.list(self.hosts) }
        var deviceAddresses: [String]? { self.deviceHosts.map(Self.list) }

        static func list(_ text: String) -> [String] {
            text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }

        func run() throws {
            let out = try self.write()
            say("wrote \(out)/haproxy.cfg, shards.map, 503.http and haproxy.pem; run: haproxy -f \(out)/haproxy.cfg")
        }

        /// Writes the four files; returns the directory they are in.
        func write() throws -> String {
            let out = URL(fileURLWithPath: self.out).standardizedFileURL.path
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            let certificates = URL(fileURLWithPath: self.certificatesDirectory).standardizedFileURL.path
            let read = { (name: String) throws -> String in
                guard let text = try? String(contentsOfFile: certificates + "/" + name, encoding: .utf8) else {
                    throw ValidationError(
                        "cannot read \(certificates)/\(name): start an emulator once (serve makes its certificates) or give --certs-dir"
                    )
                }
                return text
            }
            let pem = try read("server.pem") + (try read("server-key.pem"))
            try self.write(pem, to: out + "/haproxy.pem", permissions: 0o600)
            try self.write(Shard.mapFile(count: self.shards), to: out + "/shards.map")
            try self.write(Self.unavailable, to: out + "/503.http")
            try self.write(self.config(out: out, ca: certificates + "/ca.pem"), to: out + "/haproxy.cfg")
            return out
        }

        private func write(_ text: String, to path: String, permissions: Int = 0o644) throws {
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
        }

        /// HAProxy's answer when a shard cannot be reached: APNs' shape.
        static let unavailable = """
            HTTP/1.1 503 Service Unavailable\r
            content-type: application/json\r
            cache-control: no-cache\r
            connection: close\r
            \r
            {"reason":"ServiceUnavailable"}
            """

        func config(out: String, ca: String) -> String {
            var lines = [
                "# apns-emulator cluster haproxy-config --shards \(self.shards): providers -> HAProxy (TLS, HTTP/2) -> shard by token",
                "global", "",
                "defaults", "  mode http", "  timeout connect 5s", "  timeout client 3600s", "  timeout server 3600s",
                // A stream a stopping shard refused (its GOAWAY) is tried again on a new connection,
                // and a shard that is down is found by its check: its tokens get the 503 below.
                "  retries 2", "  retry-on all-retryable-errors",
                // A shard keeps each provider's authentication per connection, as APNs does (the
                // first key a connection used, how often its token changed): a provider's streams
                // must never share a connection with another's ("safe", the default, shares).
                "  http-reuse never", "",
                "frontend providers",
                "  bind \(self.listen) ssl crt \(out)/haproxy.pem alpn h2,http/1.1",
            ]
            lines += self.routes(out: out)
            if let production = self.productionListen {
                // The production endpoint: the same shards, each request's :authority Apple's
                // production host, which a shard judges in production as it would on its own
                // production port.
                lines += [
                    "frontend providers_production",
                    "  bind \(production) ssl crt \(out)/haproxy.pem alpn h2,http/1.1",
                    "  http-request set-uri https://api.push.apple.com%[path]",
                ]
                lines += self.routes(out: out)
            }
            for (index, address) in self.addresses.enumerated() {
                lines += [
                    "backend shard\(index)",
                    "  errorfile 503 \(out)/503.http",
                    "  server shard\(index) \(address) ssl verify required ca-file \(ca) sni str(localhost) alpn h2 check inter 1s fall 1 rise 1",
                    "",
                ]
            }
            return (lines + self.deviceSection()).joined(separator: "\n")
        }

        /// How a provider frontend routes: a broadcast or a channel request to the shard that owns
        /// the bundle's channels, a push to the shard its token's first byte maps to.
        func routes(out: String) -> [String] {
            [
                "  acl broadcast path_beg /4/broadcasts/apps/",
                "  acl channels path_beg /1/apps/",
                "  acl device path_beg /3/device/",
                "  use_backend shard%[path,field(5,/),crc32(0),mod(\(self.shards))] if broadcast",
                "  use_backend shard%[path,field(4,/),crc32(0),mod(\(self.shards))] if channels",
                "  use_backend %[path,field(4,/),lower,map_beg(\(out)/shards.map,shard0)] if device",
                "  default_backend shard0", "",
            ]
        }

        /// Devices pass through in TCP mode: TLS ends at the shard, routed by the name the device
        /// asks for (`s<K>.devices.localhost`: shard K; anything else: any shard, round robin).
        func deviceSection() -> [String] {
            guard let devices = self.deviceAddresses else { return [] }
            var lines = [
                "frontend devices",
                "  mode tcp",
                "  bind \(self.deviceListen)",
                "  timeout client 3600s",
                "  tcp-request inspect-delay 5s",
                "  tcp-request content accept if { req_ssl_hello_type 1 }",
                "  use_backend devices_%[req_ssl_sni,field(1,.)] if { req_ssl_sni -m reg ^s[0-9]+\\.devices\\. }",
                "  default_backend devices_any", "",
            ]
            for (index, address) in devices.enumerated() {
                lines += [
                    "backend devices_s\(index)", "  mode tcp", "  timeout server 3600s",
                    "  server s\(index) \(address) check inter 1s fall 1 rise 1", "",
                ]
            }
            lines += ["backend devices_any", "  mode tcp", "  timeout server 3600s", "  balance roundrobin"]
            lines += devices.enumerated().map { "  server s\($0.offset) \($0.element) check inter 1s fall 1 rise 1" }
            return lines + [""]
        }
    }
}
