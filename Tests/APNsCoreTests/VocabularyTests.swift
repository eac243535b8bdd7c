import APNsCore
import Testing

@Suite("Tokens, ids, push types, priorities")
struct VocabularyTests {
    @Test("tokens are even-length hex of 32 to 100 bytes, either case")
    func tokens() throws {
        #expect(DeviceToken(hex: String(repeating: "ab", count: 32))?.bytes.count == 32)
        #expect(DeviceToken(hex: String(repeating: "AB", count: 100))?.bytes.count == 100)
        #expect(DeviceToken(hex: String(repeating: "ab", count: 31)) == nil)
        #expect(DeviceToken(hex: String(repeating: "ab", count: 101)) == nil)
        #expect(DeviceToken(hex: String(repeating: "a", count: 65)) == nil)
        #expect(DeviceToken(hex: String(repeating: "g0", count: 32)) == nil)
        let token = try #require(DeviceToken(hex: "00FF" + String(repeating: "10", count: 30)))
        #expect(token.bytes.prefix(2) == [0x00, 0xFF])
        #expect(token.hex == "00ff" + String(repeating: "10", count: 30))
        #expect(DeviceToken(hex: token.hex.uppercased()) == token)
    }

    @Test("apns-id must be a canonical UUID")
    func canonicalIDs() {
        #expect(APNsID.isCanonical("123e4567-e89b-12d3-a456-426614174000"))
        #expect(APNsID.isCanonical("123E4567-E89B-12D3-A456-426614174000"))
        #expect(!APNsID.isCanonical("123e4567e89b12d3a456426614174000"))
        #expect(!APNsID.isCanonical("123e4567-e89b-12d3-a456-42661417400"))
        #expect(!APNsID.isCanonical("123e4567-e89b-12d3-a456_426614174000"))
        #expect(!APNsID.isCanonical("g23e4567-e89b-12d3-a456-426614174000"))
    }

    @Test("generated ids are canonical version-4 UUIDs and do not repeat")
    func generatedIDs() {
        var generator = APNsIDGenerator()
        var seen = Set<String>()
        for _ in 0..<100_000 {
            let id = generator.uuid()
            #expect(APNsID.isCanonical(id))
            seen.insert(id)
        }
        #expect(seen.count == 100_000)
        let sample = generator.uuid()
        let characters = Array(sample)
        #expect(characters[14] == "4")
        #expect("89ab".contains(characters[19]))
        #expect(APNsID.isCanonical(APNsID.random()))
        // Two generators are seeded independently.
        var other = APNsIDGenerator()
        #expect(other.uuid() != generator.uuid())
    }

    @Test("push types, priorities and their limits")
    func pushTypesAndPriorities() {
        #expect(
            PushType.all.map(\.rawValue) == [
                "alert", "background", "location", "voip", "complication", "fileprovider", "mdm", "liveactivity",
                "pushtotalk", "widgets", "controls",
            ])
        #expect(PushType(rawValue: "Alert") == nil)
        #expect(PushType.voip.maximumPayloadSize == 5120)
        #expect(PushType.alert.maximumPayloadSize == 4096)
        #expect([1, 5, 10].allSatisfy { Priority(rawValue: $0) != nil })
        #expect([0, 2, 9, 11].allSatisfy { Priority(rawValue: $0) == nil })
    }
}
