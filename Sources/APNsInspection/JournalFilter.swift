import APNsCore

/// Which journal entries a query is about; every field left nil matches anything.
public struct JournalFilter: Sendable, Equatable {
    /// Hex, lower-case; entries for another token do not match.
    public var token: String?
    public var topic: String?
    public var pushType: String?
    public var status: JournalStatus?
    public var interface: Interface?
    /// Received at or after this time (ms since the UNIX epoch).
    public var since: Int64?

    public init(
        token: String? = nil,
        topic: String? = nil,
        pushType: String? = nil,
        status: JournalStatus? = nil,
        interface: Interface? = nil,
        since: Int64? = nil
    ) {
        self.token = token?.lowercased()
        self.topic = topic
        self.pushType = pushType
        self.status = status
        self.interface = interface
        self.since = since
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
            case .accepted(let notification): return notification.token.hex == token
            case .rejected(let rejected): return rejected.token == token
            }
        }
        return true
    }
}
