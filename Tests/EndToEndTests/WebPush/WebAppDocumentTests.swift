import APNsAuth
import APNsDeviceClient
import APNsTestSupport
import Crypto
import Foundation
import Testing

/// Each door reads its own bytes into the web app actions' documents (issue 71: operations take
/// decoded values; the doors decode and say the refusal in their own status): a document that
/// does not decode is refused at the admin API with 400 and over the device protocol as declined
/// 400, in the same words, naming the field, and nothing changes on the phone.
@Suite("Web app and activity documents, read by each door")
struct WebAppDocumentTests {
    /// A subscription whose permission is not one of granted, denied or default (its key is a real one).
    static let badPermission =
        #"{"origin": "https://app.example", "kind": "homeScreen", "permission": "maybe", "applicationServerKey": "\#(key)"}"#
    static let key = Base64URL.encode(Array(P256.Signing.PrivateKey().publicKey.x963Representation))

    /// What the device protocol's refusal says, or nil if the request was taken.
    static func declined(_ body: () async throws -> Void) async -> DeviceClientError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? DeviceClientError
        }
    }

    @Test(
        "subscribe and permission with a value that is not one: 400 at the admin API, declined 400 on the device, the same words")
    func badDocuments() async throws {
        let emulator = try await RunningEmulator.start()
        let created = try await emulator.adminObject(
            "/api/v1/devices", method: "POST", body: #"{"topic": "com.example.browser"}"#, status: 201)
        let host = try #require(created["token"] as? String)
        let admin = try await emulator.adminObject(
            "/api/v1/devices/\(host)/web-apps", method: "POST", body: Self.badPermission, status: 400)
        let adminWords = try #require(admin["error"] as? String ?? admin["message"] as? String, "\(admin)")
        #expect(adminWords.contains("permission"), "\(admin)")
        let none = try await emulator.admin("/api/v1/devices/\(host)/web-apps")
        let listedByAdmin = try none.json() as? [Any]
        #expect(none.status == 200 && listedByAdmin?.isEmpty == true, "nothing subscribed")

        let device = try await emulator.device()
        let refused = await Self.declined { _ = try await device.webApp("subscribe", document: Self.badPermission) }
        let deviceError = try #require(refused, "the device's subscribe was taken")
        #expect(deviceError.code == .declined && deviceError.message.hasPrefix("400: "), "\(deviceError)")
        #expect(deviceError.message == "400: " + adminWords, "the same words at both doors")
        #expect(try await device.webApp("list") == "[]")

        // An action's own document on an existing web app: the permission, by each door.
        let subscribed = try await device.webApp(
            "subscribe", document: Self.badPermission.replacingOccurrences(of: "maybe", with: "granted"))
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(subscribed.utf8)) as? [String: Any])?["id"] as? String)
        let change = await Self.declined {
            _ = try await device.webApp("permission", document: #"{"id": "\#(id)", "permission": "sometimes"}"#)
        }
        #expect(change?.code == .declined && change?.message.contains("permission") == true, "\(String(describing: change))")
        let listed = try await device.webApp("list")
        #expect(listed.contains(#""permission":"granted""#), "unchanged: \(listed)")
        try await device.close()
        try await emulator.stop()
    }

    @Test("declaring Live Activity types with a document that does not decode is declined 400, naming what is wrong")
    func badActivityTypes() async throws {
        let emulator = try await RunningEmulator.start()
        let device = try await emulator.device()
        _ = try await device.register(topic: "com.example.delivery")
        let refused = await Self.declined {
            _ = try await device.declareActivityTypes(
                topic: "com.example.delivery", document: Array(#"{"Delivery": {"attributes": 5}}"#.utf8))
        }
        let error = try #require(refused, "the declaration was taken")
        #expect(error.code == .declined && error.message.hasPrefix("400: ") && error.message.contains("attributes"), "\(error)")
        try await device.close()
        try await emulator.stop()
    }

    @Test(
        "starting or ending a Live Activity with a document that does not decode: 400 at the admin API, declined 400 on the device, the same words, nothing changed"
    )
    func badActivityRequests() async throws {
        let emulator = try await RunningEmulator.start()
        let device = try await emulator.device()
        let topic = "com.example.delivery"
        let token = try await device.register(topic: topic).hex
        _ = try await device.declareActivityTypes(
            topic: topic,
            document: Array(#"{"Delivery": {"attributes": {"order": "int"}, "contentState": {"status": "string"}}}"#.utf8))

        // The request's own fields are read by the door: attributes-type must be text.
        let badStart = #"{"attributes-type": 7, "attributes": {"order": 1}, "content-state": {"status": "new"}}"#
        let admin = try await emulator.adminObject(
            "/api/v1/devices/\(token)/activities", method: "POST", body: badStart, status: 400)
        let adminWords = try #require(admin["error"] as? String ?? admin["message"] as? String, "\(admin)")
        #expect(adminWords.contains("attributes-type"), "\(admin)")
        let refused = await Self.declined { _ = try await device.startActivity(topic: topic, document: Array(badStart.utf8)) }
        let startError = try #require(refused, "the device's start was taken")
        #expect(startError.code == .declined && startError.message == "400: " + adminWords, "the same words: \(startError)")
        #expect(try await device.activities(topic: topic).isEmpty, "nothing started")

        // An activity that runs, then an end whose dismissal policy is not text.
        let started = try await device.startActivity(
            topic: topic,
            document: Array(
                #"{"attributes-type": "Delivery", "attributes": {"order": 1}, "content-state": {"status": "new"}}"#.utf8))
        let badEnd = #"{"dismissalPolicy": 5}"#
        let adminEnd = try await emulator.adminObject(
            "/api/v1/activities/\(started.id)/end", method: "POST", body: badEnd, status: 400)
        let endWords = try #require(adminEnd["error"] as? String ?? adminEnd["message"] as? String, "\(adminEnd)")
        #expect(endWords.contains("dismissalPolicy"), "\(adminEnd)")
        let ended = await Self.declined {
            _ = try await device.endActivity(topic: topic, id: started.id, document: Array(badEnd.utf8))
        }
        let endError = try #require(ended, "the device's end was taken")
        #expect(endError.code == .declined && endError.message == "400: " + endWords, "the same words: \(endError)")
        #expect(try await device.activities(topic: topic).map(\.activityState) == ["active"], "still running")
        try await device.close()
        try await emulator.stop()
    }
}
