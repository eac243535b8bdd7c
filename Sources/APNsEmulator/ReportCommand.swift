import APNsAdminClient
import APNsCore
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
            "Checks: token-reuse, connection-reuse, unregistered-respected, futile-retries, backoff, goaway-recovery, push-type-and-priority, expiration. serve --provider-exam makes each provider meet the events they judge."
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

    func validate() throws {
        let known = Set(ReportTable.checks)
        let named = self.failOn.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        guard ["all", "none"].contains(self.failOn) || named.allSatisfy(known.contains) else {
            let wrong = named.filter { !known.contains($0) }.joined(separator: ", ")
            throw ValidationError(
                "--fail-on: \(wrong) is not a check; use all, none, or some of \(ReportTable.checks.joined(separator: ", "))")
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
        let gate =
            self.failOn == "all"
            ? Set(ReportTable.checks)
            : Set(self.failOn.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) })
        let failed = reports.flatMap { ReportTable.failed($0) }.filter { gate.contains($0) }
        if !failed.isEmpty, self.failOn != "none" {
            say("apns-emulator: failed: \(Set(failed).sorted().joined(separator: ", "))")
            throw ExitCode(1)
        }
    }
}
