import APNsAuth

/// What the Web Push service answers: a status, headers, and for a refusal Apple's
/// `{"reason": …}` body with the emulator's explanation in `apns-emulator-detail`.
struct WebPushAnswer: Sendable, Equatable {
    var status: Int
    var headers: [(String, String)] = []
    var body: [UInt8] = []
    /// A fault rule's: close the connection at once, answering nothing.
    var reset = false

    static func == (lhs: WebPushAnswer, rhs: WebPushAnswer) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body && lhs.reset == rhs.reset
            && lhs.headers.elementsEqual(rhs.headers, by: { $0 == $1 })
    }

    static func refused(_ refusal: WebPushRefusal) -> WebPushAnswer {
        var body = "{\"reason\":\"".utf8.map { $0 }
        body += refusal.reason.utf8
        body += "\"}".utf8
        let detail = String(refusal.explanation.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? Character($0) : "?" })
        return WebPushAnswer(
            status: refusal.status, headers: [("content-type", "application/json"), ("apns-emulator-detail", detail)], body: body)
    }
}
