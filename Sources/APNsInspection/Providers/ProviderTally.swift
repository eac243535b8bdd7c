/// The requests of one connection answered 200 with nothing to recognise later (no refusal or
/// GOAWAY near them): counted, with the few facts the checks read and a sample of their
/// `apns-id`s, instead of a record each, so that a provider under load costs the emulator a few
/// additions per request and keeps nothing of it.
public struct ProviderTally: Sendable {
    /// The most `apns-id`s kept for each kind of evidence.
    public static let samples = 20

    public var requests = 0
    public var last: Int64 = 0
    public var first: String?
    /// Without `apns-push-type`.
    public var untyped = 0
    public var untypedIDs: [String] = []
    /// A background push at priority 10 (the lint's `background-priority`).
    public var backgroundAt10 = 0
    public var backgroundIDs: [String] = []
    /// With `apns-expiration`: how many, already past on arrival, more than a year ahead.
    public var dated = 0
    public var past = 0
    public var pastIDs: [String] = []
    public var farAhead = 0
    public var farIDs: [String] = []

    public init() {}

    /// Counts one request answered 200 at `at` (real time, ms).
    public mutating func count(
        at: Int64, apnsID: String?, pushType: String?, backgroundAt10: Bool, expiration: String?
    ) {
        self.requests += 1
        self.last = at
        if self.first == nil { self.first = apnsID }
        if pushType == nil { Self.note(&self.untyped, &self.untypedIDs, apnsID) }
        if backgroundAt10 { Self.note(&self.backgroundAt10, &self.backgroundIDs, apnsID) }
        if let expiration, let seconds = Int64(expiration) {
            self.dated += 1
            if ProviderChecks.isPast(expiration: seconds, at: at) { Self.note(&self.past, &self.pastIDs, apnsID) }
            if ProviderChecks.isFarAhead(expiration: seconds, at: at) { Self.note(&self.farAhead, &self.farIDs, apnsID) }
        }
    }

    /// Adds another tally's counts (and samples, up to the limit).
    public mutating func add(_ other: ProviderTally) {
        self.requests += other.requests
        self.last = max(self.last, other.last)
        self.untyped += other.untyped
        self.backgroundAt10 += other.backgroundAt10
        self.dated += other.dated
        self.past += other.past
        self.farAhead += other.farAhead
        Self.sample(&self.untypedIDs, other.untypedIDs)
        Self.sample(&self.backgroundIDs, other.backgroundIDs)
        Self.sample(&self.pastIDs, other.pastIDs)
        Self.sample(&self.farIDs, other.farIDs)
    }

    /// Adds `more` to `ids` while it has room: once full, nothing is copied (every flush of a
    /// loaded connection comes here).
    private static func sample(_ ids: inout [String], _ more: [String]) {
        guard ids.count < Self.samples, !more.isEmpty else { return }
        ids.append(contentsOf: more.prefix(Self.samples - ids.count))
    }

    private static func note(_ count: inout Int, _ ids: inout [String], _ apnsID: String?) {
        count += 1
        if ids.count < Self.samples, let apnsID { ids.append(apnsID) }
    }
}
