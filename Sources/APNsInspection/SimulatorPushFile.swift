import APNsCore
import Foundation

/// A journaled notification as an `.apns` file: the JSON `xcrun simctl push` reads, the payload
/// with the app's bundle id beside `aps` under `Simulator Target Bundle`.
public enum SimulatorPushFile {
    public static let bundleKey = "Simulator Target Bundle"

    /// The file's bytes; nil when the payload is not a JSON object (a rejected one may not be).
    public static func file(for entry: JournalEntry) -> [UInt8]? {
        let payload: [UInt8]
        switch entry.push {
        case .accepted(let notification): payload = notification.payload
        case .rejected(let rejected): payload = rejected.body
        case .broadcast(let record): payload = record.body
        }
        guard var object = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any] else { return nil }
        if let topic = entry.topic { object[Self.bundleKey] = topic }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else { return nil }
        return Array(data) + [0x0A]
    }
}
