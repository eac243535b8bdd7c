import APNsCore
import Testing

@Suite("Durations as people write them")
struct DurationTextTests {
    @Test("ms, s, m, h and bare seconds; fractions; refusals")
    func parse() {
        #expect(DurationText.parse("250ms") == .milliseconds(250))
        #expect(DurationText.parse("1.5s") == .milliseconds(1500))
        #expect(DurationText.parse("90m") == .seconds(5400))
        #expect(DurationText.parse("2h") == .seconds(7200))
        #expect(DurationText.parse("3") == .seconds(3))
        for bad in ["", "soon", "-1s", "1e400s", "inf", "5 s"] {
            #expect(DurationText.parse(bad) == nil, "\(bad)")
        }
    }
}
