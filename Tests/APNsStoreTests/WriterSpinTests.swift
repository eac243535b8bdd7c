import Testing

@testable import APNsStore

@Suite("Store writer: when it looks for work instead of sleeping")
struct WriterSpinTests {
    let t0 = ContinuousClock.now

    @Test("a zero window never looks")
    func off() {
        var spin = WriterSpin(window: .zero)
        spin.woke(after: .microseconds(10))
        spin.stopped(found: true)
        #expect(!spin.looking(at: self.t0))
    }

    @Test(
        "work soon after a short sleep starts looking; a look that finds work goes on; one that finds nothing for the window stops"
    )
    func adaptive() {
        var spin = WriterSpin(window: .microseconds(300))
        #expect(!spin.looking(at: self.t0))
        // Work after a long sleep: still no looking.
        spin.woke(after: .seconds(1))
        spin.stopped(found: true)
        #expect(!spin.looking(at: self.t0))
        // Work soon after a short sleep: look next time.
        spin.woke(after: .microseconds(150))
        spin.stopped(found: true)
        #expect(spin.looking(at: self.t0))
        // Work found while looking: keep looking.
        spin.foundNothing(at: self.t0)
        spin.stopped(found: true)
        #expect(spin.looking(at: self.t0))
        // Nothing for the whole window: stop, and sleep.
        spin.foundNothing(at: self.t0)
        #expect(spin.looking(at: self.t0 + .microseconds(299)))
        #expect(!spin.looking(at: self.t0 + .microseconds(300)))
        spin.stopped(found: false)
        #expect(!spin.looking(at: self.t0 + .milliseconds(1)))
    }
}
