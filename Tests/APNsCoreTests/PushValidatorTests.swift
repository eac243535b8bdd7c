import APNsCore
import Testing

@Suite("Push validation")
struct PushValidatorTests {
    static let token = String(repeating: "ab", count: 32)
    static let now: Int64 = 1_800_000_000_000

    func validate(_ request: PushRequest) -> Result<Notification, Rejection> {
        var counter = 0
        return PushValidator().validate(request, nowMillis: Self.now) {
            counter += 1
            return "00000000-0000-4000-8000-00000000000\(counter)"
        }
    }

    func request(_ change: (inout PushRequest) -> Void = { _ in }) -> PushRequest {
        var request = PushRequest(path: "/3/device/\(Self.token)", body: Array(#"{"aps":{"alert":"hi"}}"#.utf8))
        change(&request)
        return request
    }

    func reason(_ change: (inout PushRequest) -> Void) -> Reason? {
        if case .failure(let rejection) = self.validate(self.request(change)) { return rejection.reason }
        return nil
    }

    @Test("a minimal request becomes an alert at priority 10, stored by policy, with generated ids")
    func defaults() throws {
        let notification = try self.validate(self.request()).get()
        #expect(notification.pushType == .alert)
        #expect(notification.priority == .immediate)
        #expect(notification.expiration == nil)
        #expect(notification.topic == nil)
        #expect(notification.collapseID == nil)
        #expect(notification.apnsID == "00000000-0000-4000-8000-000000000001")
        #expect(notification.uniqueID == "00000000-0000-4000-8000-000000000002")
        #expect(notification.receivedAt == Self.now)
        #expect(notification.source == .http2)
        #expect(notification.token.hex == Self.token)
    }

    @Test("every header is carried into the notification")
    func headersCarried() throws {
        let notification = try self.validate(
            self.request {
                $0.apnsID = "123E4567-E89B-12D3-A456-426614174000"
                $0.pushType = "voip"
                $0.priority = "5"
                $0.expiration = "1900000000"
                $0.topic = "com.example.app.voip"
                $0.collapseID = String(repeating: "c", count: 64)
            }
        ).get()
        #expect(notification.apnsID == "123E4567-E89B-12D3-A456-426614174000")
        #expect(notification.pushType == .voip)
        #expect(notification.priority == .conservePower)
        #expect(notification.expiration == 1_900_000_000)
        #expect(notification.topic == "com.example.app.voip")
        #expect(notification.collapseID?.count == 64)
    }

    @Test("each fault gets its reason")
    func reasons() {
        #expect(self.reason { $0.method = "GET" } == .methodNotAllowed)
        #expect(self.reason { $0.method = nil } == .methodNotAllowed)
        #expect(self.reason { $0.path = nil } == .badPath)
        #expect(self.reason { $0.path = "/3/device" } == .badPath)
        #expect(self.reason { $0.path = "/3/device/" } == .missingDeviceToken)
        // More than one segment under /3/device/ is another path, not a bad token.
        #expect(self.reason { $0.path = "/3/device/\(Self.token)/x" } == .badPath)
        #expect(self.reason { $0.path = "/3/device/\(Self.token)?x=1" } == nil, "a query is not part of the token")
        #expect(self.reason { $0.hasDuplicateHeaders = true } == .duplicateHeaders)
        #expect(self.reason { $0.apnsID = "" } == .badMessageId)
        #expect(self.reason { $0.pushType = "" } == .invalidPushType)
        #expect(self.reason { $0.priority = "" } == .badPriority)
        #expect(self.reason { $0.priority = "100" } == .badPriority)
        #expect(self.reason { $0.priority = "300" } == .badPriority)
        #expect(self.reason { $0.expiration = "" } == .badExpirationDate)
        #expect(self.reason { $0.expiration = "+5" } == .badExpirationDate)
        #expect(self.reason { $0.expiration = "1.5" } == .badExpirationDate)
        #expect(self.reason { $0.expiration = "99999999999999999999" } == .badExpirationDate)
        #expect(self.reason { $0.authorization = "bearer abc" } == .missingTopic)
        #expect(
            self.reason {
                $0.authorization = "bearer abc"
                $0.topic = ""
            } == .missingTopic)
        #expect(self.reason { $0.topic = String(repeating: "t", count: 256) } == .badTopic)
        #expect(self.reason { $0.topic = "a\tb" } == .badTopic)
        #expect(self.reason { $0.collapseID = String(repeating: "é", count: 33) } == .badCollapseId)
        #expect(
            self.reason {
                $0.body = []
                $0.bodyLength = 0
            } == .payloadEmpty)
        #expect(
            self.reason {
                $0.body = Array("   ".utf8)
                $0.bodyLength = 3
            } == .payloadEmpty)
        #expect(
            self.reason {
                $0.body = Array("\"text\"".utf8)
                $0.bodyLength = 6
            } == .payloadEmpty)
        #expect(self.reason { $0.bodyLength = 4097 } == .payloadTooLarge)
        #expect(
            self.reason {
                $0.pushType = "voip"
                $0.bodyLength = 5121
            } == .payloadTooLarge)
    }

    @Test("background pushes at any priority are accepted (priority 10 gets a warning, not a 400)")
    func backgroundPriority() {
        // node-apn #241, parse-server #6106: APNs answers 200 and the device does not wake the app.
        #expect(self.reason { $0.pushType = "background" } == nil)
        #expect(
            self.reason {
                $0.pushType = "background"
                $0.priority = "10"
            } == nil)
        #expect(
            self.reason {
                $0.pushType = "background"
                $0.priority = "5"
            } == nil)
        #expect(
            self.reason {
                $0.pushType = "background"
                $0.priority = "1"
            } == nil)
    }

    @Test("a .voip topic takes only voip pushes: InvalidPushType otherwise (AndrewBarba/apns2 #23)")
    func voipTopic() {
        #expect(self.reason { $0.topic = "com.example.app.voip" } == .invalidPushType)
        #expect(
            self.reason {
                $0.topic = "com.example.app.voip"
                $0.pushType = "alert"
            } == .invalidPushType)
        #expect(
            self.reason {
                $0.topic = "com.example.app.voip"
                $0.pushType = "voip"
            } == nil)
        #expect(
            self.reason {
                $0.topic = "com.example.app.voip-ptt"
                $0.pushType = "pushtotalk"
            } == nil)
        #expect(
            self.reason {
                $0.topic = "com.example.app"
                $0.pushType = "voip"
            } == nil, "accepted, with a warning")
    }

    @Test("checks run in APNs' order: the first fault decides the reason")
    func order() {
        #expect(
            self.reason {
                $0.method = "PUT"
                $0.path = "/nope"
            } == .methodNotAllowed)
        #expect(
            self.reason {
                $0.path = "/3/device/zz"
                $0.hasDuplicateHeaders = true
            } == .badDeviceToken)
        #expect(
            self.reason {
                $0.hasDuplicateHeaders = true
                $0.apnsID = "x"
            } == .duplicateHeaders)
        #expect(
            self.reason {
                $0.apnsID = "x"
                $0.pushType = "x"
            } == .badMessageId)
        #expect(
            self.reason {
                $0.pushType = "x"
                $0.priority = "x"
            } == .invalidPushType)
        #expect(
            self.reason {
                $0.priority = "x"
                $0.expiration = "x"
            } == .badPriority)
        #expect(
            self.reason {
                $0.expiration = "x"
                $0.topic = " "
            } == .badExpirationDate)
        #expect(
            self.reason {
                $0.topic = " "
                $0.collapseID = String(repeating: "c", count: 65)
            } == .badTopic)
        #expect(
            self.reason {
                $0.collapseID = String(repeating: "c", count: 65)
                $0.bodyLength = 0
                $0.body = []
            } == .badCollapseId)
    }

    @Test("a rejection echoes a valid apns-id, or carries a generated one")
    func keptRequestIDs() {
        let echoed = self.validate(
            self.request {
                $0.apnsID = "123e4567-e89b-12d3-a456-426614174000"
                $0.priority = "3"
            })
        #expect((try? echoed.get()) == nil)
        if case .failure(let rejection) = echoed { #expect(rejection.apnsID == "123e4567-e89b-12d3-a456-426614174000") }
        if case .failure(let rejection) = self.validate(self.request { $0.apnsID = "bad" }) {
            #expect(APNsID.isCanonical(rejection.apnsID))
        } else {
            Issue.record("a malformed apns-id must be refused")
        }
    }

    @Test("a query string does not become part of the token")
    func queryIgnored() throws {
        let notification = try self.validate(self.request { $0.path = "/3/device/\(Self.token)?x=1" }).get()
        #expect(notification.token.hex == Self.token)
    }

    @Test("expiration: 0 and past are not storable, omitted is capped by the storage limit")
    func storability() throws {
        let now = Self.now / 1000
        let month: Int64 = 30 * 86_400
        var notification = try self.validate(self.request()).get()
        #expect(notification.isStorable(nowSeconds: now, maximumStorageSeconds: month))
        #expect(notification.effectiveExpiration(maximumStorageSeconds: month) == now + month)
        notification.expiration = 0
        #expect(!notification.isStorable(nowSeconds: now, maximumStorageSeconds: month))
        notification.expiration = now - 1
        #expect(!notification.isStorable(nowSeconds: now, maximumStorageSeconds: month))
        notification.expiration = now + 60
        #expect(notification.isStorable(nowSeconds: now, maximumStorageSeconds: month))
        notification.expiration = now + 2 * month
        #expect(notification.effectiveExpiration(maximumStorageSeconds: month) == now + month)
    }
}
