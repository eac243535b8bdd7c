import APNsCore
import APNsTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `apns-emulator cluster run`: N shards and HAProxy from one command, stopped together.
@Suite("apns-emulator cluster run")
struct ClusterRunTests {
    /// The first of `count` consecutive free ports below Linux's ephemeral range.
    static func freeRange(_ count: Int) throws -> Int {
        for _ in 0..<100 {
            let base = Int.random(in: 20_000..<(32_000 - count))
            var descriptors: [Int32] = []
            defer { descriptors.forEach { close($0) } }
            let free = (base..<(base + count)).allSatisfy { port in
                let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
                descriptors.append(descriptor)
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                address.sin_addr.s_addr = inet_addr("127.0.0.1")
                address.sin_port = UInt16(port).bigEndian
                return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } } == 0
            }
            if free { return base }
        }
        throw SubprocessError.exited("no free ports between 20000 and 32000")
    }

    @Test("two shards and HAProxy from one command: pushes through HAProxy reach both, shard 0's admin API lists both; SIGTERM stops them all")
    func run() async throws {
        try #require(["/usr/sbin/haproxy", "/usr/bin/haproxy"].contains { FileManager.default.isExecutableFile(atPath: $0) }, "haproxy is not installed (.ci/run installs it)")
        let directory = try TemporaryDirectory()
        let base = try Self.freeRange(8)
        let (front, devices, http2, admin, device) = (base, base + 1, base + 2, base + 4, base + 6)
        let cluster = try BackgroundProcess(Subprocess.emulatorExecutable, [
            "cluster", "run", "--shards", "2", "--dir", directory.appending("cluster"), "--listen", "127.0.0.1:\(front)",
            "--device-listen", "127.0.0.1:\(devices)", "--http2-base", String(http2), "--admin-base", String(admin), "--device-base", String(device),
            "--", "--durability", "relaxed",
        ], output: directory.appending("run.log"))
        let ready = await eventually(timeout: .seconds(60)) { cluster.lines.contains { $0.hasPrefix("cluster of 2 shards") } }
        try #require(ready, "\(cluster.lines)")
        let ca = directory.appending("cluster/certs/ca.pem")
        var client: HTTP2TestClient?
        _ = await eventually { client = try? await HTTP2TestClient.connect(host: "127.0.0.1", port: front, caPath: ca); return client != nil }
        let provider = try #require(client, "HAProxy did not listen")
        for shard in 0..<2 {
            let token = try #require(Shard(index: shard, count: 2)).randomToken().hex
            #expect(try await provider.push(token: token, headers: [("apns-topic", "com.example.app")]).status == 200)
        }
        try await provider.close()
        let listed = try await AdminTestClient.request(host: "127.0.0.1", port: admin, path: "/api/v1/notifications")
        let page = try #require(try listed.json() as? [String: Any])
        #expect(page["total"] as? Int == 2 && (page["shards"] as? [String: Any])?["answered"] as? [Int] == [0, 1], "\(page)")

        Foundation.kill(cluster.pid, SIGTERM)
        #expect(await cluster.wait() == 0)
        let gone = await eventually { (try? await AdminTestClient.request(host: "127.0.0.1", port: admin + 1, path: "/healthz")) == nil }
        #expect(gone, "the shards stopped with it")
        try directory.remove()
    }
}
