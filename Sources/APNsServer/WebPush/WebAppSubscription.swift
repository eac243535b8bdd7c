import APNsCore

/// A web app's subscription as the push service sees it: where its pushes queue and what a
/// push must be signed with.
struct WebAppSubscription: Sendable, Equatable {
    var id: String
    var token: DeviceToken
    var origin: String
    /// The application server key it was made with (65 bytes).
    var applicationServerKey: [UInt8]
    /// Why it no longer takes pushes; nil while it does.
    var ended: String?
}
