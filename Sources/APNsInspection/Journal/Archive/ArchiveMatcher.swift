import APNsCore

/// A ``JournalFilter``'s conditions in the archive's terms (interned ids and indexes), checked on
/// an ``ArchivedEntry`` without reading the store: every condition but the text search `q`.
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
    }

    func matches(_ entry: ArchivedEntry) -> Bool {
        if let status = self.status, entry.status != status { return false }
        if let since = self.since, entry.receivedAt < since { return false }
        if let topic = self.topic, entry.topic != topic { return false }
        if let pushType = self.pushType, entry.pushType != pushType { return false }
        if let source = self.source, entry.source != source { return false }
        if let outcome = self.outcome, entry.outcome != outcome { return false }
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
