import APNsCore
import Testing

@Suite("Reason table")
struct ReasonTests {
    /// APNS-REFERENCE.md §1, "Responses", as a provider reads it.
    static let reference: [Int: [String]] = [
        400: [
            "BadCollapseId", "BadDeviceToken", "BadExpirationDate", "BadMessageId", "BadPriority", "BadTopic",
            "DeviceTokenNotForTopic", "DuplicateHeaders", "IdleTimeout", "InvalidPushType", "MissingDeviceToken",
            "MissingTopic", "PayloadEmpty", "TopicDisallowed",
        ],
        403: [
            "BadCertificate", "BadCertificateEnvironment", "ExpiredProviderToken", "Forbidden", "InvalidProviderToken",
            "MissingProviderToken", "UnrelatedKeyIdInToken", "BadEnvironmentKeyInToken",
        ],
        404: ["BadPath"],
        405: ["MethodNotAllowed"],
        410: ["Unregistered", "ExpiredToken"],
        413: ["PayloadTooLarge"],
        429: ["TooManyProviderTokenUpdates", "TooManyRequests"],
        500: ["InternalServerError"],
        503: ["ServiceUnavailable", "Shutdown"],
    ]

    @Test("every documented reason is in the table with its status, once")
    func matchesReference() {
        let expected = Self.reference.flatMap { status, wires in wires.map { Reason(wire: $0, status: status) } }
        #expect(Set(Reason.all) == Set(expected))
        #expect(Reason.all.count == expected.count)
        #expect(Set(Reason.all.map(\.wire)).count == Reason.all.count)
    }

    @Test("a wire string finds its reason; an unknown one finds none")
    func lookup() {
        #expect(Reason(wire: "PayloadTooLarge") == .payloadTooLarge)
        #expect(Reason(wire: "PayloadTooLarge")?.status == 413)
        #expect(Reason(wire: "payloadtoolarge") == nil)
    }
}
