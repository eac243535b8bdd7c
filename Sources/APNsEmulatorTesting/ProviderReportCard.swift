/// A provider's report card, as `GET /api/v1/providers/<id>/report` gives it: what its push code
/// does that Apple asks providers not to. ``TestEmulator/providerReport(provider:)`` reads it,
/// ``TestEmulator/assertProviderBehaves(provider:checks:)`` fails on it.
public struct ProviderReportCard: Sendable {
    /// One check: `pass`, `fail` or `notSeen` (nothing happened that it judges).
    public struct Check: Sendable {
        public var id: String
        public var verdict: String
        /// What was seen, in a sentence.
        public var summary: String
        /// The `apns-id`s of the requests concerned.
        public var apnsIDs: [String]
        /// Apple's page (or the RFC) the rule comes from.
        public var source: String
    }

    /// `token-<team>-<key>`, `certificate-<bundle id>` or `anonymous-<address>`.
    public var provider: String
    /// `pass`, or `fail` when any check failed.
    public var verdict: String
    /// Whether the exam was on (`configuration.providerExam`, serve's `--provider-exam`).
    public var exam: Bool
    public var checks: [Check]

    init(_ document: [String: Any]) {
        self.provider = (document["provider"] as? [String: Any])?["id"] as? String ?? ""
        self.verdict = document["verdict"] as? String ?? ""
        self.exam = document["exam"] as? Bool ?? false
        self.checks = (document["checks"] as? [[String: Any]] ?? []).map { check in
            let evidence = check["evidence"] as? [String: Any] ?? [:]
            return Check(
                id: check["id"] as? String ?? "", verdict: check["verdict"] as? String ?? "",
                summary: evidence["summary"] as? String ?? "", apnsIDs: evidence["apnsIds"] as? [String] ?? [],
                source: check["source"] as? String ?? "")
        }
    }

    /// The check with this id.
    public subscript(id: String) -> Check? { self.checks.first { $0.id == id } }
}
