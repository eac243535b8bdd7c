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
        let client = AdminCommandClient(command: "export", host: self.host, port: self.adminPort, token: self.adminToken.value)
        let document = try await client.json("POST", "/api/v1/export", timeout: self.timeout)
        guard let out = self.out else {
            say(String(decoding: document.prettyPrinted, as: UTF8.self))
            return
        }
        try SeedDocument.write(document, to: out)
        say("apns-emulator: exported the world of \(client.address) to \(out)")
    }
}
