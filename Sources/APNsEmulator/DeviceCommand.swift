import APNsCore
import APNsDevice
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
            admin API's fields and its presentation (how the emulated phone showed it), and is acknowledged \
            unless --no-ack. Notifications queued while the device was offline arrive first, oldest first.

            The app's settings: --authorize asks for permission (the first time, the emulated user answers \
            --prompt), --categories, --state, --language, --time-zone and --strings are sent as the app would \
            at launch; --schedule FILE.json schedules local notifications (each printed as a {"scheduled": ...} \
            line); they fire by the emulator's clock and arrive like any other notification.

            Act as the user (or the app) by typing on standard input, one command a line (IDs may be \
            shortened to a prefix of a printed unique id): tap ID, action ID ACTION, text ID ACTION "reply", \
            dismiss ID, state foreground|background|notRunning, timezone ZONE, schedule JSON|FILE, pending, \
            cancel ID|--all, power [online=BOOL] [lowPowerMode=BOOL] [locked=BOOL] (the device's power and \
            connectivity; priority 5 and 1 wait in Low Power Mode, priority 1 while locked); with --activity-types (Live Activities): activities, start JSON|FILE (with "start" and "alertConfiguration" for a scheduled one, iOS 26), end ACTIVITY-ID [JSON]; web-app subscribe|list|unsubscribe|permission|show JSON (the device's web apps and their Web Push subscriptions: subscribe {"origin", "kind", "applicationServerKey"}, unsubscribe {"id"}, permission {"id", "permission"}, show {"id", "title", "body"}). \
            Responses print as {"response": ...} lines, the others as {"scheduled": ...}, {"pending": [...]}, \
            {"cancelled": N}, {"power": ...}, {"activities": [...]}, {"activity": ...} and {"webApp": ...}.
            """,
        version: EmulatorVersion.string
    )

    @Option(help: "The app (bundle id): a new token is registered for it, unless --token resumes one.")
    var topic: String?

    @Option(
        help:
            "The app build the --topic's token is for: development (a debug build from Xcode; valid at the sandbox endpoint, serve's --http2-port) or production (TestFlight, the App Store; valid at --production-http2-port). (default: serve's --environment, development unless it says otherwise)"
    )
    var environment: APNsEnvironment?

    @Option(name: .customLong("token"), help: "Resume a token issued before (hex); repeat for several.")
    var tokens: [String] = []

    @Option(
        help:
            "Behind HAProxy with N shards: say (TLS SNI) which shard holds the --token (s<K>.devices.localhost), or any for a new one (devices.localhost)."
    )
    var shards: Int?

    @Option(
        name: .customLong("device-id"),
        help: "The device's identity (default: one made once and kept in ~/.config/apns-emulator/device-id, the same every run).")
    var deviceID: String?

    @Option(help: "The emulator's address. (env: \(EnvironmentTwins.variable(for: "--host")))")
    var host = "127.0.0.1"

    @Option(
        name: .customLong("device-port"),
        help: "The emulator's device port. (env: \(EnvironmentTwins.variable(for: "--device-port")))")
    var devicePort = 5223

    @OptionGroup var adminToken: AdminTokenOption

    @Option(name: .customLong("ca"), help: "The CA to trust: the emulator's development CA.")
    var caPath = "certs/ca.pem"

    @Flag(name: .customLong("no-ack"), help: "Leave notifications queued (they are delivered again next time).")
    var noAck = false

    @Option(help: "Exit after this many notifications (0: just register or resume, print the token, exit).")
    var count: Int?

    @Option(help: "Ask for authorization to alert, sound and badge (comma-separated, or empty for none).")
    var authorize: String?

    @Option(help: "What the emulated user answers the first time the app asks: allow or deny.")
    var prompt = "allow"

    @Option(name: .customLong("categories"), help: "A JSON file of the app's categories (an array, or {\"categories\": [...]}).")
    var categoriesFile: String?

    @Option(help: "The app's state: foreground, background or notRunning.")
    var state: String?

    @Option(help: "The phone's language (e.g. en, fr).")
    var language: String?

    @Option(
        name: .customLong("strings"), help: "A JSON file of the app's localised strings: {\"<lang>\": {\"<key>\": \"<format>\"}}."
    )
    var stringsFile: String?

    @Option(name: .customLong("time-zone"), help: "The phone's time zone (an IANA name such as Europe/Paris).")
    var timeZone: String?

    @Option(
        name: .customLong("schedule"),
        help:
            "A JSON file of local notification requests the app schedules ({\"identifier\", \"content\", \"trigger\"}, or an array of them); repeat for several."
    )
    var scheduleFiles: [String] = []

    @Option(
        name: .customLong("activity-types"),
        help:
            "A JSON file of the app's Live Activity types ({\"<Name>\": {\"attributes\": {...}, \"contentState\": {...}}}): declared at launch; tokens and activity changes then print as {\"activityToken\": ...} and {\"activity\": ...} lines."
    )
    var activityTypesFile: String?

    @Option(
        name: .customLong("service-extension"),
        help:
            "Be the app's notification service extension: each alert with mutable-content is handed to this command (run with /bin/sh -c) as one JSON object on standard input (title, subtitle, body, userInfo, categoryIdentifier, threadIdentifier); what it prints is shown."
    )
    var serviceExtension: String?

    func validate() throws {
        guard self.topic != nil || !self.tokens.isEmpty else {
            throw ValidationError("give --topic (register a new token for this app) or --token (resume)")
        }
        let settings = [
            self.authorize, self.categoriesFile, self.state, self.language, self.stringsFile, self.timeZone,
            self.activityTypesFile, self.serviceExtension,
        ].contains { $0 != nil }
        if settings || !self.scheduleFiles.isEmpty, self.topic == nil {
            throw ValidationError(
                "--authorize, --categories, --state, --language, --time-zone, --strings, --schedule, --activity-types and --service-extension need --topic (the app)"
            )
        }
        if let zone = self.timeZone, TimeZone(identifier: zone) == nil {
            throw ValidationError("--time-zone \(zone) is not a time zone (use an IANA name such as Europe/Paris)")
        }
        if let authorize = self.authorize {
            do { _ = try Authorization.Options(list: authorize) } catch { throw ValidationError("--authorize: \(error.message)") }
        }
        guard ["allow", "deny"].contains(self.prompt) else { throw ValidationError("--prompt is allow or deny") }
        if let state = self.state, AppState(rawValue: state) == nil {
            throw ValidationError("--state is foreground, background or notRunning")
        }
        for token in self.tokens where DeviceToken(hex: token) == nil {
            throw ValidationError("--token \(token) is not even-length hex of 32 to 100 bytes")
        }
        if let count, count < 0 { throw ValidationError("--count must not be negative") }
    }

    func run() async throws {
        let client = try await self.connect()
        if self.tokens.isEmpty, let topic = self.topic {
            say(try await client.register(topic: topic, environment: self.environment).hex)
        } else {
            let results = try await client.resume(self.tokens.compactMap { DeviceToken(hex: $0) })
            for result in results {
                guard result.status == .resumed else {
                    throw DeviceCommandError(
                        "token \(result.token.hex) is \(result.status == .unregistered ? "unregistered" : "unknown to the emulator")"
                    )
                }
                say(result.token.hex)
            }
        }
        if let topic = self.topic { try await self.configureApp(client, topic: topic) }
        if self.count == 0 { return try await client.close() }
        try await self.serve(client)
    }

    private enum Input: Sendable {
        case notification(APNsCore.Notification)
        case event(DeviceEvent)
        case command(String)
        case closed((any Error)?)
    }

    /// What the device hears and what is typed, as one stream; the tasks that read the device.
    private static func inputs(_ client: DeviceClient) -> (AsyncStream<Input>, [Task<Void, Never>]) {
        let (inputs, input) = AsyncStream.makeStream(of: Input.self)
        let notifications = Task {
            do {
                for try await notification in client.notifications { input.yield(.notification(notification)) }
                input.yield(.closed(nil))
            } catch {
                input.yield(.closed(error))
            }
        }
        let events = Task { for await event in client.events { input.yield(.event(event)) } }
        // Standard input blocks a thread of its own; /dev/null ends it at once.
        Thread.detachNewThread {
            while let line = readLine() { input.yield(.command(line)) }
        }
        return (inputs, [notifications, events])
    }

    /// Prints notifications with their presentations and carries out typed commands until
    /// --count notifications were printed or the connection ends.
    private func serve(_ client: DeviceClient) async throws {
        let (inputs, readers) = Self.inputs(client)
        defer { for reader in readers { reader.cancel() } }
        var waiting: [String: APNsCore.Notification] = [:]
        var early: [String: Presentation] = [:]
        var seen: [String] = []
        // The app `state` changes: --topic, else the topic of the notifications (a resumed token's).
        var topic = self.topic
        for await next in inputs {
            var printed: APNsCore.Notification?
            switch next {
            case .notification(let notification):
                // Its presentation follows it; print the two together.
                if let presentation = early.removeValue(forKey: notification.uniqueID) {
                    say(Self.line(notification, presentation))
                    printed = notification
                } else {
                    waiting[notification.uniqueID] = notification
                }
            case .event(.presented(let uniqueID, let presentation)):
                if let notification = waiting.removeValue(forKey: uniqueID) {
                    say(Self.line(notification, presentation))
                    printed = notification
                } else {
                    early[uniqueID] = presentation
                }
            case .event(let event):
                if case .extend(let id, let content) = event, let command = self.serviceExtension {
                    Self.extend(id, content, command: command, client: client)
                } else {
                    Self.print(event)
                }
            case .command(let line):
                await self.perform(line, on: client, topic: topic, seen: seen)
            case .closed(let error):
                throw DeviceCommandError("the emulator closed the connection\(error.map { ": \($0)" } ?? "")")
            }
            guard let notification = printed else { continue }
            seen.append(notification.uniqueID)
            if topic == nil { topic = notification.topic }
            if !self.noAck { try await client.acknowledge(notification.uniqueID) }
            if let count = self.count, seen.count >= count { break }
        }
        // Make sure the last acknowledgement reached the emulator before leaving.
        try await client.ping()
        try await client.close()
    }
}
