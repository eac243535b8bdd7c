import APNsCore
import APNsDeviceClient
import APNsInspection
import ArgumentParser
import Foundation

/// `apns-emulator device`: be a phone in a terminal, or let a script wait for a push.
struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Connect as a device: register (or resume) a token, print it, then print each notification as a JSON line.",
        discussion: """
            The first line of output is the token (hex). Each notification follows as one JSON line with the \
            admin API's fields, and is acknowledged unless --no-ack. Notifications queued while the device \
            was offline arrive first, oldest first.
            """
    )

    @Option(help: "Register a new token for this app (bundle id).")
    var topic: String?

    @Option(name: .customLong("token"), help: "Resume a token issued before (hex); repeat for several.")
    var tokens: [String] = []

    @Option(name: .customLong("device-id"), help: "The device's identity, kept across runs.")
    var deviceID = "cli-\(ProcessInfo.processInfo.processIdentifier)"

    @Option(help: "The emulator's address. (env: \(EnvironmentTwins.variable(for: "--host")))")
    var host = "127.0.0.1"

    @Option(name: .customLong("device-port"), help: "The emulator's device port. (env: \(EnvironmentTwins.variable(for: "--device-port")))")
    var devicePort = 5223

    @Option(name: .customLong("ca"), help: "The CA to trust: the emulator's development CA.")
    var caPath = "certs/ca.pem"

    @Flag(name: .customLong("no-ack"), help: "Leave notifications queued (they are delivered again next time).")
    var noAck = false

    @Option(help: "Exit after this many notifications (0: just register or resume, print the token, exit).")
    var count: Int?

    func validate() throws {
        guard (self.topic == nil) != self.tokens.isEmpty else {
            throw ValidationError("give either --topic (register a new token) or --token (resume)")
        }
        for token in self.tokens where DeviceToken(hex: token) == nil {
            throw ValidationError("--token \(token) is not even-length hex of 32 to 100 bytes")
        }
        if let count, count < 0 { throw ValidationError("--count must not be negative") }
    }

    func run() async throws {
        let client = try await DeviceClient.connect(host: self.host, port: self.devicePort, caPath: self.caPath, deviceID: self.deviceID)
        if let topic = self.topic {
            say(try await client.register(topic: topic).hex)
        } else {
            let results = try await client.resume(self.tokens.compactMap { DeviceToken(hex: $0) })
            for result in results {
                guard result.status == .resumed else {
                    throw DeviceCommandError("token \(result.token.hex) is \(result.status == .unregistered ? "unregistered" : "unknown to the emulator")")
                }
                say(result.token.hex)
            }
        }
        var received = 0
        if self.count == 0 { return try await client.close() }
        for try await notification in client.notifications {
            say(NotificationJSON.line(notification))
            if !self.noAck { try await client.acknowledge(notification.uniqueID) }
            received += 1
            if let count = self.count, received >= count { break }
        }
        if self.count.map({ received < $0 }) ?? true {
            throw DeviceCommandError("the emulator closed the connection")
        }
        // Make sure the last acknowledgement reached the emulator before leaving.
        try await client.ping()
        try await client.close()
    }
}

/// A failure of `apns-emulator device` after its arguments were accepted.
struct DeviceCommandError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
