import APNsAuth
import APNsCore
import APNsInspection
import Synchronization

/// What one provider connection tells the report card (``ProviderLedger``): who its requests
/// are from (the provider token they carry, else the client certificate, else the peer), each
/// answered request in a few words, and the GOAWAY it was sent. Records are kept here and handed
/// over once per event-loop tick that answers (``flush()``), so the accept path takes no lock for
/// them. Confined to the connection's event loop.
final class ProviderObserver {
    /// Connection serials, shared by every listener.
    private static let serials = Atomic<UInt64>(0)

    private let ledger: ProviderLedger
    private let connection: UInt64
    private let peer: String
    private let subject: String?
    /// Real time, in milliseconds since 1970.
    private let clock: @Sendable () -> Int64
    private var events: [ProviderEvent] = []
    /// The `authorization` the last request carried, and who it made the requests' sender.
    private var authorization: String?
    private(set) var identity: ProviderIdentity?
    private var tokenHash = 0
    /// The emulator sent this connection GOAWAY: its requests in flight are fingerprinted.
    private var wentAway = false
    /// Requests answered 200 since the last flush, counted (``ProviderTally``).
    private var tally = ProviderTally()

    init(ledger: ProviderLedger, peer: String, subject: String?, clock: @escaping @Sendable () -> Int64) {
        self.ledger = ledger
        self.connection = Self.serials.wrappingAdd(1, ordering: .relaxed).newValue
        self.peer = peer
        self.subject = subject
        self.clock = clock
        self.events.append(.opened(connection: self.connection, at: clock(), peer: peer))
    }

    /// The sender of a request carrying `authorization`: the same as the last one's unless the
    /// header changed (one comparison per request); a new token is read and reported.
    @discardableResult
    func identify(_ authorization: String?) -> ProviderIdentity {
        if let identity = self.identity, authorization == self.authorization { return identity }
        self.authorization = authorization
        let identity: ProviderIdentity
        var issuedAt: Int64?
        if case .success(let token) = ProviderToken.parse(authorization: authorization) {
            identity = .token(teamID: token.teamID, keyID: token.keyID)
            issuedAt = token.issuedAt
            self.tokenHash = authorization?.hashValue ?? 0
        } else {
            identity = self.subject.map { .certificate(subject: $0) } ?? .anonymous(peer: self.peer)
            self.tokenHash = 0
        }
        self.identity = identity
        self.events.append(
            .identified(
                connection: self.connection, provider: identity, token: issuedAt == nil ? nil : authorization,
                issuedAt: issuedAt, at: self.clock()))
        return identity
    }

    /// A request on `stream` was answered with `outcome` (`exam`: the exam's event it met).
    func answered(_ request: PushRequest, stream: Int32, outcome: ProviderOutcome, exam: ProviderExam.Event? = nil) {
        var status = 0
        var reason: String?
        var apnsID = request.apnsID
        var warnings: [String] = []
        var otherEnvironment = false
        switch outcome {
        case .accepted(.push(let accepted)):
            (status, apnsID, warnings) = (200, accepted.apnsID, accepted.warnings.map(\.code))
        case .refused(.push(let refusal)):
            let rejection = refusal.rejection
            (status, reason, apnsID) = (rejection.reason.status, rejection.reason.wire, rejection.apnsID)
            otherEnvironment =
                rejection.reason == .badDeviceToken
                && APNsEnvironment.isOtherEnvironment(explanation: rejection.reason.explanation)
        case .accepted(.channel), .refused(.channel), .reset, .goAway:
            break
        }
        self.record(
            request, stream: stream, status: status, reason: reason, apnsID: apnsID, warnings: warnings, exam: exam,
            otherEnvironment: otherEnvironment)
    }

    /// A request on `stream` was not processed (it came after a GOAWAY).
    func unprocessed(_ request: PushRequest, stream: Int32) {
        self.record(
            request, stream: stream, status: 0, reason: nil, apnsID: request.apnsID, warnings: [], exam: nil,
            otherEnvironment: false)
    }

    private func record(
        _ request: PushRequest, stream: Int32, status: Int, reason: String?, apnsID: String?, warnings: [String],
        exam: ProviderExam.Event?, otherEnvironment: Bool
    ) {
        self.identify(request.authorization)
        let at = self.clock()
        // Kept, and hashed, only when a request sent again has to be recognised
        // (``ProviderLedger/wantsFingerprints(at:)``); otherwise counted.
        guard status != 200 || exam != nil || self.wentAway || self.ledger.wantsFingerprints(at: at) else {
            return self.tally.count(
                at: at, apnsID: apnsID, pushType: request.pushType, backgroundAt10: warnings.contains("background-priority"),
                expiration: request.expiration)
        }
        let path = request.path ?? ""
        let token = path.hasPrefix("/3/device/") ? path.dropFirst("/3/device/".count) : Substring(path)
        var record = ProviderRequestRecord(
            at: at, connection: self.connection, stream: stream, token: token, apnsID: apnsID, status: status,
            reason: reason, pushType: request.pushType, priority: request.priority, expiration: request.expiration,
            fingerprint: Self.fingerprint(request), tokenHash: self.tokenHash, warnings: warnings, exam: exam)
        record.otherEnvironment = otherEnvironment
        self.events.append(.request(record))
    }

    /// The request's path, headers and body hashed: what is the same when it is sent again.
    static func fingerprint(_ request: PushRequest) -> Int {
        var hasher = Hasher()
        hasher.combine(request.path)
        hasher.combine(request.topic)
        hasher.combine(request.pushType)
        hasher.combine(request.priority)
        hasher.combine(request.expiration)
        hasher.combine(request.collapseID)
        request.body.withUnsafeBytes { hasher.combine(bytes: $0) }
        // 0 stands for a request not fingerprinted.
        let hash = hasher.finalize()
        return hash == 0 ? 1 : hash
    }

    /// The emulator sent GOAWAY naming `lastStream`.
    func wentAway(lastStream: Int32) {
        self.wentAway = true
        self.events.append(.goAway(connection: self.connection, lastStream: lastStream, at: self.clock()))
    }

    /// Hands what was recorded to the ledger (once per event-loop tick that answers).
    func flush() {
        if self.tally.requests > 0 {
            self.events.append(.tally(connection: self.connection, self.tally))
            self.tally = ProviderTally()
        }
        guard !self.events.isEmpty else { return }
        self.ledger.record(self.events)
        self.events.removeAll(keepingCapacity: true)
    }

    /// The connection closed: everything goes to the ledger.
    func closed() {
        self.events.append(.closed(connection: self.connection, at: self.clock()))
        self.flush()
    }
}
