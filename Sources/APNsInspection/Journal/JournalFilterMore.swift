import APNsCore
import APNsDevice

/// The conditions of a ``JournalFilter`` that only its search `q` gives (``JournalSearch``);
/// every one left empty matches anything.
public struct JournalFilterMore: Sendable, Equatable {
    /// Words and phrases that must each be in the entry, beside the filter's ``JournalFilter/search``; lower-cased.
    public var terms: [String] = []
    /// Words and phrases that must not be; lower-cased.
    public var excluded: [String] = []
    /// The start of the token, hex, lower-cased (`token:`).
    public var tokenPrefix: String?
    /// The tokens of the device `device:` names (none when it is not known).
    public var deviceTokens: Set<String>?
    /// Received before this time (ms since the UNIX epoch).
    public var before: Int64?
    /// A refusal's reason, lower-cased.
    public var reason: String?
    /// Whether it was delivered quietly (`is:quiet`): a Focus, a summary or the user's settings held it.
    public var quiet: Bool?
    /// Whether the lint warns about it (`is:warning`).
    public var warning: Bool?
    /// The endpoint it was sent to (`environment:`, `environment=`).
    public var environment: APNsEnvironment?
    /// Fields given with `-` (`-status:rejected`): an entry any of these matches does not match.
    public var exclusions: [JournalFilter] = []

    public init() {}

    /// Whether the archive's index can settle these conditions without reading an entry back:
    /// the token's start, the device's tokens and the time can; the rest look at the entry.
    var settlesInIndex: Bool {
        self.terms.isEmpty && self.excluded.isEmpty && self.reason == nil && self.quiet == nil && self.warning == nil
            && self.environment == nil && self.exclusions.isEmpty
    }

    func matches(_ entry: JournalEntry) -> Bool {
        if let before = self.before, entry.receivedAt >= before { return false }
        if self.tokenPrefix != nil || self.deviceTokens != nil {
            guard let token = JournalFilter.token(of: entry) else { return false }
            if let prefix = self.tokenPrefix, !token.hasPrefix(prefix) { return false }
            if let tokens = self.deviceTokens, !tokens.contains(token) { return false }
        }
        if let reason = self.reason, Self.reason(of: entry)?.lowercased() != reason { return false }
        if let quiet = self.quiet, (entry.presentation?.deliveredQuietly ?? false) != quiet { return false }
        if let warning = self.warning, Self.warns(entry) != warning { return false }
        if let environment = self.environment, Self.environment(of: entry) != environment { return false }
        for term in self.terms where !entry.contains(term) { return false }
        for term in self.excluded where entry.contains(term) { return false }
        return !self.exclusions.contains { $0.matches(entry) }
    }

    /// The first condition `entry` fails, in words.
    func misses(_ entry: JournalEntry) -> String {
        if let term = self.terms.first(where: { !entry.contains($0) }) { return "wanted text containing \(term), found none" }
        if let term = self.excluded.first(where: { entry.contains($0) }) { return "wanted no \(term), found it" }
        return "the entry does not match its other terms"
    }

    /// The endpoint a push or request was sent to; nil where there is none (a channel request, Web Push's refusals).
    static func environment(of entry: JournalEntry) -> APNsEnvironment? {
        switch entry.push {
        case .accepted(let notification): notification.source == .webPush ? nil : notification.environment
        case .rejected(let rejected): rejected.environment
        case .broadcast: nil
        }
    }

    /// A refusal's reason (a rejected push's, or a channel request's).
    static func reason(of entry: JournalEntry) -> String? {
        switch entry.push {
        case .accepted: nil
        case .rejected(let rejected): rejected.reason
        case .broadcast(let record): record.reason
        }
    }

    /// Whether the lint has something to say about it, as the inbox's Warnings column shows.
    static func warns(_ entry: JournalEntry) -> Bool {
        switch entry.push {
        case .accepted(let notification): !PushLint.warnings(for: notification).isEmpty
        case .rejected: false
        case .broadcast(let record): !record.warnings.isEmpty
        }
    }
}
