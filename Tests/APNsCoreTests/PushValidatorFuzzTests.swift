import APNsCore
import APNsTestSupport
import Testing

/// Generated provider requests, each field drawn from valid values, near misses and noise, through
/// the validator (issue 71: push-header validation was not fuzzed). Whatever arrives: no crash;
/// the same answer twice; a refusal is one of Apple's reasons, carries the provider's `apns-id`
/// when it was canonical, and the method is judged first; an acceptance holds only what APNs
/// takes (POST, `/3/device/<hex>` naming its token, a JSON object within its push type's limit,
/// priority 10, 5 or 1, a collapse id of at most 64 bytes, the body as sent).
@Suite("Fuzzing: push headers and payloads")
struct PushValidatorFuzzTests {
    static let now: Int64 = 1_800_000_000_000
    static let cases = 4000

    @Test(
        "generated requests: a specific refusal or an acceptance of what APNs takes",
        arguments: SeededGenerator.seeds(fixed: 0x9E11_7A1D))
    func requests(seed: UInt64) {
        var random = SeededGenerator(state: seed)
        var (accepted, refused) = (0, 0)
        for index in 0..<Self.cases {
            let request = Self.request(&random)
            let first = Self.validate(request)
            let second = Self.validate(request)
            let context = "case \(index) of seed \(String(seed, radix: 16))"
            switch (first, second) {
            case (.success(let notification), .success(let again)):
                accepted += 1
                #expect(notification.token == again.token && notification.pushType == again.pushType, "\(context)")
                Self.checkAccepted(notification, request, context)
            case (.failure(let rejection), .failure(let again)):
                refused += 1
                #expect(rejection.reason == again.reason, "\(context)")
                Self.checkRefused(rejection, request, context)
            default:
                Issue.record("\(context): the same request was answered two ways")
            }
        }
        // Both sides are exercised, or the checks above say little.
        #expect(accepted > Self.cases / 10 && refused > Self.cases / 4, "accepted \(accepted), refused \(refused)")
    }

    static func validate(_ request: PushRequest) -> Result<Notification, Rejection> {
        var counter = 0
        return PushValidator().validate(request, nowMillis: Self.now) {
            counter += 1
            return "00000000-0000-4000-8000-\(String(repeating: "0", count: 11))\(counter % 10)"
        }
    }

    static func checkAccepted(_ notification: Notification, _ request: PushRequest, _ context: String) {
        #expect(request.method == "POST", "\(context)")
        #expect(!request.hasDuplicateHeaders, "\(context)")
        #expect(request.path?.lowercased() == "/3/device/\(notification.token.hex)", "\(context): \(request.path ?? "nil")")
        #expect(notification.payload == request.body, "\(context)")
        #expect(request.body.count <= notification.pushType.maximumPayloadSize, "\(context)")
        if case .object = JSONValue.parse(request.body) {
        } else {
            Issue.record("\(context): accepted a body that is not a JSON object")
        }
        #expect([1, 5, 10].contains(notification.priority.rawValue), "\(context)")
        #expect((notification.collapseID?.utf8.count ?? 0) <= PushValidator.maximumCollapseIDLength, "\(context)")
        if let apnsID = request.apnsID { #expect(notification.apnsID == apnsID, "\(context)") }
    }

    static func checkRefused(_ rejection: Rejection, _ request: PushRequest, _ context: String) {
        #expect(Reason.all.contains(rejection.reason), "\(context): \(rejection.reason.wire) is not one of Apple's reasons")
        #expect([400, 403, 404, 405, 410, 413].contains(rejection.reason.status), "\(context)")
        if request.method != "POST" { #expect(rejection.reason == .methodNotAllowed, "\(context)") }
        if let apnsID = request.apnsID, APNsID.isCanonical(apnsID) { #expect(rejection.apnsID == apnsID, "\(context)") }
        #expect(APNsID.isCanonical(rejection.apnsID), "\(context): the answer's apns-id \(rejection.apnsID)")
    }

    /// One request: each field one of valid values, near misses, or noise.
    static func request(_ random: inout SeededGenerator) -> PushRequest {
        let hex = Self.hex(32, &random)
        let paths: [String?] = [
            "/3/device/\(hex)", "/3/device/\(hex)", "/3/device/\(hex.uppercased())", "/3/device/\(Self.hex(100, &random))",
            "/3/device/\(hex.dropLast())", "/3/device/", "/3/device/xyz", "/3/devices/\(hex)", nil, Self.noise(&random),
        ]
        let pushTypes: [String?] = [nil, nil] + PushType.all.map(\.rawValue) + ["Alert", "alerts", "", Self.noise(&random)]
        let ids: [String?] = [
            nil, nil, "123e4567-e89b-42d3-a456-426614174000", "123E4567-E89B-42D3-A456-426614174000", "nope", "",
        ]
        let expirations: [String?] = [nil, nil, "0", String(Self.now / 1000 + 3600), "-1", "abc", "99999999999999999999", ""]
        let priorities: [String?] = [nil, nil, "10", "5", "1", "7", "", "x"]
        let topics: [String?] = [
            nil, "com.example.app", "com.example.app.voip", "com.example.app.push-type.liveactivity", "",
            String(repeating: "t", count: 300), Self.noise(&random),
        ]
        let collapses: [String?] = [nil, nil, "c", String(repeating: "c", count: 64), String(repeating: "c", count: 65), ""]
        let bodies: [[UInt8]] = [
            Array(#"{"aps":{"alert":"hello"}}"#.utf8), Array(#"{"aps":{"content-available":1}}"#.utf8),
            Array(#"{"aps":{"alert":"hi"},"extra":[1,2,{"a":null}]}"#.utf8), [], Array("[]".utf8), Array("{".utf8),
            Array(("{\"aps\":{\"alert\":\"" + String(repeating: "x", count: 4090) + "\"}}").utf8),
            (0..<Int.random(in: 1...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) },
        ]
        // Each field is its first (valid) value three times in four, so that whole requests pass too.
        func pick<T>(_ values: [T]) -> T {
            Int.random(in: 0..<4, using: &random) == 0 ? values[Int.random(in: 0..<values.count, using: &random)] : values[0]
        }
        var request = PushRequest(
            method: pick(["POST", "GET", "PUT", "post", nil]), path: pick(paths), pushType: pick(pushTypes), apnsID: pick(ids),
            expiration: pick(expirations), priority: pick(priorities), topic: pick(topics), collapseID: pick(collapses),
            hasDuplicateHeaders: Int.random(in: 0..<20, using: &random) == 0, body: pick(bodies))
        request.authorization = Bool.random(using: &random) ? nil : "bearer \(Self.noise(&random))"
        return request
    }

    static func hex(_ bytes: Int, _ random: inout SeededGenerator) -> String {
        let digits = Array("0123456789abcdef")
        return String((0..<(bytes * 2)).map { _ in digits[Int.random(in: 0..<16, using: &random)] })
    }

    /// Printable and not: letters, digits, punctuation, a space, non-ASCII.
    static func noise(_ random: inout SeededGenerator) -> String {
        let alphabet = Array("aZ09./-_ :%é😀\u{7f}")
        return String(
            (0..<Int.random(in: 0...24, using: &random)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }
        )
    }
}
