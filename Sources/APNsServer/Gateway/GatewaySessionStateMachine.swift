import APNsCore
import APNsInspection
import APNsWire

/// The protocol state of one legacy gateway connection, as a value: which notifications are
/// still on their way into the store, the first failure, and when the error response may go out.
///
/// APNs answers only the first bad notification, and only after everything before it was
/// accepted: so a failure waits until the notifications in flight have committed, and a store
/// failure of an earlier notification takes the place of a later one's.
///
/// It also decides reading: reading pauses while too many notifications wait for the store, and
/// after the error response the connection lingers, reading and dropping, until the provider has
/// been quiet (closing a TLS connection with unread bytes resets it, and a reset can make the
/// provider's TCP stack drop the error response before the provider reads it).
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

    /// What to do when the channel asks for more bytes.
    enum ReadDecision: Equatable {
        case read
        /// Not now: too much is in flight (reading resumes once half of it has committed), or
        /// the error response is not out yet.
        case hold
    }

    /// Reading pauses while this many notifications wait for the store, so a provider that sends
    /// faster than the store commits cannot grow the emulator's memory without bound.
    let maximumInFlight: Int
    /// How many quiet periods a lingering connection waits at most before it closes anyway.
    let lingerLimit: Int

    private(set) var state = State.open
    /// Notifications submitted to the store and not yet committed.
    private(set) var inFlight = 0
    /// The identifier of the last notification the store took; what a shutdown reports.
    private(set) var lastProcessed: UInt32 = 0
    private var storeFailed = false
    /// Whether a read was held back because too much was in flight.
    private var readHeld = false
    /// Set once the error response is out: reads are taken and dropped until the provider is quiet.
    private(set) var lingering = false
    private var readsWhileLingering = 0
    private var lingerChecks = 0
    /// Notifications refused so far, until the error response says which one the journal gets.
    var refusals = PendingRefusals()

    init(maximumInFlight: Int = 8192, lingerLimit: Int = 20) {
        self.maximumInFlight = maximumInFlight
        self.lingerLimit = lingerLimit
    }

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

    /// The channel asks for more bytes.
    mutating func read() -> ReadDecision {
        if self.lingering { return .read }
        // After a failure nothing more is read until the error response is out.
        guard self.isAccepting else { return .hold }
        guard self.inFlight < self.maximumInFlight else {
            self.readHeld = true
            return .hold
        }
        return .read
    }

    /// After a commit: whether a held read should be issued now (half the limit has drained).
    mutating func resumeReading() -> Bool {
        guard self.readHeld, self.inFlight < self.maximumInFlight / 2 else { return false }
        self.readHeld = false
        return true
    }

    /// The error response is out: read and drop until the provider is quiet.
    mutating func errorResponseWritten() {
        self.lingering = true
        self.readHeld = false
        self.lingerChecks = 0
        self.readsWhileLingering = 0
    }

    /// A burst of reads completed.
    mutating func readCompleted() {
        if self.lingering { self.readsWhileLingering += 1 }
    }

    /// A quiet period passed while lingering: whether to close now (nothing arrived in it, or
    /// the limit of checks is reached); otherwise wait another period.
    mutating func lingerCheck() -> Bool {
        self.lingerChecks += 1
        let quiet = self.readsWhileLingering == 0
        self.readsWhileLingering = 0
        return quiet || self.lingerChecks >= self.lingerLimit
    }
}
