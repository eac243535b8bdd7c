import APNsProviderClient
import ArgumentParser
import Foundation

/// `apns-emulator channels create|list|read|delete`: broadcast channel management as a provider
/// sends it (Apple, "Sending channel management requests to APNs"), over HTTP/2 and TLS.
struct ChannelsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channels",
        abstract: "Create, list, read or delete broadcast channels, as a provider would.",
        discussion: """
            Prints APNs' answer: the status (and reason), apns-request-id, the channel id of a created \
            channel, and the JSON body of a read or a list; exits 1 when APNs refuses. Authentication as \
            for `push`: --key --key-id --team-id, or --cert.
            """,
        version: EmulatorVersion.string
    )

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case create, list, read, delete
    }

    @Argument(help: "create, list, read or delete.")
    var action: Action

    @Option(help: "The app's bundle id.")
    var bundle: String

    @Option(help: "The channel id (read, delete).")
    var channel: String?

    @Option(help: "message-storage-policy of a new channel: 0 (none stored) or 1 (the latest stored).")
    var policy = 0

    @Option(name: .customLong("request-id"), help: "apns-request-id: a UUID (the emulator makes one otherwise).")
    var requestID: String?

    @OptionGroup(title: "Connection and authentication")
    var connection: ProviderConnectionOptions

    func validate() throws {
        if self.action == .read || self.action == .delete, self.channel == nil {
            throw ValidationError("\(self.action.rawValue) needs --channel")
        }
        guard self.policy == 0 || self.policy == 1 else { throw ValidationError("--policy is 0 or 1") }
    }

    func run() async throws {
        var request = ProviderPush(token: "", headers: [], payload: [])
        request.path = "/1/apps/\(self.bundle)/" + (self.action == .list ? "all-channels" : "channels")
        request.method = ["create": "POST", "delete": "DELETE"][self.action.rawValue] ?? "GET"
        if self.action == .create {
            request.payload = Array(#"{"message-storage-policy": \#(self.policy), "push-type": "LiveActivity"}"#.utf8)
        }
        if let channel { request.headers.append(("apns-channel-id", channel)) }
        if let requestID { request.headers.append(("apns-request-id", requestID)) }
        if let authorization = try self.connection.authorization() { request.headers.append(("authorization", authorization)) }
        let client = try await self.connection.connect()
        let answer = try await client.push(request)
        try? await client.close()
        PushCommand.print(answer)
        if (200..<300).contains(answer.status), !answer.body.isEmpty { say(String(decoding: answer.body, as: UTF8.self)) }
        if !(200..<300).contains(answer.status) { throw ExitCode(1) }
    }
}
