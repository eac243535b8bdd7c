import APNsCore

/// Which journal entries a query is about; every field left nil matches anything.
public struct JournalFilter: Sendable, Equatable {
    /// Hex, lower-case; entries for another token do not match.
    public var token: String? {
        didSet { self.deviceToken = Self.parsed(self.token) }
    }
    /// ``token`` as bytes, when it is a token's hex: an accepted entry's token is compared as
    /// bytes, not turned into hex for each entry a page scans (a million in the history).
    private var deviceToken: DeviceToken?
    public var topic: String?
    public var pushType: String?
    public var status: JournalStatus?
    public var interface: Interface?
    /// Received at or after this time (ms since the UNIX epoch).
    public var since: Int64?
    /// Text a person reads or sent, case-insensitive (``JournalEntry/searchText``); lower-cased.
    public var search: String?
    /// What the phone made of it (``PhoneOutcome``).
    public var outcome: PhoneOutcome.State?
    /// What else `q` asks (``JournalSearch``): the words and phrases beside ``search`` (each must
    /// be there), those that must not be, and its fields the parameters above do not cover.
    public var more = JournalFilterMore()

    public init(
        token: String? = nil,
        topic: String? = nil,
        pushType: String? = nil,
        status: JournalStatus? = nil,
        interface: Interface? = nil,
        since: Int64? = nil,
        search: String? = nil,
        outcome: PhoneOutcome.State? = nil
    ) {
        self.token = token?.lowercased()
        self.deviceToken = Self.parsed(self.token)
        self.topic = topic
        self.pushType = pushType
        self.status = status
        self.interface = interface
        self.since = since
        self.search = search.flatMap { $0.isEmpty ? nil : $0.lowercased() }
        self.outcome = outcome
    }

    /// Whether `entry` passes every condition given.
    public func matches(_ entry: JournalEntry) -> Bool {
        if let status = self.status, entry.status != status { return false }
        if let since = self.since, entry.receivedAt < since { return false }
        if let topic = self.topic, entry.topic != topic { return false }
        if let pushType = self.pushType, entry.pushType != pushType { return false }
        if let interface = self.interface, entry.source != interface { return false }
        if let token = self.token {
            switch entry.push {
            case .accepted(let notification):
                guard let bytes = self.deviceToken, notification.token == bytes else { return false }
            case .rejected(let rejected): guard rejected.token == token else { return false }
            case .broadcast: return false
            }
        }
        if let outcome = self.outcome, PhoneOutcome(of: entry).state != outcome { return false }
        if let search = self.search, !entry.contains(search) { return false }
        return self.more.matches(entry)
    }

    /// A lower-case hex token as bytes (nil when it is not one: then no accepted entry matches).
    private static func parsed(_ token: String?) -> DeviceToken? {
        token.flatMap { DeviceToken(hex: $0) }.flatMap { $0.hex == token ? $0 : nil }
    }

    /// Whether the journal's archive settles this filter from its index: no text to look for and
    /// nothing else that looks into an entry.
    var settlesInIndex: Bool { self.search == nil && self.more.settlesInIndex }

    /// The entry's token as hex (a rejected request's as sent); nil for a channel request.
    static func token(of entry: JournalEntry) -> String? {
        switch entry.push {
        case .accepted(let notification): notification.token.hex
        case .rejected(let rejected): rejected.token
        case .broadcast: nil
        }
    }
}

extension JournalFilter {
    /// Why `entry` does not match, condition by condition (`topic: wanted a.b, was c.d`); empty
    /// when it does. For a wait that timed out: what came closest, and what it failed.
    public func misses(_ entry: JournalEntry) -> [String] {
        var misses: [String] = []
        func miss(_ name: String, _ wanted: String?, _ was: String?) {
            guard let wanted, wanted != was else { return }
            misses.append("\(name): wanted \(wanted), was \(was ?? "none")")
        }
        miss("token", self.token, Self.token(of: entry) ?? "")
        miss("topic", self.topic, entry.topic)
        miss("pushType", self.pushType, entry.pushType)
        miss("status", self.status?.rawValue, entry.status.rawValue)
        miss("interface", self.interface?.rawValue, entry.source.rawValue)
        miss("outcome", self.outcome?.rawValue, PhoneOutcome(of: entry).state.rawValue)
        if let search = self.search, !entry.contains(search) {
            misses.append("q: wanted text containing \(search), found none")
        }
        if !self.more.matches(entry) { misses.append("q: \(self.more.misses(entry))") }
        if let since = self.since, entry.receivedAt < since {
            misses.append(
                "since: wanted at or after \(Timestamp.rfc3339(millis: since)), was received \(Timestamp.rfc3339(millis: entry.receivedAt))"
            )
        }
        return misses
    }
}
