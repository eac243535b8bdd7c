import APNsProviderClient
import ArgumentParser

/// Where the emulator's HTTP/2 API is and how a provider authenticates to it: the options
/// `push` and `channels` share, declared once.
struct ProviderConnectionOptions: ParsableArguments {
    @Option(help: "A provider-token signing key (.p8) for token authentication.")
    var key: String?

    @Option(name: .customLong("key-id"), help: "The key's id (the token's kid).")
    var keyID: String?

    @Option(name: .customLong("team-id"), help: "The team id (the token's iss).")
    var teamID: String?

    @Option(help: "A PEM file with a provider certificate and its key, for certificate authentication.")
    var cert: String?

    @Option(help: "The emulator's address. (env: \(EnvironmentTwins.variable(for: "--host")))")
    var host = ServeCommand.defaults.host

    @Option(
        name: .customLong("http2-port"),
        help:
            "The emulator's HTTP/2 port (it serves channel management too). (env: \(EnvironmentTwins.variable(for: "--http2-port")))"
    )
    var http2Port = ServeCommand.defaults.http2Port

    @Option(name: .customLong("ca"), help: "The CA to trust: the emulator's development CA.")
    var caPath = ServeCommand.defaults.developmentCAPath

    func validate() throws {
        let tokenAuth = [self.key, self.keyID, self.teamID].compactMap { $0 }.count
        guard tokenAuth == 0 || tokenAuth == 3 else {
            throw ValidationError("token authentication needs --key, --key-id and --team-id together")
        }
        if tokenAuth == 3, self.cert != nil {
            throw ValidationError("use --key (token) or --cert (certificate) authentication, not both")
        }
    }

    /// The `authorization` header of a provider token signed now, with token authentication.
    func authorization() throws -> String? {
        guard let key, let keyID, let teamID else { return nil }
        return try PushCommand.authorization(key: key, keyID: keyID, teamID: teamID)
    }

    /// A provider connection to the emulator, trusting `--ca`, presenting `--cert` if given.
    func connect() async throws -> ProviderClient {
        try await PushCommand.connect(host: self.host, port: self.http2Port, caPath: self.caPath, cert: self.cert)
    }
}
