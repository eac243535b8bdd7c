import APNsCore

/// A ``JournalFilter``'s conditions in the archive's terms (interned ids and indexes), checked on
/// an ``ArchivedEntry`` without reading the store: every condition but `q`'s words and those of its
/// fields that look into the entry (``JournalFilterMore/settlesInIndex``).
struct ArchiveMatcher: Sendable {
    /// A filter value the archive has never seen: nothing there matches it.
    private static let unseen = UInt32.max - 1

    private var status: UInt8?
    private var since: Int64?
    private var topic: UInt32?
    private var pushType: UInt32?
    private var source: UInt8?
    private var outcome: UInt8?
    /// The token wanted, for accepted entries (among tokens) and rejected ones (among strings).
    private var acceptedToken: UInt32?
    private var rejectedToken: UInt32?
    private var wantsToken = false
    private var before: Int64?
    /// The tokens `token:` (a start) and `device:` allow: accepted ones' ids, and rejected ones' among strings.
    private var acceptedTokens: Set<UInt32>?
    private var rejectedTokens: Set<UInt32>?

    /// Nil when nothing in `archive` can match `filter`.
    init?(_ filter: JournalFilter, in archive: JournalArchive) {
        self.status = filter.status.map(JournalArchive.index)
        self.since = filter.since
        self.source = filter.interface.map(JournalArchive.index)
        self.outcome = filter.outcome.map(JournalArchive.index)
        if let topic = filter.topic {
            guard let id = archive.strings.existing(topic) else { return nil }
            self.topic = id
        }
        if let pushType = filter.pushType {
            guard let id = archive.strings.existing(pushType) else { return nil }
            self.pushType = id
        }
        if let token = filter.token {
            self.wantsToken = true
            self.acceptedToken = DeviceToken(hex: token).flatMap { archive.tokens.existing($0) } ?? Self.unseen
            self.rejectedToken = archive.strings.existing(token) ?? Self.unseen
        }
        self.before = filter.more.before
        let (prefix, allowed) = (filter.more.tokenPrefix, filter.more.deviceTokens)
        if prefix != nil || allowed != nil {
            let wanted = { (hex: String) in
                (prefix.map { hex.hasPrefix($0) } ?? true) && (allowed.map { $0.contains(hex) } ?? true)
            }
            self.acceptedTokens = archive.tokens.ids { wanted($0.hex) }
            self.rejectedTokens = archive.strings.ids { wanted($0.lowercased()) }
        }
    }

    func matches(_ entry: ArchivedEntry) -> Bool {
        if let status = self.status, entry.status != status { return false }
        if let since = self.since, entry.receivedAt < since { return false }
        if let topic = self.topic, entry.topic != topic { return false }
        if let pushType = self.pushType, entry.pushType != pushType { return false }
        if let source = self.source, entry.source != source { return false }
        if let outcome = self.outcome, entry.outcome != outcome { return false }
        if let before = self.before, entry.receivedAt >= before { return false }
        if let accepted = self.acceptedTokens, let rejected = self.rejectedTokens {
            switch entry.kind {
            case .accepted: guard accepted.contains(entry.token) else { return false }
            case .rejected: guard rejected.contains(entry.token) else { return false }
            case .broadcast, .gone: return false
            }
        }
        if self.wantsToken {
            switch entry.kind {
            case .accepted: return entry.token == self.acceptedToken
            case .rejected: return entry.token == self.rejectedToken
            case .broadcast, .gone: return false
            }
        }
        return entry.kind != .gone
    }
}
