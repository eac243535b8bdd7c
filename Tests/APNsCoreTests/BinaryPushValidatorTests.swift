import APNsCore
import Testing

@Suite("Binary push validation")
struct BinaryPushValidatorTests {
    static let token: [UInt8] = Array(repeating: 0xAB, count: 32)
    static let payload: [UInt8] = Array(#"{"aps":{"alert":"hi"}}"#.utf8)

    func status(_ request: BinaryPushRequest, topic: String? = nil) -> BinaryStatus? {
        switch BinaryPushValidator().validate(request, topic: topic, nowMillis: 1_000) {
        case .success: return nil
        case .failure(let rejection):
            #expect(rejection.identifier == request.identifier)
            return rejection.status
        }
    }

    func request(token: [UInt8] = token, payload: [UInt8] = payload, priority: UInt8? = nil) -> BinaryPushRequest {
        BinaryPushRequest(command: 2, identifier: 42, expiry: nil, token: token, payload: payload, priority: priority)
    }

    @Test("each fault gets the status APNs documents")
    func statuses() {
        #expect(self.status(self.request(token: [])) == .missingDeviceToken)
        #expect(self.status(self.request(token: Array(repeating: 1, count: 31))) == .invalidTokenSize)
        #expect(self.status(self.request(token: Array(repeating: 1, count: 64))) == .invalidTokenSize)
        #expect(self.status(self.request(), topic: "") == .missingTopic)
        #expect(self.status(self.request(), topic: String(repeating: "a", count: 256)) == .invalidTopicSize)
        #expect(self.status(self.request(payload: [])) == .missingPayload)
        #expect(self.status(self.request(payload: Array(#"["not an object"]"#.utf8))) == .missingPayload)
        #expect(self.status(self.request(payload: Array(repeating: 0x20, count: 2049))) == .invalidPayloadSize)
        #expect(self.status(self.request(priority: 1)) == .protocolError)
        #expect(self.status(self.request(priority: 0)) == .protocolError)
    }

    @Test("the token is checked before the payload, the payload's size before its content")
    func order() {
        #expect(self.status(self.request(token: [1], payload: [])) == .invalidTokenSize)
        #expect(self.status(self.request(payload: Array(repeating: 0x7B, count: 2049))) == .invalidPayloadSize)
    }

    @Test("a good notification keeps its fields; priority 10 and no expiry are the defaults")
    func accepted() throws {
        let payload = Array(("{\"a\":\"" + String(repeating: "x", count: 2048 - 8) + "\"}").utf8)
        #expect(payload.count == 2048)
        var ids = 0
        let result = BinaryPushValidator().validate(
            BinaryPushRequest(command: 1, identifier: 9, expiry: 1_900_000_000, token: Self.token, payload: payload),
            topic: "com.example.app", nowMillis: 5_000,
            generateID: {
                ids += 1
                return "id-\(ids)"
            }
        )
        let notification = try result.get()
        #expect(notification.token.bytes == Self.token)
        #expect(notification.payload == payload)
        #expect(notification.expiration == 1_900_000_000)
        #expect(notification.priority == .immediate)
        #expect(notification.topic == "com.example.app")
        #expect(notification.source == .binary)
        #expect(notification.receivedAt == 5_000)
        #expect(notification.apnsID == "id-1" && notification.uniqueID == "id-2")

        let simple = try BinaryPushValidator().validate(
            BinaryPushRequest(command: 0, token: Self.token, payload: Self.payload), topic: nil, nowMillis: 0
        ).get()
        #expect(simple.expiration == nil)
        #expect(simple.topic == nil)
        let low = try BinaryPushValidator().validate(self.request(priority: 5), topic: nil, nowMillis: 0).get()
        #expect(low.priority == .conservePower)
    }

    @Test("every status code maps back to its status")
    func table() {
        #expect(BinaryStatus.all.map(\.code) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 128, 255])
        for status in BinaryStatus.all { #expect(BinaryStatus(code: status.code) == status) }
        #expect(BinaryStatus(code: 9) == nil)
    }
}
