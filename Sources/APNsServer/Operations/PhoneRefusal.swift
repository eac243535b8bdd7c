import APNsDevice
import APNsInspection

/// Why a phone operation said no, in the phone's terms: a document or setting that cannot be
/// (`invalid`), nothing by that name (`notFound`), what the phone's state refuses (`conflict`),
/// or the emulator failing (`failedReading`, `failedSaving`: the store). Each door says it in its
/// own words: the admin API as 400, 404, 409, 500 or 503 (`AdminError.init(_:)`),
/// the device protocol as a `refused` message with the same status or, for a failure, the
/// session's end.
struct PhoneRefusal: Error, Equatable {
    enum Kind: Equatable {
        case invalid
        case notFound
        case conflict
        case failedReading
        case failedSaving
    }

    var kind: Kind
    var message: String
    /// The emulator failed, not the caller: a device session ends.
    var unavailable: Bool { self.kind == .failedReading || self.kind == .failedSaving }

    init(_ kind: Kind, _ message: String) {
        (self.kind, self.message) = (kind, message)
    }

    static func notFound(_ message: String) -> PhoneRefusal { PhoneRefusal(.notFound, message) }

    /// A door's document read as `type`: a document that does not decode is an invalid refusal
    /// that names the field, or shows `example` when the body is not such an object.
    static func reading<T: Decodable>(_ type: T.Type, from document: [UInt8], example: String) throws(PhoneRefusal) -> T {
        do {
            return try RequestDocument.decode(type, from: document, example: example)
        } catch {
            throw PhoneRefusal(error)
        }
    }

    /// The one mapping of what the phone and the documents throw: a document that does not
    /// decode and a setting that cannot be are invalid; a response not offered there and what
    /// the phone's state refuses (ActivityKit's refusals) are conflicts; anything else is the store's.
    init(_ error: any Error, saving what: String = "the change") {
        switch error {
        case let refusal as PhoneRefusal:
            self = refusal
        case let document as InspectionError:
            self.init(.invalid, document.message)
        case let model as DeviceModelError:
            let message =
                model.field.isEmpty || model.message.hasPrefix(model.field) ? model.message : "\(model.field): \(model.message)"
            self.init(model.code == .invalid ? .invalid : .conflict, message)
        default:
            self.init(.failedSaving, "could not save \(what): \(error)")
        }
    }
}
