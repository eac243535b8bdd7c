import APNsDevice
import APNsInspection

/// Why a phone operation said no, as every door says it: the status (400 a document or setting
/// that cannot be, 404 nothing by that name, 409 what the phone's state refuses) and the words.
/// The admin API answers it as is; the device protocol as a `refused` message with the same
/// status. An error the emulator could not help (the store failing) is `unavailable`: 503.
struct PhoneRefusal: Error, Equatable {
    var status: Int
    var message: String
    /// The emulator failed, not the caller (500, 503): a device session ends.
    var unavailable: Bool { self.status >= 500 }

    init(status: Int, _ message: String) {
        (self.status, self.message) = (status, message)
    }

    static func notFound(_ message: String) -> PhoneRefusal { PhoneRefusal(status: 404, message) }

    /// The one mapping of what the phone and the documents throw: a document that does not
    /// decode and a setting that cannot be are 400; a response not offered there and what the
    /// phone's state refuses (ActivityKit's refusals) are 409; anything else is the store's.
    init(_ error: any Error, saving what: String = "the change") {
        switch error {
        case let refusal as PhoneRefusal:
            self = refusal
        case let document as InspectionError:
            self.init(status: 400, document.message)
        case let model as DeviceModelError:
            let message =
                model.field.isEmpty || model.message.hasPrefix(model.field) ? model.message : "\(model.field): \(model.message)"
            self.init(status: model.code == .invalid ? 400 : 409, message)
        default:
            self.init(status: 503, "could not save \(what): \(error)")
        }
    }
}
