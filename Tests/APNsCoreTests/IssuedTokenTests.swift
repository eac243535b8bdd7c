import APNsCore
import Testing

@Suite("Issued tokens")
struct IssuedTokenTests {
    @Test("issued tokens are 32 bytes and do not repeat")
    func random() {
        let tokens = (0..<1000).map { _ in DeviceToken.random() }
        #expect(tokens.allSatisfy { $0.bytes.count == 32 })
        #expect(Set(tokens).count == 1000)
    }
}
