/// One check of the report card: its verdict, the evidence, and where the rule comes from.
public struct ProviderCheck: Sendable {
    public enum Verdict: String, Sendable {
        case pass, fail, notSeen
    }

    public var id: String
    public var verdict: Verdict
    /// What was seen, for a person: counts, intervals, times.
    public var summary: String
    /// The `apns-id`s of the requests concerned (at most ``maximumEvidence``).
    public var apnsIDs: [String]
    /// The figures behind the verdict, by name.
    public var figures: [(name: String, value: Double)]
    /// Apple's page (or forum answer) the rule comes from.
    public var source: String

    /// The most requests a check names.
    public static let maximumEvidence = 20

    public init(
        id: String, verdict: Verdict, summary: String, apnsIDs: [String] = [], figures: [(name: String, value: Double)] = [],
        source: String
    ) {
        self.id = id
        self.verdict = verdict
        self.summary = summary
        self.apnsIDs = Array(apnsIDs.prefix(Self.maximumEvidence))
        self.figures = figures
        self.source = source
    }
}
