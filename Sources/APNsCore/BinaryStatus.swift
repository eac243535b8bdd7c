/// The status byte of a legacy binary error response (`8 · status · identifier`).
///
/// An open-enum struct like ``Reason``: every status Apple documents is a `static let` in the one
/// table below, with the meaning Apple gives it.
public struct BinaryStatus: Error, Hashable, Sendable, CustomStringConvertible {
    /// The byte on the wire.
    public let code: UInt8
    /// Apple's name for it.
    public let meaning: String

    public init(code: UInt8, meaning: String) {
        self.code = code
        self.meaning = meaning
    }

    public var description: String { "\(self.code) (\(self.meaning))" }
}

extension BinaryStatus {
    public static let noErrors = BinaryStatus(code: 0, meaning: "No errors encountered")
    public static let processingError = BinaryStatus(code: 1, meaning: "Processing error")
    public static let missingDeviceToken = BinaryStatus(code: 2, meaning: "Missing device token")
    public static let missingTopic = BinaryStatus(code: 3, meaning: "Missing topic")
    public static let missingPayload = BinaryStatus(code: 4, meaning: "Missing payload")
    public static let invalidTokenSize = BinaryStatus(code: 5, meaning: "Invalid token size")
    public static let invalidTopicSize = BinaryStatus(code: 6, meaning: "Invalid topic size")
    public static let invalidPayloadSize = BinaryStatus(code: 7, meaning: "Invalid payload size")
    public static let invalidToken = BinaryStatus(code: 8, meaning: "Invalid token")
    public static let shutdown = BinaryStatus(code: 10, meaning: "Shutdown")
    public static let protocolError = BinaryStatus(code: 128, meaning: "Protocol error")
    public static let unknown = BinaryStatus(code: 255, meaning: "None (unknown)")

    /// Every status, in code order.
    public static let all: [BinaryStatus] = [
        .noErrors, .processingError, .missingDeviceToken, .missingTopic, .missingPayload, .invalidTokenSize,
        .invalidTopicSize, .invalidPayloadSize, .invalidToken, .shutdown, .protocolError, .unknown,
    ]

    /// The status with this byte; `nil` for a byte Apple never documented.
    public init?(code: UInt8) {
        guard let found = Self.all.first(where: { $0.code == code }) else { return nil }
        self = found
    }
}
