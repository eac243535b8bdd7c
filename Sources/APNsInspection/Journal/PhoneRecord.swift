import APNsCore
import APNsDevice

/// How the phone presented a notification and what the user did with it. Immutable: a change
/// makes a new record.
public final class PhoneRecord: Sendable {
    public let presentation: Presentation?
    public let response: UserResponse?

    public init(presentation: Presentation?, response: UserResponse?) {
        self.presentation = presentation
        self.response = response
    }
}
