import APNsCore
import APNsInspection
import Foundation
import Logging

/// `serve --forward-to-simulator <booted|UDID>` (macOS): every accepted push from a provider is
/// also handed to the iOS Simulator with `xcrun simctl push <device> <bundle> <file>`, the file
/// being the notification as an `.apns` file. The outcome goes to the journal item (`simulator`)
/// and the log. One push at a time, in order, off the store's writer thread.
final class SimulatorBridge: Sendable {
    private let device: String
    private let journal: Journal
    private let logger: Logger
    private let queue = DispatchQueue(label: "apns-emulator.simulator")
    private let subscription: UInt64

    init(device: String, journal: Journal, logger: Logger) {
        self.device = device
        self.journal = journal
        self.logger = logger
        let queue = self.queue
        let forward = Self.forward
        self.subscription = journal.subscribe { event in
            // Quick here: the journal tells subscribers under its lock, on the writer thread.
            guard event.kind == "accepted", let entry = event.entry, case .accepted(let notification) = entry.push,
                notification.source != .local
            else { return }
            queue.async { forward(notification, entry, device, journal, logger) }
        }
    }

    func stop() {
        self.journal.unsubscribe(self.subscription)
    }

    private static let forward: @Sendable (APNsCore.Notification, JournalEntry, String, Journal, Logger) -> Void = {
        notification, entry, device, journal, logger in
        let outcome = SimulatorBridge.run(notification, entry, device: device)
        journal.forwarded(uniqueID: notification.uniqueID, outcome)
        let metadata: Logger.Metadata = ["apns.unique_id": "\(notification.uniqueID)", "simulator.device": "\(device)"]
        if outcome.status == "forwarded" {
            logger.info("handed to the simulator", metadata: metadata)
        } else {
            logger.warning("the simulator did not take it: \(outcome.message)", metadata: metadata)
        }
    }

    private static func run(_ notification: APNsCore.Notification, _ entry: JournalEntry, device: String) -> SimulatorForward {
        guard let bundle = notification.topic else {
            return SimulatorForward(
                device: device, status: "failed", exitCode: nil, message: "no apns-topic: simctl needs the app's bundle id")
        }
        // The topic comes from the network and becomes an argument of simctl: a bundle id only,
        // never something simctl would read as an option (`--help`).
        guard let first = bundle.unicodeScalars.first, CharacterSet.alphanumerics.contains(first),
            bundle.unicodeScalars.allSatisfy({
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
            })
        else {
            return SimulatorForward(
                device: device, status: "failed", exitCode: nil, message: "apns-topic \(bundle) is not a bundle id simctl takes")
        }
        guard let file = SimulatorPushFile.file(for: entry) else {
            return SimulatorForward(device: device, status: "failed", exitCode: nil, message: "the payload is not a JSON object")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("apns-emulator-\(notification.uniqueID).apns")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            // Private to this user: the payload may hold what the app's user reads.
            try PrivateFiles.write(Array(file), to: path)
        } catch {
            return SimulatorForward(device: device, status: "failed", exitCode: nil, message: "could not write \(path): \(error)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xcrun", "simctl", "push", device, bundle, path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do {
            try process.run()
        } catch {
            return SimulatorForward(device: device, status: "failed", exitCode: nil, message: "could not run xcrun: \(error)")
        }
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        process.waitUntilExit()
        let code = process.terminationStatus
        return SimulatorForward(device: device, status: code == 0 ? "forwarded" : "failed", exitCode: code, message: said)
    }
}
