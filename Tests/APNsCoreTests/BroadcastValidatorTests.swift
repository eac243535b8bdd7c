import APNsCore
import Testing

/// The broadcast vocabulary as pure functions: paths, channel ids, channel bodies, broadcasts.
/// Sources: Apple, "Sending channel management requests to APNs", "Sending broadcast push
/// notification requests to APNs", "Handling error responses from APNs".
@Suite("Broadcast requests")
struct BroadcastValidatorTests {
    @Test(
        "paths: the three routes, BadPath under their prefixes, TopicDisallowed for a push type's topic, nothing claimed elsewhere"
    )
    func routes() {
        #expect(
            BroadcastRoute.parse("/1/apps/com.example.app/channels")
                == .success(BroadcastRoute(kind: .channels, bundleID: "com.example.app")))
        #expect(
            BroadcastRoute.parse("/1/apps/com.example.app/all-channels")
                == .success(BroadcastRoute(kind: .allChannels, bundleID: "com.example.app")))
        #expect(
            BroadcastRoute.parse("/4/broadcasts/apps/com.example.app")
                == .success(BroadcastRoute(kind: .publish, bundleID: "com.example.app")))
        #expect(BroadcastRoute.parse("/1/apps/com.example.app/channel") == .failure(.badPath))
        #expect(BroadcastRoute.parse("/4/broadcasts/apps/com example") == .failure(.badPath))
        #expect(BroadcastRoute.parse("/1/apps/com.example.app.voip/channels") == .failure(.topicDisallowed))
        #expect(BroadcastRoute.claims("/3/device/abcd") == false && BroadcastRoute.claims("/1/apps/x/channels"))
    }

    @Test("channel ids: base64 with padding; missing and malformed ones have reasons of their own")
    func channelIDs() {
        #expect(ChannelID.validate("dHN0LXNyY2gtY2hubA==") == .success("dHN0LXNyY2gtY2hubA=="))
        #expect(ChannelID.validate(nil) == .failure(.missingChannelId))
        #expect(ChannelID.validate("dHN0LXNyY2gtY2hubA") == .failure(.badChannelId))
        #expect(ChannelID.validate("not base64!") == .failure(.badChannelId))
        var generator = SystemRandomNumberGenerator()
        let drawn = ChannelID.random(using: &generator)
        #expect(drawn.count == 24 && ChannelID.validate(drawn) == .success(drawn))
    }

    @Test(
        "a channel's body: both attributes, push type in any case, a string policy taken with a warning, anything else refused by name"
    )
    func configuration() {
        func parse(_ json: String) -> Result<(ChannelConfiguration, warnings: [String]), Rejection> {
            ChannelConfiguration.parse(Array(json.utf8))
        }
        #expect(
            (try? parse(#"{"message-storage-policy": 1, "push-type": "LiveActivity"}"#).get())?.0
                == ChannelConfiguration(storagePolicy: 1))
        let lenient = try? parse(#"{"message-storage-policy": "0", "push-type": "liveactivity"}"#).get()
        #expect(lenient?.0.storagePolicy == 0 && lenient?.warnings.count == 1)
        func reason(_ json: String) -> String? {
            if case .failure(let rejection) = parse(json) { return rejection.reason.wire } else { return nil }
        }
        #expect(reason(#"{"message-storage-policy": 1, "push-type": "LiveActivity", "x": 1}"#) == "BadRequestParams")
        #expect(reason(#"{"message-storage-policy": 3, "push-type": "LiveActivity"}"#) == "BadRequestParams")
        #expect(reason(#"{"push-type": "LiveActivity"}"#) == "BadRequestParams")
        #expect(reason(#"{"message-storage-policy": 1}"#) == "MissingPushType")
        #expect(reason(#"{"message-storage-policy": 1, "push-type": "alert"}"#) == "InvalidPushType")
        #expect(reason("[1]") == "BadRequestPayload")
        #expect(reason("") == "PayloadEmpty")
    }

    @Test("a broadcast needs its channel, push type, priority and expiration; policy 0 takes expiration 0 only")
    func publish() {
        func request(_ headers: [String: String], body: String = #"{"aps": {"event": "update"}}"#) -> PushRequest {
            var request = PushRequest(
                path: "/4/broadcasts/apps/a.b", pushType: headers["type"], expiration: headers["exp"], priority: headers["prio"],
                body: Array(body.utf8))
            request.channelID = headers["channel"]
            return request
        }
        let full = ["channel": "dHN0LXNyY2gtY2hubA==", "type": "LiveActivity", "exp": "0", "prio": "5"]
        #expect((try? BroadcastValidator.publish(request(full), requestID: "r").get())?.priority == .conservePower)
        func reason(_ headers: [String: String], body: String = #"{"aps": {}}"#) -> String? {
            if case .failure(let rejection) = BroadcastValidator.publish(request(headers, body: body), requestID: "r") {
                return rejection.reason.wire
            } else {
                return nil
            }
        }
        #expect(reason(full.filter { $0.key != "channel" }) == "MissingChannelId")
        #expect(reason(full.filter { $0.key != "type" }) == "MissingPushType")
        #expect(reason(full.merging(["type": "alert"]) { $1 }) == "InvalidPushType")
        #expect(reason(full.filter { $0.key != "prio" }) == "BadPriority")
        #expect(reason(full.merging(["exp": "soon"]) { $1 }) == "BadExpirationDate")
        #expect(reason(full, body: "") == "PayloadEmpty")
        #expect(reason(full, body: "{") == "BadRequestPayload")
        #expect(BroadcastValidator.expirationRefusal(60, policy: 0) == .badExpirationDate)
        #expect(
            BroadcastValidator.expirationRefusal(60, policy: 1) == nil
                && BroadcastValidator.expirationRefusal(0, policy: 0) == nil)
    }
}
