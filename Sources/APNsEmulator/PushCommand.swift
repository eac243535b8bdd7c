import APNsAdminClient
import APNsAuth
import APNsCore
import APNsProviderClient
import APNsServer
import ArgumentParser
import Crypto
import Foundation
import NIOCore

/// `apns-emulator push`: send a push as a provider would, over HTTP/2 and TLS, and print APNs'
/// answer; `--count` and `--concurrency` make it a small load.
struct PushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Send a push over HTTP/2 and TLS, as a provider would, and print APNs' answer.",
        discussion: """
            The payload is the argument: JSON text, the path of a JSON file or of a .apns file as `xcrun \
            simctl push` reads it (as simctl takes one), or - for standard input; or --file with a path. An \
            .apns file (its "Simulator Target Bundle" is the topic unless \
            --topic says otherwise). Prints the status and reason, the detail, each warning, apns-id and \
            apns-unique-id; exits 1 when APNs refuses. With --count, prints a summary instead.

            Authentication, when the emulator runs with --auth strict: --key FILE.p8 --key-id --team-id \
            (a provider token, signed here) or --cert FILE.pem (a client certificate and its key).
            """,
        version: EmulatorVersion.string
    )

    @Option(help: "The device token (hex).")
    var token: String?

    @Option(
        help:
            "Broadcast on this channel instead (POST /4/broadcasts/apps/<--bundle>): apns-push-type LiveActivity, apns-expiration 0 and apns-priority 10 unless given."
    )
    var channel: String?

    @Option(help: "With --channel: the bundle id the channel belongs to.")
    var bundle: String?

    @Option(help: "apns-topic: the app's bundle id.")
    var topic: String?

    @Option(
        name: .customLong("type"),
        help:
            "apns-push-type: alert, background, voip, ... (by default, from the topic's suffix and the payload: background, at priority 5, for content-available with nothing to show; alert for an alert, sound or badge)"
    )
    var pushType: String?

    @Option(help: "apns-priority: 10, 5 or 1.")
    var priority: Int?

    @Option(help: "apns-expiration: UNIX seconds (0: deliver now or never).")
    var expiration: Int64?

    @Option(name: .customLong("collapse-id"), help: "apns-collapse-id.")
    var collapseID: String?

    @Option(name: .customLong("id"), help: "apns-id: a UUID (the emulator makes one otherwise).")
    var apnsID: String?

    @Argument(help: "The payload: JSON text, a .json or .apns file's path, or - to read it from standard input.")
    var payload: String?

    @Option(help: "Read the payload from a JSON or .apns file.")
    var file: String?

    @OptionGroup(title: "Connection and authentication")
    var connection: ProviderConnectionOptions

    @Option(
        name: .customLong("admin-port"),
        help:
            "The emulator's admin API port, where push asks what the phone did with an accepted push (0: do not ask). (env: \(EnvironmentTwins.variable(for: "--admin-port")))"
    )
    var adminPort = ServeCommand.defaults.adminPort

    @OptionGroup var adminToken: AdminTokenOption

    @Option(help: "Send the push this many times (then print a summary).")
    var count = 1

    @Option(help: "How many pushes are in flight at once (with --count).")
    var concurrency = 1

    func validate() throws {
        guard self.count >= 1 else { throw ValidationError("--count is 1 or more") }
        guard (1...10_000).contains(self.concurrency) else { throw ValidationError("--concurrency is 1 to 10000") }
        if self.payload == nil && self.file == nil {
            throw ValidationError(
                #"no payload: give it as an argument (JSON such as '{"aps":{"alert":"hi"}}', a .json or .apns file's path, or - for standard input) or with --file"#
            )
        }
        if self.payload != nil && self.file != nil {
            throw ValidationError("two payloads: give the payload as an argument or with --file, not both")
        }
        if self.channel != nil {
            guard self.token == nil, self.bundle != nil else {
                throw ValidationError("a broadcast takes --channel and --bundle, and no --token")
            }
            return
        }
        guard let token = self.token, !token.isEmpty, token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw ValidationError("--token is the device token in hex (or --channel and --bundle for a broadcast)")
        }
    }

    func run() async throws {
        let (body, bundle) = try self.readPayload()
        let topic = self.channel == nil ? self.topic ?? bundle : nil
        var push = ProviderPush(token: self.token ?? "", headers: try self.headers(topic: topic), payload: body)
        if self.channel == nil, self.pushType == nil {
            // As a careful provider does: the type from the topic and the payload; `--type` overrides.
            let inferred = Self.inferredType(topic: topic, payload: body)
            push.headers.append(("apns-push-type", inferred.pushType))
            if self.priority == nil, let priority = inferred.priority { push.headers.append(("apns-priority", String(priority))) }
        }
        if let channel = self.channel, let bundle = self.bundle {
            push.path = "/4/broadcasts/apps/\(bundle)"
            push.headers.append(("apns-channel-id", channel))
            if self.pushType == nil { push.headers.append(("apns-push-type", "LiveActivity")) }
            if self.priority == nil { push.headers.append(("apns-priority", "10")) }
            if self.expiration == nil { push.headers.append(("apns-expiration", "0")) }
        }
        let client = try await self.connect()
        if self.count == 1 {
            let answer = try await client.push(push)
            try? await client.close()
            Self.print(answer, phone: await self.phoneOutcome(of: answer))
            if answer.status != 200 { throw ExitCode(1) }
        } else {
            let summary = try await Self.load(push, count: self.count, concurrency: self.concurrency, on: client)
            try? await client.close()
            say(summary.text)
            if summary.refused > 0 { throw ExitCode(1) }
        }
    }

    /// The payload's bytes, and the topic an .apns file names.
    private func readPayload() throws -> (body: [UInt8], bundle: String?) {
        let text: String
        if let path = self.file {
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw PushCommandError("cannot read \(path) (looked in \(FileManager.default.currentDirectoryPath))")
            }
            text = String(decoding: contents, as: UTF8.self)
        } else if self.payload == "-" {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            text = try Self.argumentText(self.payload ?? "")
        }
        // An .apns file: the payload with the simulator's target bundle beside `aps`.
        if case .object(var members)? = JSONValue.parse(Array(text.utf8)), let bundle = members["Simulator Target Bundle"]?.string
        {
            members["Simulator Target Bundle"] = nil
            return (JSONValue.object(members).compact, bundle)
        }
        // Anything else goes as it is: APNs says what is wrong with it.
        return (Array(text.utf8), nil)
    }

    /// The payload an argument stands for: JSON text as it is (APNs says what is wrong with a broken
    /// one), or the contents of the file it names, as `xcrun simctl push` reads its argument.
    static func argumentText(_ argument: String) throws -> String {
        let start = argument.first { !$0.isWhitespace }
        if start == "{" || start == "[" { return argument }
        if let contents = FileManager.default.contents(atPath: argument) { return String(decoding: contents, as: UTF8.self) }
        if JSONValue.parse(Array(argument.utf8)) != nil { return argument }
        throw PushCommandError(
            "the payload \(argument) is neither JSON nor a file (no such file relative to \(FileManager.default.currentDirectoryPath)): "
                + #"give JSON text such as '{"aps":{"alert":"hi"}}', the path of a .json or .apns file, or - for standard input"#)
    }

    private func headers(topic: String?) throws -> [(String, String)] {
        var headers: [(String, String)] = []
        if let topic { headers.append(("apns-topic", topic)) }
        if let pushType { headers.append(("apns-push-type", pushType)) }
        if let priority { headers.append(("apns-priority", String(priority))) }
        if let expiration { headers.append(("apns-expiration", String(expiration))) }
        if let collapseID { headers.append(("apns-collapse-id", collapseID)) }
        if let apnsID { headers.append(("apns-id", apnsID)) }
        if let authorization = try self.connection.authorization() { headers.append(("authorization", authorization)) }
        return headers
    }

    private func connect() async throws -> ProviderClient {
        try await self.connection.connect()
    }

    /// Whether connecting failed because nothing listens there (NIO wraps the socket's error).
    static func isRefused(_ error: any Error) -> Bool {
        if let error = error as? IOError { return error.errnoCode == ECONNREFUSED }
        return String(describing: error).contains("errno: \(ECONNREFUSED))")
    }

    /// What the phone made of an accepted push, once it settles (at most a second's wait): its
    /// journal item's phoneOutcome, from the admin API; nil when there is none to ask.
    func phoneOutcome(of answer: ProviderAnswer) async -> String? {
        guard answer.status == 200, self.adminPort > 0, let id = answer.header("apns-unique-id") else { return nil }
        let host = self.connection.host
        let address = "\(host.contains(":") ? "[\(host)]" : host):\(self.adminPort)"
        let token = AdminTokenFile.token(given: self.adminToken.value, host: host, port: self.adminPort)
        let client = AdminHTTPClient(connectTimeout: .milliseconds(500), token: token)
        let deadline = ContinuousClock.now + .seconds(1)
        var text: String?
        repeat {
            guard let reply = try? await client.request(address, path: "/api/v1/notifications/\(id)", timeout: .milliseconds(500)).get(),
                reply.status == 200, let outcome = JSONValue.parse(reply.body)?["phoneOutcome"]
            else { return text }
            text = outcome["text"]?.string
            if outcome["state"]?.string != "waiting" { return text }
            try? await Task.sleep(for: .milliseconds(50))
        } while ContinuousClock.now < deadline
        return text
    }

    /// APNs' answer as lines: status and reason (with what the phone did), detail, warnings, ids.
    static func print(_ answer: ProviderAnswer, phone: String? = nil) {
        say(answer.outcome + (phone.map { " · phone: \($0)" } ?? ""))
        if let detail = answer.header("apns-emulator-detail") { say("detail: \(detail)") }
        for warning in answer.headers("apns-emulator-warning") { say("warning: \(warning)") }
        if let id = answer.header("apns-id") { say("apns-id: \(id)") }
        if let id = answer.header("apns-unique-id") { say("apns-unique-id: \(id)") }
        if let id = answer.header("apns-request-id") { say("apns-request-id: \(id)") }
        if let id = answer.header("apns-channel-id") { say("apns-channel-id: \(id)") }
    }
}
