/// The report card of one provider: every check, judged now from its history. Judging happens
/// here, when someone asks, never on the accept path.
public struct ProviderReport: Sendable {
    public var provider: ProviderHistory
    public var checks: [ProviderCheck]
    /// Whether the exam was on while it was recorded.
    public var exam: Bool

    public init(_ history: ProviderHistory, exam: Bool) {
        self.provider = history
        self.exam = exam
        self.checks = ProviderChecks.judges.map { $0(history) }
    }

    /// The checks that failed.
    public var failed: [ProviderCheck] { self.checks.filter { $0.verdict == .fail } }
}
