import NIOCore
import Synchronization

/// One run of a shard's catch-up of its peers' channels: its next try, and whether the emulator
/// has stopped it (then no try is scheduled again, and the one waiting is cancelled).
final class ChannelCatchUp: Sendable {
    private struct State {
        var stopped = false
        var next: Scheduled<Void>?
    }

    private let state = Mutex(State())

    var isStopped: Bool { self.state.withLock { $0.stopped } }

    /// Runs `body` on `eventLoop` after `delay`, unless stopped first.
    func schedule(in delay: TimeAmount, on eventLoop: any EventLoop, _ body: @escaping @Sendable () -> Void) {
        self.state.withLock { state in
            guard !state.stopped else { return }
            state.next = eventLoop.scheduleTask(in: delay, body)
        }
    }

    /// No more tries: the waiting one is cancelled.
    func stop() {
        self.state.withLock { state in
            state.stopped = true
            state.next?.cancel()
            state.next = nil
        }
    }
}
