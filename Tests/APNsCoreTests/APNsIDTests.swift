import APNsCore
import Testing

@Suite("Identifiers")
struct APNsIDTests {
    @Test("time-ordered ids are canonical version-7 UUIDs whose text sorts by time (RFC 9562), unique within a millisecond")
    func timeOrdered() {
        var generator = APNsIDGenerator()
        let earlier = (0..<1000).map { _ in generator.timeOrderedUUID(nowMillis: 1_800_000_000_000) }
        let later = generator.timeOrderedUUID(nowMillis: 1_800_000_000_001)
        #expect(earlier.allSatisfy { APNsID.isCanonical($0) })
        #expect(Set(earlier).count == 1000)
        #expect(earlier.allSatisfy { $0 < later })
        // 1_800_000_000_000 ms is 0x01a3185c5000: the first 48 bits, then version 7 and variant 10xx.
        #expect(later.hasPrefix("01a3185c-5001-7"))
        #expect(["8", "9", "a", "b"].contains(String(later[later.index(later.startIndex, offsetBy: 19)])))
    }
}
