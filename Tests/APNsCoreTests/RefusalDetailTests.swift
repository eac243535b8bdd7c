import APNsCore
import Testing

/// Issue 70: a refusal's detail gives the request's own figures first (what it sent, how long),
/// then what APNs takes; the reason and its status stay Apple's (Apple, "Handling notification
/// responses from APNs", the table of reasons).
@Suite("Refusal details")
struct RefusalDetailTests {
    static func detail(_ change: (inout PushRequest) -> Void) -> (String, String?) {
        var request = PushRequest(path: "/3/device/" + String(repeating: "ab", count: 32))
        request.topic = "com.example.app"
        request.body = Array(#"{"aps":{"alert":"hi"}}"#.utf8)
        request.bodyLength = request.body.count
        change(&request)
        switch PushValidator().validate(request, nowMillis: 0) {
        case .success: return ("accepted", nil)
        case .failure(let rejection): return (rejection.reason.wire, rejection.detail)
        }
    }

    @Test("each header's refusal quotes the value sent and names what APNs takes")
    func headers() {
        #expect(Self.detail { $0.method = "GET" } == ("MethodNotAllowed", #"the method was "GET"; APNs takes POST only"#))
        #expect(
            Self.detail { $0.path = "/3/devices/abc" }
                == ("BadPath", #"the path was "/3/devices/abc"; APNs takes POST /3/device/<device token>"#))
        #expect(
            Self.detail { $0.pushType = "alerts" }
                == (
                    "InvalidPushType",
                    #"apns-push-type was "alerts" (did you mean alert?); APNs takes "#
                        + PushType.all.map(\.rawValue).joined(separator: ", ")
                ))
        #expect(Self.detail { $0.priority = "7" }.1?.hasPrefix(#"apns-priority was "7"; APNs takes 10 (now)"#) == true)
        #expect(
            Self.detail { $0.expiration = "tomorrow" }.1?.hasPrefix(#"apns-expiration was "tomorrow"; APNs takes UNIX seconds"#)
                == true)
        #expect(Self.detail { $0.topic = "com example" }.1?.hasPrefix(#"apns-topic "com example" holds a space"#) == true)
        #expect(
            Self.detail { $0.topic = String(repeating: "a", count: 300) }
                == ("BadTopic", "apns-topic is 300 bytes; the longest taken is 255"))
        #expect(
            Self.detail { $0.collapseID = String(repeating: "c", count: 70) }
                == ("BadCollapseId", "apns-collapse-id is 70 bytes; the limit is 64"))
        #expect(Self.detail { $0.pushType = "alerts" }.1?.contains("did you mean alert?") == true)
        #expect(Self.detail { $0.pushType = "zzzzzzzzzzzz" }.1?.contains("did you mean") == false)
    }

    @Test("an empty body and a missing topic with a provider token say so; a long value is cut at 40 characters")
    func bodyAndTopic() {
        #expect(
            Self.detail {
                $0.body = []
                $0.bodyLength = 0
            }.1?.hasPrefix("the body is empty (0 bytes)") == true)
        #expect(
            Self.detail {
                $0.topic = nil
                $0.authorization = "bearer x"
            }.0 == "MissingTopic")
        let long = Self.detail { $0.priority = String(repeating: "9", count: 60) }.1 ?? ""
        #expect(long.contains("\"" + String(repeating: "9", count: 40) + "…\""), "\(long)")
    }
}
