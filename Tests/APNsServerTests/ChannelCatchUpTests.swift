import NIOCore
import NIOEmbedded
import Synchronization
import Testing

@testable import APNsServer

/// A shard's catch-up of its peers' channels tries again every 2 s until it has them; it ends with
/// the emulator (issue 71: its stop was `{}`, so its tries went on after the service group ended).
@Suite("Channel catch-up lifecycle")
struct ChannelCatchUpTests {
    @Test("a scheduled try runs at its time; once stopped, the waiting one is cancelled and none is scheduled again")
    func stops() {
        let loop = EmbeddedEventLoop()
        let run = ChannelCatchUp()
        let tries = Mutex(0)
        run.schedule(in: .seconds(2), on: loop) { tries.withLock { $0 += 1 } }
        loop.advanceTime(by: .seconds(2))
        #expect(tries.withLock { $0 } == 1, "a try runs at its time")
        run.schedule(in: .seconds(2), on: loop) { tries.withLock { $0 += 1 } }
        run.stop()
        #expect(run.isStopped)
        loop.advanceTime(by: .seconds(10))
        run.schedule(in: .seconds(2), on: loop) { tries.withLock { $0 += 1 } }
        loop.advanceTime(by: .seconds(10))
        #expect(tries.withLock { $0 } == 1, "no try after stop: the waiting one cancelled, a new one refused")
    }
}
