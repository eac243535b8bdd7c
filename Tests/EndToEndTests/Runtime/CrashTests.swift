import APNsTestSupport
import Foundation
import Testing

/// The durability promise: in durable mode a 200 survives the process being killed outright.
@Suite("Crash safety")
struct CrashTests {
    static let token = String(repeating: "e5", count: 32)

    /// An emulator process of its own (durable, every default but the storage policy) in `directory`, and a provider on it.
    static func start(in directory: TemporaryDirectory) async throws -> (EmulatorProcess, HTTP2TestClient) {
        let emulator = try await EmulatorProcess.start(
            // Every push kept (not the default, one per app while offline): each one answered 200 is looked for.
            arguments: [
                "--data-dir", directory.appending("data"), "--certs-dir", directory.appending("certs"), "--storage-policy", "all",
            ],
            output: directory.appending("emulator.log")
        )
        let client = try await HTTP2TestClient.connect(
            host: "127.0.0.1", port: emulator.http2Port, caPath: directory.appending("certs/ca.pem")
        )
        return (emulator, client)
    }

    @Test("SIGKILL while pushes are in flight loses none that got a 200")
    func sigkillLosesNothingAcknowledged() async throws {
        let directory = try TemporaryDirectory()
        let (emulator, client) = try await Self.start(in: directory)
        // Keep 50 pushes in flight until the kill; remember every unique id answered 200. The
        // pushes in flight at the kill fail with the connection: the whole run has a deadline.
        let (acknowledged, signal) = try await firstResult(within: .seconds(180)) {
            try await withThrowingTaskGroup(of: String?.self) { group -> ([String], Int32?) in
                var acknowledged: [String] = []
                var signal: Int32?
                var sent = 0
                func send() {
                    let i = sent
                    sent += 1
                    group.addTask { try? await client.push(token: Self.token, json: #"{"i":\#(i)}"#).header("apns-unique-id") }
                }
                for _ in 0..<50 { send() }
                while let result = try await group.next() {
                    if let id = result { acknowledged.append(id) }
                    if acknowledged.count == 500 && signal == nil {
                        // Once: the pushes failing after the kill leave the count at 500.
                        signal = await emulator.kill(SIGKILL).signal
                    } else if acknowledged.count < 500 {
                        send()
                    }
                }
                return (acknowledged, signal)
            }
        }
        #expect(acknowledged.count >= 500)
        #expect(signal == SIGKILL)

        let restarted = try await RunningEmulator.start(directory: directory) { $0.storagePolicy = .all }
        let items = try await restarted.queued(Self.token)
        let stored = Set(items.compactMap { $0["uniqueId"] as? String })
        let lost = acknowledged.filter { !stored.contains($0) }
        #expect(lost.isEmpty, "\(lost.count) notifications answered 200 were lost")
        try await restarted.stop()
        try directory.remove()
    }

    /// Issue 53: the history is in the same transaction as the 200, so a kill loses none of it
    /// either; and it comes back once each, in the order it arrived.
    @Test("SIGKILL loses no history: every push answered 200, queued or discarded, is in the journal once, in arrival order")
    func sigkillKeepsHistory() async throws {
        let directory = try TemporaryDirectory()
        let (emulator, client) = try await Self.start(in: directory)
        // Every other push has expiration 0 and no device online: discarded at once, history.
        // The pushes in flight at the kill fail with the connection: the whole run has a deadline.
        let acknowledged = try await firstResult(within: .seconds(180)) {
            try await withThrowingTaskGroup(of: (String, Bool)?.self) { group -> [(id: String, discarded: Bool)] in
                var acknowledged: [(id: String, discarded: Bool)] = []
                var sent = 0
                var killed = false
                func send() {
                    let discard = sent % 2 == 1
                    sent += 1
                    let headers = discard ? [("apns-expiration", "0")] : []
                    group.addTask {
                        guard let id = try? await client.push(token: Self.token, headers: headers).header("apns-unique-id") else { return nil }
                        return (id, discard)
                    }
                }
                for _ in 0..<50 { send() }
                while let result = try await group.next() {
                    if let result { acknowledged.append(result) }
                    if acknowledged.count >= 400 && !killed {
                        killed = true
                        _ = await emulator.kill(SIGKILL)
                    } else if !killed {
                        send()
                    }
                }
                return acknowledged
            }
        }
        #expect(acknowledged.count >= 400, "the kill came after 400 answers")
        let restarted = try await RunningEmulator.start(directory: directory) { $0.storagePolicy = .all }
        let journal = try await restarted.journal("limit=1000")
        let ids = journal.compactMap { $0["id"] as? String }
        #expect(Set(ids).count == ids.count, "an entry came back twice")
        let statuses = try await restarted.journalStatuses("limit=1000")
        let wrong = acknowledged.filter { statuses[$0.id] != ($0.discarded ? "discarded" : "queued") }
        #expect(wrong.isEmpty, "\(wrong.count) of \(acknowledged.count) answered 200 are missing or changed: \(wrong.prefix(3).map { ($0.id, statuses[$0.id] ?? "missing") })")
        // Version 7 ids begin with their millisecond: newest first, never a later one after an earlier.
        let milliseconds = ids.map { $0.replacingOccurrences(of: "-", with: "").prefix(12) }
        #expect(zip(milliseconds, milliseconds.dropFirst()).allSatisfy { $0 >= $1 }, "the journal is out of arrival order")
        try await restarted.stop()
        try directory.remove()
    }
}
