import APNsDeviceClient
import APNsServer
import APNsTestSupport
import Dispatch
import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// Broadcast fan-out: `devices` connected phones, each running `perDevice` Live Activities
/// subscribed to one channel; broadcasts go to the provider port over TLS. Prints, one broadcast
/// at a time, how long the 200 takes and how long until the last device has heard every one of
/// its activities change; then how many broadcasts per second the emulator takes from
/// concurrent providers, each reaching every activity.
///
///   swift run -c release APNsBenchmark broadcast [devices=100] [activities per device=100] [broadcasts=40]
enum BroadcastBenchmark {
    static let bundle = "com.example.bench"
    static let types = #"{"Score": {"attributes": {"match": "int"}, "contentState": {"score": "string"}}}"#

    nonisolated static func run(_ arguments: [Int]) async throws {
        let deviceCount = arguments.count > 0 ? arguments[0] : 100
        let perDevice = arguments.count > 1 ? arguments[1] : 100
        let rounds = arguments.count > 2 ? arguments[2] : 40
        // Durable, the default: a broadcast's 200 comes once every subscriber's change is committed.
        // ActivityKit's per-app limits would stop at 5 activities and 15 priority-10 updates an hour.
        let emulator = try await RunningEmulator.start {
            $0.activityLimits.maximumConcurrent = perDevice
            $0.activityLimits.hourlyBudget = 1 << 40
        }
        let provider = try await emulator.http2Client()
        let created = try await provider.send(
            path: "/1/apps/\(Self.bundle)/channels",
            body: Array(#"{"message-storage-policy": 0, "push-type": "LiveActivity"}"#.utf8))
        guard created.status == 201, let channel = created.header("apns-channel-id") else {
            print("could not create a channel: \(created.status) \(String(decoding: created.body, as: UTF8.self))")
            exit(1)
        }
        let heard = Heard(devices: deviceCount, perDevice: perDevice)
        // The devices decode every activity's document on a thread of their own: on the
        // providers' threads the 200 would be read only after them, and time their decoding.
        let deviceThreads = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
        let devices = try await Self.subscribe(deviceCount, perDevice, to: channel, emulator, heard, on: deviceThreads)
        print(
            "broadcast fan-out, durable: \(deviceCount) connected devices × \(perDevice) subscribed activities = \(deviceCount * perDevice)"
        )

        // One at a time: the 200, then the last device.
        var answers: [Double] = []
        var lasts: [Double] = []
        let base = Int(Date().timeIntervalSince1970)
        for round in 0..<rounds {
            let sent = DispatchTime.now().uptimeNanoseconds
            let status = try await Self.publish(provider, channel, round: round, base: base)
            let answered = DispatchTime.now().uptimeNanoseconds
            guard status == 200, let last = try await heard.wait(for: round) else {
                print("  broadcast \(round): \(status), or not heard by every device within 60 s")
                exit(1)
            }
            answers.append(Double(answered - sent) / 1e6)
            lasts.append(Double(Int64(bitPattern: last &- answered)) / 1e6)
        }
        print(
            "  one at a time (\(rounds)): the 200 after \(Self.summary(answers)); the last device after the 200 \(Self.summary(lasts))"
        )

        try await Self.throughput(rounds: rounds, to: channel, base: base, reaching: deviceCount * perDevice, emulator, heard)
        for device in devices { try? await device.close() }
        try await emulator.stop()
        try await deviceThreads.shutdownGracefully()
    }

    /// From concurrent providers: broadcasts accepted per second, each reaching every activity.
    nonisolated static func throughput(
        rounds: Int, to channel: String, base: Int, reaching activities: Int, _ emulator: RunningEmulator, _ heard: Heard
    ) async throws {
        let concurrency = 4
        let total = rounds * 5
        let providers = try await withThrowingTaskGroup(of: HTTP2TestClient.self) { group in
            for _ in 0..<concurrency { group.addTask { try await emulator.http2Client() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, client) in providers.enumerated() {
                group.addTask {
                    var failures = 0
                    for round in stride(from: rounds + index, to: rounds + total, by: concurrency) {
                        if try await Self.publish(client, channel, round: round, base: base) != 200 { failures += 1 }
                    }
                    return failures
                }
            }
            return try await group.reduce(0, +)
        }
        let accepted = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let complete = try await heard.wait(for: rounds + total - 1) != nil
        let drained = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let reached = Double(total - failures) * Double(activities)
        let rate = String(
            format: "%.1f broadcasts/s accepted, %.0f activity updates/s (each broadcast decided for every subscribed activity)",
            Double(total - failures) / accepted, reached / accepted)
        let tail =
            complete
            ? String(format: "every device had the last after %.2f s", drained) : "not every device had the last within 60 s"
        print("  \(concurrency) concurrent providers, \(total) broadcasts: \(rate), \(failures) refused; \(tail)")
    }

    /// Connects `count` devices, each starting `perDevice` activities on `channel`, and listens
    /// to their activity changes.
    nonisolated static func subscribe(
        _ count: Int, _ perDevice: Int, to channel: String, _ emulator: RunningEmulator, _ heard: Heard,
        on threads: any EventLoopGroup
    ) async throws -> [DeviceClient] {
        try await withThrowingTaskGroup(of: DeviceClient.self) { group in
            for index in 0..<count {
                group.addTask {
                    let device = try await emulator.device("broadcast-bench-\(index)", group: threads)
                    _ = try await device.register(topic: Self.bundle)
                    _ = try await device.declareActivityTypes(topic: Self.bundle, document: Array(Self.types.utf8))
                    for match in 0..<perDevice {
                        let request =
                            #"{"attributes-type": "Score", "attributes": {"match": \#(match)}, "content-state": {"score": "-"}, "pushType": {"channel": "\#(channel)"}}"#
                        _ = try await device.startActivity(topic: Self.bundle, document: Array(request.utf8))
                    }
                    Task {
                        for await event in device.events {
                            guard case .activity(_, "updated", _, let activity) = event,
                                case .object(let state) = activity.contentState, case .string(let score)? = state["score"],
                                let round = Int(score)
                            else { continue }
                            heard.note(round: round, device: index)
                        }
                    }
                    return device
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Publishes broadcast `round` (its round number is the score, its timestamp after the last).
    nonisolated static func publish(_ client: HTTP2TestClient, _ channel: String, round: Int, base: Int) async throws -> Int {
        let json = #"{"aps": {"event": "update", "timestamp": \#(base + round), "content-state": {"score": "\#(round)"}}}"#
        let headers = [
            ("apns-channel-id", channel), ("apns-push-type", "LiveActivity"), ("apns-expiration", "0"), ("apns-priority", "10"),
        ]
        return try await client.send(path: "/4/broadcasts/apps/\(Self.bundle)", headers: headers, body: Array(json.utf8)).status
    }

    static func summary(_ milliseconds: [Double]) -> String {
        let sorted = milliseconds.sorted()
        guard !sorted.isEmpty else { return "-" }
        func at(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        return String(format: "p50 %.1f ms, p90 %.1f ms, max %.1f ms", at(0.5), at(0.9), sorted[sorted.count - 1])
    }

    /// Which devices have heard every activity of each round, and when the last one did.
    final class Heard: Sendable {
        struct Round {
            var perDevice: [Int: Int] = [:]
            var complete = 0
            var last: UInt64 = 0
        }
        let devices: Int
        let perDevice: Int
        let rounds = Mutex<[Int: Round]>([:])

        init(devices: Int, perDevice: Int) {
            self.devices = devices
            self.perDevice = perDevice
        }

        func note(round: Int, device: Int) {
            let now = DispatchTime.now().uptimeNanoseconds
            self.rounds.withLock { rounds in
                var entry = rounds[round] ?? Round()
                entry.perDevice[device, default: 0] += 1
                if entry.perDevice[device] == self.perDevice {
                    entry.complete += 1
                    entry.last = now
                }
                rounds[round] = entry
            }
        }

        /// When the last device heard all of round `round`, or nil after 60 s.
        func wait(for round: Int) async throws -> UInt64? {
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                let entry = self.rounds.withLock { $0[round] }
                if let entry, entry.complete == self.devices { return entry.last }
                try await Task.sleep(for: .milliseconds(1))
            }
            return nil
        }
    }
}
