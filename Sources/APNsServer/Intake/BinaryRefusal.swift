import APNsCore
import APNsInspection

/// A binary notification's refusal: its status byte, and the journal's record of it, filed when
/// the gateway's error response names it (after everything before it committed), as the provider
/// learns of it.
struct BinaryRefusal: Error {
    var status: BinaryStatus
    var record: RejectedPush
    var fault: FaultMark?
}
