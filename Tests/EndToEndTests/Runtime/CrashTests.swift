import APNsTestSupport
import Foundation
import Synchronization
import Testing

/// The durability promise: in durable mode a 200 survives the process being killed outright.
@Suite("Crash safety")
struct CrashTests {
    static let token = String(repeating: "e5", count: 32)

    @Test("SIGKILL while pushes are in flight loses none that got a 200")
    func sigkillLosesNothingAcknowledged() async throws {
        let directory = try TemporaryDirectory()
        let emulator = try await EmulatorProcess.start(
            arguments: ["--data-dir", directory.appending("data"), "--certs-dir", directory.appending("certs")],
            output: directory.appending("emulator.log")
        )
        let client = try await HTTP2TestClient.connect(
            host: "127.0.0.1", port: emulator.http2Port, caPath: directory.appending("certs/ca.pem")
        )
        // Keep 50 pushes in flight until the kill; remember every unique id answered 200.
        let ended = Mutex<Int32?>(nil)
        let acknowledged = try await withThrowingTaskGroup(of: String?.self) { group in
            var acknowledged: [String] = []
            var sent = 0
            func send() {
                let i = sent
                sent += 1
                group.addTask { try? await client.push(token: Self.token, json: #"{"i":\#(i)}"#).header("apns-unique-id") }
            }
            for _ in 0..<50 { send() }
            while let result = try await group.next() {
                if let id = result { acknowledged.append(id) }
                if acknowledged.count == 500 && ended.withLock({ $0 == nil }) {
                    // Once: the pushes failing after the kill leave the count at 500.
                    let signal = await emulator.kill(SIGKILL).signal
                    ended.withLock { $0 = signal }
                } else if acknowledged.count < 500 {
                    send()
                }
            }
            return acknowledged
        }
        #expect(acknowledged.count >= 500)
        #expect(ended.withLock { $0 } == SIGKILL)

        let restarted = try await RunningEmulator.start(directory: directory)
        let items = try await restarted.queued(Self.token)
        let stored = Set(items.compactMap { $0["uniqueId"] as? String })
        let lost = acknowledged.filter { !stored.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) notifications answered 200 were lost")
        try await restarted.stop()
        try directory.remove()
    }
}
