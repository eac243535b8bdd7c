import APNsAdminClient
import APNsCore
import APNsInspection
import ArgumentParser
import Foundation

/// `apns-emulator report`: the report card of each provider a running emulator has seen (through
/// `GET /api/v1/providers` and `GET /api/v1/providers/<id>/report`), as a table; it exits 1 when a
/// check named by `--fail-on` failed, so that a CI job can gate on it.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract:
            "Print each provider's report card (what its push code does that Apple asks it not to); exit 1 on a failed check.",
        discussion:
            "Checks: \(ProviderChecks.ids.joined(separator: ", ")). serve --provider-exam makes each provider meet the events they judge."
    )

    @Option(help: "The emulator's admin API host.")
    var host = "127.0.0.1"

    @Option(name: .customLong("admin-port"), help: "The emulator's admin API port.")
    var adminPort = 8197

    @OptionGroup var adminToken: AdminTokenOption

    @Option(help: "Only this provider (an id GET /api/v1/providers lists); every provider without it.")
    var provider: String?

    @Option(
        name: .customLong("fail-on"),
        help: "The checks whose failure makes the exit status 1: all (the default), none, or check ids separated by commas.")
    var failOn = "all"

    @Flag(help: "Print the reports as JSON (an array of GET /api/v1/providers/<id>/report documents).")
    var json = false

    /// The check ids `--fail-on` names, in its order (nil for `all`, none for `none`).
    private var named: [String]? {
        switch self.failOn {
        case "all": return nil
        case "none": return []
        default: return self.failOn.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    func validate() throws {
        let wrong = (self.named ?? []).filter { !ProviderChecks.ids.contains($0) }
        guard wrong.isEmpty else {
            throw ValidationError(
                "--fail-on: \(wrong.joined(separator: ", ")) is not a check; use all, none, or some of \(ProviderChecks.ids.joined(separator: ", "))"
            )
        }
    }

    func run() async throws {
        let client = AdminCommandClient(host: self.host, port: self.adminPort, token: self.adminToken.value)
        var ids = self.provider.map { [$0] } ?? []
        if self.provider == nil { ids = try await client.providerIDs() }
        var reports: [JSONValue] = []
        for id in ids { reports.append(try await client.report(of: id)) }
        if self.json {
            say(String(decoding: JSONValue.array(reports).prettyPrinted, as: UTF8.self))
        } else if reports.isEmpty {
            say("apns-emulator: no provider has connected to \(client.address) yet")
        } else {
            for report in reports { say(ReportTable.text(report)) }
        }
        let gate = Set(self.named ?? ProviderChecks.ids)
        let failed = reports.flatMap { ReportTable.failed($0) }.filter { gate.contains($0) }
        if !failed.isEmpty {
            say("apns-emulator: failed: \(Set(failed).sorted().joined(separator: ", "))")
            throw ExitCode(1)
        }
    }
}
