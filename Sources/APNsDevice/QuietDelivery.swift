/// Why a notification is delivered quietly (Notification Center only, no banner or sound), and
/// what held it: `provisional`, `focus`, or nothing for a passive interruption level.
struct QuietDelivery: Hashable, Sendable {
    var reason: String
    var heldBy: String?

    init(reason: String, heldBy: String? = nil) {
        (self.reason, self.heldBy) = (reason, heldBy)
    }
}
