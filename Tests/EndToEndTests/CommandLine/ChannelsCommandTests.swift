import APNsTestSupport
import Foundation
import Testing

/// `apns-emulator channels` and `apns-emulator push --channel` from the built binary against a
/// running emulator: what a person at a terminal does with broadcast push.
@Suite("apns-emulator channels and push --channel")
struct ChannelsCommandTests {
    static let bundle = BroadcastTests.bundle

    func run(_ emulator: RunningEmulator, _ command: String, _ arguments: [String]) async throws -> Subprocess.Output {
        try await Subprocess.run(
            Subprocess.emulatorExecutable,
            [command, "--http2-port", String(emulator.http2Port), "--ca", emulator.caPath] + arguments)
    }

    @Test("create prints the new channel id; push --channel broadcasts to a subscriber; list and read show it; delete removes it")
    func lifecycle() async throws {
        try await withEmulator { emulator in
            let created = try await self.run(emulator, "channels", ["create", "--bundle", Self.bundle, "--policy", "1"])
            #expect(created.status == 0 && created.stdout.hasPrefix("201 Created\n"), "\(created.stdout)\(created.stderr)")
            let id = try #require(
                created.stdout.split(separator: "\n").first { $0.hasPrefix("apns-channel-id: ") }?.dropFirst(17)
            ).description
            let subscriber = try await BroadcastTests.subscriber(emulator, channel: id)
            let update = LiveActivityTests.update(LiveActivityTests.now + 5, "from the terminal")
            let pushed = try await self.run(emulator, "push", ["--channel", id, "--bundle", Self.bundle, update])
            #expect(
                pushed.status == 0 && pushed.stdout.hasPrefix("200 OK") && pushed.stdout.contains("apns-unique-id: "),
                "\(pushed.stdout)\(pushed.stderr)")
            #expect(try await BroadcastTests.status(emulator, subscriber.activity) == "from the terminal")
            let listed = try await self.run(emulator, "channels", ["list", "--bundle", Self.bundle])
            #expect(listed.status == 0 && listed.stdout.contains(#""channels":["\#(id)"]"#), "\(listed.stdout)")
            let read = try await self.run(emulator, "channels", ["read", "--bundle", Self.bundle, "--channel", id])
            #expect(read.stdout.contains(#""message-storage-policy":1"#), "\(read.stdout)")
            #expect(
                try await self.run(emulator, "channels", ["delete", "--bundle", Self.bundle, "--channel", id]).stdout.hasPrefix(
                    "204 No Content\n"))
            let gone = try await self.run(emulator, "channels", ["read", "--bundle", Self.bundle, "--channel", id])
            #expect(gone.status == 1 && gone.stdout.hasPrefix("400 ChannelNotRegistered"), "\(gone.stdout)")
        }
    }
}
