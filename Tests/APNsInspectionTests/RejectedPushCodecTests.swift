import APNsCore
import Testing

@testable import APNsInspection

/// The record a refusal is kept as across restarts reads back as it was written.
@Suite("Rejected requests as the store keeps them")
struct RejectedPushCodecTests {
    @Test("every field and the fault mark come back; a record of another version or cut short is not read")
    func roundTrip() throws {
        var push = RejectedPush(
            connectionOn: .binary, port: 2195, id: "01a21c61-21ec-767a-a3ef-494541a0fd46", statusByte: 8, sent: [0, 1, 2, 255],
            detail: "the token is not registered for the certificate's topic", receivedAt: 1_800_000_000_123)
        (push.apnsID, push.token, push.topic, push.pushType) = (
            "A-B", "ab" + String(repeating: "0", count: 62), "com.example.é", "alert"
        )
        (push.priority, push.expiration, push.collapseID, push.reason) = ("5", "0", "", "BadDeviceToken")
        (push.httpStatus, push.path, push.environment) = (400, "/3/device/x", .production)
        let fault = FaultMark(ruleID: "fault-3", action: "respond")
        let record = RejectedPushCodec.encode(push, fault: fault)
        let (read, readFault) = try #require(RejectedPushCodec.decode(record))
        #expect(readFault == fault)
        #expect(read.id == push.id && read.apnsID == push.apnsID && read.token == push.token && read.topic == push.topic)
        #expect(read.pushType == push.pushType && read.priority == push.priority && read.expiration == push.expiration)
        #expect(read.collapseID == "" && read.body == push.body && read.receivedAt == push.receivedAt && read.source == .binary)
        #expect(read.reason == push.reason && read.httpStatus == 400 && read.statusByte == 8 && read.detail == push.detail)
        #expect(read.path == push.path && read.port == 2195 && read.environment == .production)

        // A record written before environments (18 fields, no trailing environment) reads as having none.
        push.environment = nil
        let older = Array(RejectedPushCodec.encode(push, fault: fault).dropLast())
        let (readOlder, _) = try #require(RejectedPushCodec.decode(older))
        #expect(readOlder.environment == nil && readOlder.body == push.body && readOlder.detail == push.detail)

        let bare = RejectedPush(webPushTo: "", topic: nil, path: "/push/x", id: "i", body: [], receivedAt: -5)
        let (readBare, noFault) = try #require(RejectedPushCodec.decode(RejectedPushCodec.encode(bare, fault: nil)))
        #expect(
            noFault == nil && readBare.topic == nil && readBare.detail == nil && readBare.receivedAt == -5
                && readBare.source == .webPush)

        #expect(RejectedPushCodec.decode([2] + record.dropFirst()) == nil, "another version")
        #expect(RejectedPushCodec.decode(Array(record.dropLast(3))) == nil, "cut short")
    }
}
