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
        guard case .object(var members)? = JSONValue.parse(payload) else { return nil }
        if let topic = entry.topic { members[Self.bundleKey] = .string(topic) }
        return JSONValue.object(members).prettyPrinted + [0x0A]
    }
}
