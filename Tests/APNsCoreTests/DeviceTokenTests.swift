import APNsCore
import Testing

@Suite("Device tokens")
struct DeviceTokenTests {
    @Test("equal when every byte is, whatever the length (32 to 100) and wherever they differ; equal tokens hash alike")
    func equality() throws {
        for count in [32, 33, 39, 64, 100] {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let token = try #require(DeviceToken(bytes: bytes))
            #expect(token == DeviceToken(bytes: bytes))
            #expect(token.hashValue == DeviceToken(bytes: bytes)?.hashValue)
            for position in [0, 7, 8, count - 1] {
                var other = bytes
                other[position] ^= 0x40
                #expect(token != DeviceToken(bytes: other), "\(count) bytes, differing at \(position)")
            }
        }
        let short = try #require(DeviceToken(bytes: [UInt8](repeating: 1, count: 32)))
        #expect(short != DeviceToken(bytes: [UInt8](repeating: 1, count: 33)))
        #expect(Set([short, short, DeviceToken.random()]).count == 2)
    }
}

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
