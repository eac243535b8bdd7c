import APNsDevice
import Foundation

/// What the phone made of a stored notification, as the store keeps it beside the notification's
/// record (``Journal/keepPhoneRecords(_:)``): its presentation and the user's response, as JSON.
enum PhoneRecordCodec {
    private struct Kept: Codable {
        var presentation: Presentation?
        var response: UserResponse?
    }

    static func encode(_ record: PhoneRecord) -> [UInt8]? {
        try? Array(JSONEncoder().encode(Kept(presentation: record.presentation, response: record.response)))
    }

    /// The record; nil for bytes this version cannot read.
    static func decode(_ bytes: [UInt8]) -> PhoneRecord? {
        guard let kept = try? JSONDecoder().decode(Kept.self, from: Data(bytes)) else { return nil }
        return PhoneRecord(presentation: kept.presentation, response: kept.response)
    }
}
