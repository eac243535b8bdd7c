import APNsCore
import APNsWire

/// The protocol state of one legacy gateway connection, as a value: which notifications are
/// still on their way into the store, the first failure, and when the error response may go out.
///
/// APNs answers only the first bad notification, and only after everything before it was
/// accepted: so a failure waits until the notifications in flight have committed, and a store
/// failure of an earlier notification takes the place of a later one's.
struct GatewaySessionStateMachine {
    enum State: Equatable {
        case open
        /// Waiting for the notifications in flight; `identifier` nil means "the last one processed" (shutdown).
        case failing(BinaryStatus, identifier: UInt32?)
        case closed
    }

    enum Action: Equatable {
        case none
        /// Write this error response, then close the connection.
        case writeErrorAndClose(BinaryErrorResponse)
        /// Close without a word (idle).
        case close
    }

    private(set) var state = State.open
    /// Notifications submitted to the store and not yet committed.
    private(set) var inFlight = 0
    /// The identifier of the last notification the store took; what a shutdown reports.
    private(set) var lastProcessed: UInt32 = 0
    private var storeFailed = false

    /// Whether new notifications are still taken; after a failure everything is discarded.
    var isAccepting: Bool { self.state == .open }

    /// A notification went to the store.
    mutating func submitted() {
        self.inFlight += 1
    }

    /// A notification was refused before reaching the store (malformed, invalid, unknown token).
    mutating func refused(_ status: BinaryStatus, identifier: UInt32) -> Action {
        guard self.state == .open else { return .none }
        self.state = .failing(status, identifier: identifier)
        return self.writeWhenDrained()
    }

    /// The store answered for a notification submitted earlier; `refusal` is the status it earns, if any.
    /// Answers arrive in submission order.
    mutating func committed(identifier: UInt32, refusal: BinaryStatus?) -> Action {
        self.inFlight -= 1
        guard self.state != .closed, !self.storeFailed else { return self.writeWhenDrained() }
        if let refusal {
            // It came before anything refused on arrival: it is the first bad notification.
            self.storeFailed = true
            self.state = .failing(refusal, identifier: identifier)
        } else {
            self.lastProcessed = identifier
        }
        return self.writeWhenDrained()
    }

    /// Graceful shutdown: status 10 with the last processed identifier, once in-flight work is done.
    mutating func shutdown() -> Action {
        guard self.state == .open else { return .none }
        self.state = .failing(.shutdown, identifier: nil)
        return self.writeWhenDrained()
    }

    /// Nothing arrived for the idle timeout: close, unless work is still in flight.
    mutating func idle() -> Action {
        guard self.state == .open, self.inFlight == 0 else { return .none }
        self.state = .closed
        return .close
    }

    /// The connection is gone; later answers from the store change nothing.
    mutating func closed() {
        self.state = .closed
    }

    private mutating func writeWhenDrained() -> Action {
        guard case .failing(let status, let identifier) = self.state, self.inFlight == 0 else { return .none }
        self.state = .closed
        return .writeErrorAndClose(BinaryErrorResponse(status: status, identifier: identifier ?? self.lastProcessed))
    }
}
