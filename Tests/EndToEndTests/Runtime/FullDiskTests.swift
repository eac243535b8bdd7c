import APNsTestSupport
import Foundation
import Testing

/// A data directory whose disk fills up (a small tmpfs, mounted in a user and mount namespace of
/// the emulator's own, so that no root is needed): the emulator stays up, answers what it cannot
/// store 503 ServiceUnavailable at once, says so in a line per interval rather than a line per
/// push, is not ready while it cannot write, loses nothing it acknowledged, and takes writes again
/// as soon as there is room. In both modes: relaxed writes through a map, where a page the disk
/// cannot back would be a SIGBUS, so there the store allocates ahead and refuses what would not fit.
@Suite("A full disk")
struct FullDiskTests {
    /// Twenty tokens, so that no device's queue reaches its cap before the disk is full.
    static let tokens = (0..<20).map { String(format: "%064x", 0xd15c_0000 + $0) }
    /// About 1.5 KB, as the load test that found the problem sent.
    static let payload = #"{"aps":{"alert":"disk"},"pad":"\#(String(repeating: "x", count: 1500))"}"#

    /// Whether this machine lets an ordinary process mount a tmpfs in namespaces of its own.
    static let canMountTmpfs: Bool = {
        let directory = NSTemporaryDirectory() + "apns-emulator-userns-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["--user", "--map-root-user", "--mount", "mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", directory]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    @Test(
        "a full disk: 503 ServiceUnavailable at once, a log line per interval, /readyz not ready, nothing acknowledged lost, writes again once there is room",
        .enabled(if: canMountTmpfs, "unshare cannot mount a tmpfs here (no unprivileged user namespaces)"),
        arguments: ["durable", "relaxed"]
    )
    func fullDisk(durability: String) async throws {
        let directory = try TemporaryDirectory()
        let disk = directory.appending("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        // A 10 MiB disk, 3 MiB of it taken by a file the test removes to make room again.
        let mount = #"mount -t tmpfs -o size=10m,mode=0700 tmpfs "$0" && head -c 3145728 /dev/zero > "$0/ballast" && exec "$@""#
        let emulator = try await EmulatorProcess.start(
            // Every push kept (not the default, one per app while offline): the disk fills, and each one is looked for.
            arguments: [
                "--durability", durability, "--data-dir", disk + "/data", "--certs-dir", directory.appending("certs"),
                "--storage-policy", "all",
            ],
            output: directory.appending("emulator.log"),
            launcher: ["/usr/bin/unshare", "--user", "--map-root-user", "--mount", "sh", "-c", mount, disk]
        )
        defer { _ = Task { await emulator.kill(SIGKILL) } }
        let client = try await HTTP2TestClient.connect(
            host: "127.0.0.1", port: emulator.http2Port, caPath: directory.appending("certs/ca.pem"))
        var run = Run(client: client, emulator: emulator)
        guard try await run.fill(), try await run.whileFull() else { return }
        // Room again: the emulator takes writes at once (within a try's 100 ms), and is ready.
        try FileManager.default.removeItem(atPath: "/proc/\(emulator.pid)/root\(disk)/ballast")
        guard try await run.afterRoom() else { return }
        try await run.nothingLost()
        try await run.checkLog(directory.appending("emulator.log"))
        await emulator.kill(SIGTERM)
        try directory.remove()
    }

    /// One test's pushes and what they were answered.
    struct Run {
        let client: HTTP2TestClient
        let emulator: EmulatorProcess
        /// Pushes answered 200, by token.
        var accepted: [String: Int] = [:]
        var refused = 0
        var sent = 0
        let started = ContinuousClock.now

        mutating func count(_ answers: [(token: String, status: Int)]) {
            for (token, status) in answers {
                #expect(status == 200 || status == 503, "a push was answered \(status), not 200 or 503")
                if status == 200 { self.accepted[token, default: 0] += 1 } else { self.refused += 1 }
            }
        }

        /// Pushes 50 at a time until one is refused; false if the disk never filled.
        mutating func fill() async throws -> Bool {
            while self.refused == 0 {
                #expect(self.sent < 20_000, "10 MiB never filled after \(self.sent) pushes of 1.5 KB")
                guard self.sent < 20_000 else { return false }
                self.count(try await FullDiskTests.burst(self.client, from: self.sent, count: 50))
                self.sent += 50
            }
            return true
        }

        /// While full: refusals are 503 ServiceUnavailable, /readyz says why, a burst is answered whole.
        mutating func whileFull() async throws -> Bool {
            var refusal = try await self.client.push(token: FullDiskTests.tokens[1], json: FullDiskTests.payload)
            self.count([(FullDiskTests.tokens[1], refusal.status)])
            var ready = try await FullDiskTests.readyz(self.emulator)
            var round = 0
            while ready.status == 200 || refusal.status == 200 {
                // A small write may still fit in pages LMDB freed earlier: push until the store says it cannot write.
                round += 1
                #expect(round < 200, "/readyz never said the store cannot write: \(ready.text)")
                guard round < 200 else { return false }
                self.count(try await FullDiskTests.burst(self.client, from: self.sent, count: 20))
                self.sent += 20
                refusal = try await self.client.push(token: FullDiskTests.tokens[1], json: FullDiskTests.payload)
                self.count([(FullDiskTests.tokens[1], refusal.status)])
                ready = try await FullDiskTests.readyz(self.emulator)
            }
            #expect(refusal.reason == "ServiceUnavailable")
            #expect(ready.status == 503)
            #expect(ready.text.contains("the store cannot write"), "\(ready.text)")
            #expect(ready.text.contains("full"), "/readyz should say the disk is full: \(ready.text)")
            let during = try await FullDiskTests.burst(self.client, from: self.sent, count: 300)
            self.sent += 300
            #expect(during.count == 300)
            #expect(during.contains { $0.status == 503 })
            self.count(during)
            return true
        }

        /// Once there is room: a 200 comes at the store's next try (every 100 ms), then every push
        /// is taken. The deadline is far past that, for a loaded machine.
        mutating func afterRoom() async throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(30)
            while true {
                let answer = try await self.client.push(token: FullDiskTests.tokens[2], json: FullDiskTests.payload)
                self.count([(FullDiskTests.tokens[2], answer.status)])
                if answer.status == 200 { break }
                #expect(ContinuousClock.now < deadline, "still refused 30 s after 3 MiB was freed")
                guard ContinuousClock.now < deadline else { return false }
            }
            let after = try await FullDiskTests.burst(self.client, from: self.sent, count: 200)
            #expect(after.allSatisfy { $0.status == 200 }, "after room was made: \(Set(after.map(\.status)))")
            self.count(after)
            #expect(try await FullDiskTests.readyz(self.emulator).status == 200)
            return true
        }

        /// Each token holds every push it was answered 200 for.
        func nothingLost() async throws {
            for (token, count) in self.accepted {
                let queued = try await AdminTestClient.request(
                    host: "127.0.0.1", port: self.emulator.adminPort, path: "/api/v1/devices/\(token)/notifications")
                let items = try #require(try queued.json() as? [[String: Any]])
                #expect(items.count == count, "\(token.prefix(12)): \(count) answered 200, \(items.count) queued")
            }
        }

        /// One line when writing failed, then at most one per 5 s, none per push; and one when it
        /// wrote again (within 5 s of the last, once the writer's sweep commits).
        func checkLog(_ path: String) async throws {
            let seconds = Int((ContinuousClock.now - self.started).components.seconds)
            _ = await eventually(timeout: .seconds(30)) {
                (try? String(contentsOfFile: path, encoding: .utf8))?.contains("store writes again") == true
            }
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            let failing = lines.filter { $0.contains("store cannot write") || $0.contains("store still cannot write") }
            #expect(!failing.isEmpty)
            #expect(lines.contains { $0.contains("store writes again") })
            let perPush = lines.filter { $0.contains("could not store a push") || $0.contains("store commit failed") }
            #expect(perPush.isEmpty, "a line per refused push: \(perPush.count)")
            #expect(failing.count <= seconds / 5 + 1, "\(failing.count) lines in \(seconds) s about the store failing")
            #expect(self.refused > failing.count * 10, "\(self.refused) refused")
        }
    }

    /// `count` pushes at once, spread over the tokens: each push's token and status.
    static func burst(_ client: HTTP2TestClient, from start: Int, count: Int) async throws -> [(token: String, status: Int)] {
        try await withThrowingTaskGroup(of: (String, Int).self) { group in
            for i in start..<(start + count) {
                let token = Self.tokens[i % Self.tokens.count]
                group.addTask { (token, try await client.push(token: token, json: Self.payload).status) }
            }
            return try await group.reduce(into: []) { $0.append(($1.0, $1.1)) }
        }
    }

    static func readyz(_ emulator: EmulatorProcess) async throws -> AdminTestClient.Response {
        try await AdminTestClient.request(host: "127.0.0.1", port: emulator.adminPort, path: "/readyz")
    }
}
