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
