import Foundation

extension TestEmulator {
    // MARK: The provider's report card

    /// The report card of `provider` (an id `GET /api/v1/providers` lists), or of the provider
    /// seen last.
    public func providerReport(provider: String? = nil) async throws -> ProviderReportCard {
        var id = provider
        if id == nil {
            let answer = try await self.admin("/api/v1/providers")
            let items = (try answer.json() as? [String: Any])?["items"] as? [[String: Any]] ?? []
            id = items.first?["id"] as? String
        }
        guard let id else { throw TestEmulatorError(message: "no provider has sent a request to the HTTP/2 provider API yet") }
        let answer = try await self.admin("/api/v1/providers/\(id)/report")
        guard answer.status == 200, let document = try answer.json() as? [String: Any] else {
            throw TestEmulatorError(message: "report: \(answer.status) \(answer.text)")
        }
        return ProviderReportCard(document)
    }

    /// Throws a ``TestEmulatorError`` naming each failed check (of `checks`, when given) with its
    /// evidence and source; returns the report card when none failed.
    @discardableResult
    public func assertProviderBehaves(provider: String? = nil, checks: [String]? = nil) async throws -> ProviderReportCard {
        let report = try await self.providerReport(provider: provider)
        let failed = report.checks.filter { $0.verdict == "fail" && (checks?.contains($0.id) ?? true) }
        guard failed.isEmpty else {
            let lines = failed.map { check in
                "  \(check.id): \(check.summary)"
                    + (check.apnsIDs.isEmpty ? "" : " (apns-ids: \(check.apnsIDs.prefix(5).joined(separator: ", ")))")
                    + "\n    source: \(check.source)"
            }
            throw TestEmulatorError(
                message: "\(report.provider) fails \(failed.count) check(s) of its report card:\n" + lines.joined(separator: "\n")
            )
        }
        return report
    }
}
