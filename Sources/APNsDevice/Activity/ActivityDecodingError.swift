import APNsCore
import Foundation

/// Why a content state or attributes did not decode: the decoder error's kind (`keyNotFound`,
/// `typeMismatch`, `valueNotFound`, `dataCorrupted`), where, and its own message.
public struct ActivityDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var kind: String
    /// The field's path inside the payload (`aps.content-state.eta`).
    public var path: String
    public var message: String

    public init(kind: String, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    init(_ error: DecodingError, member: String) {
        let (kind, context): (String, DecodingError.Context?) =
            switch error {
            case .keyNotFound(_, let context): ("keyNotFound", context)
            case .typeMismatch(_, let context): ("typeMismatch", context)
            case .valueNotFound(_, let context): ("valueNotFound", context)
            case .dataCorrupted(let context): ("dataCorrupted", context)
            @unknown default: ("dataCorrupted", nil)
            }
        var path = (context?.codingPath ?? []).fieldPath
        if case .keyNotFound(let key, _) = error { path += path.isEmpty ? key.stringValue : "." + key.stringValue }
        // A number too large for its type is reported without a path; the member at least is known.
        if path.isEmpty { path = member }
        self.init(kind: kind, path: path, message: context?.debugDescription ?? "\(error)")
    }

    public var description: String { "\(self.kind) at \(self.path): \(self.message)" }
}
