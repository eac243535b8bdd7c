import APNsCore
import APNsServer
import ArgumentParser
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension ClusterCommand {
    /// Starts N shards and HAProxy in front of them on this machine, until SIGINT or SIGTERM.
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract:
                "Run N shards (serve --shard K/N --cluster-peers ...) and HAProxy in front of them, until SIGINT or SIGTERM.",
            discussion: """
                Shard K listens on --http2-base + K (providers, through HAProxy), --admin-base + K (any shard's admin API \
                and web inbox answer for all) and --device-base + K; its store is <dir>/data<K>, its log <dir>/shard<K>.log. \
                HAProxy (Debian's haproxy) listens on --listen for providers and --device-listen for devices, with the \
                configuration `cluster haproxy-config` writes into <dir>/haproxy. Arguments after -- go to every shard's \
                serve (--auth strict, --durability relaxed, ...). Stopping it stops them all; one of them ending stops the rest.
                """,
            version: EmulatorVersion.string
        )

        @Option(help: "How many shards (2 to 64).")
        var shards = 3

        @Option(help: "Where the shards' stores, logs, certificates, keys and the HAProxy configuration go.")
        var dir = "cluster"

        @Option(help: "Where HAProxy listens for providers: the sandbox endpoint (api.sandbox.push.apple.com's).")
        var listen = "127.0.0.1:2197"

        @Option(
            name: .customLong("production-listen"),
            help: "Where HAProxy listens for providers of the production endpoint (api.push.apple.com's).")
        var productionListen = "127.0.0.1:2297"

        @Option(name: .customLong("device-listen"), help: "Where HAProxy listens for devices.")
        var deviceListen = "127.0.0.1:5223"

        @Option(name: .customLong("http2-base"), help: "Shard K's HTTP/2 provider port is this + K.")
        var http2Base = 21900

        @Option(name: .customLong("admin-base"), help: "Shard K's admin port is this + K.")
        var adminBase = 8200

        @Option(name: .customLong("device-base"), help: "Shard K's device port is this + K.")
        var deviceBase = 52200

        @Argument(parsing: .postTerminator, help: "Flags for every shard's serve, after --.")
        var serveArguments: [String] = []

        func validate() throws {
            guard (2...64).contains(self.shards) else {
                throw ValidationError("--shards is 2 to 64 (one emulator needs no cluster)")
            }
            for (name, base) in [
                ("--http2-base", self.http2Base), ("--admin-base", self.adminBase), ("--device-base", self.deviceBase),
            ]
            where !(1...(65_535 - self.shards)).contains(base) {
                throw ValidationError("\(name) must leave room for \(self.shards) ports below 65536")
            }
        }

        func run() throws {
            let haproxy = try Self.haproxy()
            let directory = URL(fileURLWithPath: self.dir).standardizedFileURL.path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            var children: [Process] = []
            let stop = DispatchSemaphore(value: 0)
            // A signal or a child's end stops everything; children are stopped even when starting fails.
            defer { Self.stopAll(children) }
            let peers = (0..<self.shards).map { "127.0.0.1:\(self.adminBase + $0)" }.joined(separator: ",")
            // Shards ask each other with one token: made here when they would each make their own.
            let made = self.sharedToken()
            if let made { say("cluster admin token: \(made) (every shard's admin API and web inbox ask for it)") }
            let shared = made.map { ["--admin-token", $0] } ?? []
            for index in 0..<self.shards {
                children.append(
                    try Self.spawn(
                        Self.executable, self.serve(index, peers: peers, directory: directory) + shared,
                        log: "\(directory)/shard\(index).log", stop: stop))
                // The first makes the CA and the server certificate the others and HAProxy share.
                try Self.waitForPort(self.adminBase + index, child: children[index], log: "\(directory)/shard\(index).log")
            }
            let config = try HAProxyConfig.parse([
                "--shards", String(self.shards), "--hosts", self.addresses(self.http2Base), "--device-hosts",
                self.addresses(self.deviceBase),
                "--listen", self.listen, "--production-listen", self.productionListen, "--device-listen", self.deviceListen,
                "--certs-dir", directory + "/certs", "--out",
                directory + "/haproxy",
            ])
            _ = try config.write()
            children.append(
                try Self.spawn(
                    haproxy, ["-db", "-f", directory + "/haproxy/haproxy.cfg"], log: directory + "/haproxy.log", stop: stop))
            let sources = [SIGINT, SIGTERM].map { signalNumber in
                signal(signalNumber, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
                source.setEventHandler { stop.signal() }
                source.resume()
                return source
            }
            say(
                "cluster of \(self.shards) shards: providers https://\(self.listen) (sandbox) and https://\(self.productionListen) (production), devices tls://\(self.deviceListen) (s<K>.devices.localhost names shard K), admin http://127.0.0.1:\(self.adminBase) (any shard answers for all), CA \(directory)/certs/ca.pem"
            )
            stop.wait()
            sources.forEach { $0.cancel() }
        }

        /// A token for every shard when their serve flags (or environment) bind beyond loopback
        /// without one; nil when they give one or need none.
        func sharedToken() -> String? {
            let environment = ProcessInfo.processInfo.environment
            let given = Self.value(of: "--admin-token", in: self.serveArguments) ?? environment["APNS_EMULATOR_ADMIN_TOKEN"]
            guard given?.isEmpty ?? true else { return nil }
            let host = Self.value(of: "--host", in: self.serveArguments) ?? "127.0.0.1"
            return AdminAccess.isLoopback(host) ? nil : AdminAccess.makeToken()
        }

        /// The last value a flag is given in `arguments` (`--flag value` or `--flag=value`).
        static func value(of flag: String, in arguments: [String]) -> String? {
            var found: String?
            for (index, argument) in arguments.enumerated() {
                if argument == flag, index + 1 < arguments.count { found = arguments[index + 1] }
                if argument.hasPrefix(flag + "=") { found = String(argument.dropFirst(flag.count + 1)) }
            }
            return found
        }

        /// Shard `index`'s serve arguments.
        func serve(_ index: Int, peers: String, directory: String) -> [String] {
            [
                "serve", "--shard", "\(index)/\(self.shards)", "--cluster-peers", peers, "--host", "127.0.0.1",
                "--http2-port", String(self.http2Base + index), "--admin-port", String(self.adminBase + index), "--device-port",
                String(self.deviceBase + index),
                "--gateway-port", "0", "--feedback-port", "0", "--channels-port", "0", "--web-push-port", "0",
                "--production-http2-port", "0", "--data-dir", "\(directory)/data\(index)",
                "--certs-dir", directory + "/certs", "--keys", directory + "/keys",
            ] + self.serveArguments
        }

        /// This binary, however it was started (by a path or from PATH).
        static var executable: String {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        }

        func addresses(_ base: Int) -> String { (0..<self.shards).map { "127.0.0.1:\(base + $0)" }.joined(separator: ",") }

        static func haproxy() throws -> String {
            let candidates = ["/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"]
            guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                throw ValidationError("haproxy is not installed: apt-get install haproxy")
            }
            return found
        }

        static func spawn(_ executable: String, _ arguments: [String], log: String, stop: DispatchSemaphore) throws -> Process {
            guard FileManager.default.createFile(atPath: log, contents: nil) else { throw ValidationError("cannot write \(log)") }
            let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardOutput = output
            process.standardError = output
            process.terminationHandler = { _ in stop.signal() }
            try process.run()
            return process
        }

        /// Waits (up to 60 s) until something accepts connections on `port`.
        static func waitForPort(_ port: Int, child: Process, log: String) throws {
            for _ in 0..<600 {
                guard child.isRunning else { throw ValidationError("a shard ended while starting; see \(log)") }
                let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                address.sin_port = UInt16(port).bigEndian
                let connected = withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
                close(descriptor)
                if connected == 0 { return }
                usleep(100_000)
            }
            throw ValidationError("nothing listens on port \(port) after 60 s; see \(log)")
        }

        /// SIGTERM to every child still running, then waits for each (serve shuts down gracefully).
        static func stopAll(_ children: [Process]) {
            for child in children where child.isRunning { child.terminate() }
            for child in children { child.waitUntilExit() }
        }
    }
}
