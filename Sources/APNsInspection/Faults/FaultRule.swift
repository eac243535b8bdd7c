import APNsCore

/// A rule that makes the emulator misbehave on purpose for matching provider requests.
public struct FaultRule: Sendable, Equatable {
    /// Which requests the rule is for; a field left nil matches anything.
    public struct Match: Sendable, Equatable {
        /// Device token, lower-case hex.
        public var token: String?
        public var topic: String?
        public var pushType: String?
        public var interface: Interface?
        /// A channel management or broadcast request's `apns-channel-id`.
        public var channelID: String?

        public init(
            token: String? = nil, topic: String? = nil, pushType: String? = nil, interface: Interface? = nil,
            channelID: String? = nil
        ) {
            self.channelID = channelID
            self.token = token?.lowercased()
            self.topic = topic
            self.pushType = pushType
            self.interface = interface
        }
    }

    /// What happens to a matching request instead of (or before) its normal handling.
    public enum Action: Sendable, Equatable {
        /// Answer with this error: `reason` and HTTP `status` on HTTP/2, `statusByte` on the binary
        /// interface (an error response, then the connection closes). A rule missing one of them
        /// leaves that interface alone.
        case respond(reason: String?, status: Int?, statusByte: UInt8?)
        /// Handle the request normally after this long (HTTP/2 and Web Push: the binary interface
        /// answers nothing on success).
        case delay(Duration)
        /// Close the TCP connection at once, with a reset (RST), answering nothing.
        case reset
        /// Send GOAWAY whose last stream id is just below this request's (so the request was not
        /// processed and may be retried), with debug data `{"reason": reason}`, then close once the
        /// earlier streams are answered (HTTP/2 only).
        case goAway(reason: String)

        /// The action's name in the API.
        public var name: String {
            switch self {
            case .respond: return "respond"
            case .delay: return "delay"
            case .reset: return "reset"
            case .goAway: return "goaway"
            }
        }

        /// Whether the action means something on `interface`.
        public func applies(to interface: Interface) -> Bool {
            switch self {
            case .respond(let reason, _, let statusByte):
                return interface == .http2 || interface == .broadcast || interface == .webPush ? reason != nil : statusByte != nil
            case .delay:
                return interface == .http2 || interface == .broadcast || interface == .webPush
            case .goAway:
                return interface == .http2 || interface == .broadcast
            case .reset:
                return true
            }
        }
    }

    public var id: String
    public var match: Match
    public var action: Action
    /// How many more requests it applies to; nil for every one until deleted.
    public var remaining: Int?
    /// The chance it applies to a matching request.
    public var probability: Double
    /// How many requests it has applied to.
    public var hits = 0

    public init(id: String, match: Match, action: Action, times: Int? = nil, probability: Double = 1) {
        self.id = id
        self.match = match
        self.action = action
        self.remaining = times
        self.probability = probability
    }

    /// Whether a request with these fields is one the rule is for (probability aside).
    public func matches(_ request: FaultRequest) -> Bool {
        if let interface = self.match.interface, interface != request.interface { return false }
        if let token = self.match.token, token != request.token() { return false }
        if let topic = self.match.topic, topic != request.topic { return false }
        if let pushType = self.match.pushType, pushType != request.pushType { return false }
        if let channelID = self.match.channelID, channelID != request.channelID { return false }
        return self.action.applies(to: request.interface)
    }
}
