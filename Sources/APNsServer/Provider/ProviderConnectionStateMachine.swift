/// The connection-level state of one provider connection, as a value: which streams are open,
/// the highest stream id seen, and whether the connection is going away (GOAWAY sent, waiting
/// for the accepted streams to finish). ``ProviderConnectionHandler`` performs its actions.
struct ProviderConnectionStateMachine {
    enum State: Equatable {
        case open
        /// GOAWAY was sent; the connection closes when its last stream does.
        case quiescing
        case closed
    }

    enum Action: Equatable {
        case none
        /// Send GOAWAY naming `lastStreamID` with this reason as debug data, then close at once
        /// (`closeNow`) or once the open streams finish, within the shutdown grace.
        case goAway(lastStreamID: Int32, reason: String, closeNow: Bool)
        /// The last stream of a quiescing connection finished: close once its frames are out.
        case closeAfterFlush
    }

    private(set) var state = State.open
    private(set) var openStreams = 0
    private(set) var highestStreamID = Int32(0)

    /// A stream opened.
    mutating func streamCreated(_ id: Int32) {
        self.openStreams += 1
        if id > self.highestStreamID { self.highestStreamID = id }
    }

    /// A stream closed; a quiescing connection closes after its last one.
    mutating func streamClosed(_ id: Int32) -> Action {
        self.openStreams -= 1
        guard self.state == .quiescing, self.openStreams <= 0 else { return .none }
        self.state = .closed
        return .closeAfterFlush
    }

    /// Graceful shutdown: GOAWAY naming the highest stream seen (every accepted stream is
    /// answered), reason `Shutdown`.
    mutating func shutdown() -> Action {
        self.quiesce(lastStreamID: self.highestStreamID, reason: "Shutdown")
    }

    /// Nothing arrived for the idle timeout: GOAWAY with `{"reason":"IdleTimeout"}`, as APNs
    /// sends, naming the highest stream seen.
    mutating func idle() -> Action {
        self.quiesce(lastStreamID: self.highestStreamID, reason: "IdleTimeout")
    }

    /// A fault rule sends the connection away from `streamID` on: GOAWAY names the stream before
    /// it, so it and any later ones were not processed and may be retried.
    mutating func goAway(from streamID: Int32, reason: String) -> Action {
        let last = streamID > 2 ? streamID - 2 : 0
        return self.quiesce(lastStreamID: last, reason: reason)
    }

    private mutating func quiesce(lastStreamID: Int32, reason: String) -> Action {
        guard self.state == .open else { return .none }
        let closeNow = self.openStreams <= 0
        self.state = closeNow ? .closed : .quiescing
        return .goAway(lastStreamID: lastStreamID, reason: reason, closeNow: closeNow)
    }
}
