import APNsCore

/// An admin API answer, as ``TestEmulator`` reads it.
struct AdminAnswer: Sendable {
    var status: Int
    var body: [UInt8]

    var text: String { String(decoding: self.body, as: UTF8.self) }

    /// The body parsed as JSON.
    func json() throws -> Any {
        guard let object = JSONValue.foundationObject(self.body) else {
            throw TestEmulatorError(
                message: "the admin API answered \(self.status) with a body that is not JSON: \(self.text.prefix(200))")
        }
        return object
    }
}
