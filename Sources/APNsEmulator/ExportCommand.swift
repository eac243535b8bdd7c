import APNsAdminClient
import APNsCore
import APNsServer
import ArgumentParser
import Foundation

/// `apns-emulator export --out FILE`: a running emulator's world as a seed document, through
/// its admin API (`POST /api/v1/export`); `serve --seed FILE` starts the same world.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a running emulator's world (devices, apps, power, keys, channels, fault rules, clock) as a seed file.",
        discussion: "serve --seed FILE starts the same world; the format is docs/seed.schema.json."
    )

    @Option(help: "The emulator's admin API host.")
    var host = "127.0.0.1"

    @Option(name: .customLong("admin-port"), help: "The emulator's admin API port.")
    var adminPort = 8197

    @OptionGroup var adminToken: AdminTokenOption

    @Option(name: .customLong("out"), help: "The file to write (private to you: it holds web apps' private keys; standard output without it).")
    var out: String?

    @Option(help: "Seconds to wait for the emulator's answer.")
    var timeout: Double = 30

    func run() async throws {
        let address = "\(self.host.contains(":") ? "[\(self.host)]" : self.host):\(self.adminPort)"
        let answer: AdminHTTPClient.Answer
        do {
            let token = AdminTokenFile.token(given: self.adminToken.value, host: self.host, port: self.adminPort)
            answer = try await AdminHTTPClient(connectTimeout: .seconds(5), token: token).request(
                address, method: "POST", path: "/api/v1/export", timeout: .milliseconds(Int64(self.timeout * 1000))
            ).get()
        } catch {
            throw ValidationError("export: no emulator's admin API answered at \(address): \(error)")
        }
        if answer.status == 401 {
            throw ValidationError(
                "export: \(address) asks for its admin token: pass --admin-token (or \(EnvironmentTwins.variable(for: "--admin-token"))), the token serve printed at start"
            )
        }
        guard answer.status == 200, let document = JSONValue.parse(answer.body) else {
            throw ValidationError(
                "export: \(address) answered \(answer.status): \(String(decoding: answer.body.prefix(500), as: UTF8.self))")
        }
        guard let out = self.out else {
            say(String(decoding: document.prettyPrinted, as: UTF8.self))
            return
        }
        try SeedDocument.write(document, to: out)
        say("apns-emulator: exported the world of \(address) to \(out)")
    }
}
