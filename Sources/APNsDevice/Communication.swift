import APNsCore

/// A communication notification (iOS 15): the service extension donated an `INSendMessageIntent`
/// and updated the content from it, so the notification shows who sent it (name and avatar) and
/// the conversation. Sources: Apple, "Implementing communication notifications" (the
/// Communication Notifications capability; prominent avatars and group names; they "can also
/// break through a Focus"), `INSendMessageIntent`, `INPerson`.
public struct Communication: Hashable, Sendable, Codable {
    public struct Sender: Hashable, Sendable, Codable {
        public var displayName: String
        /// The person's handle (`INPersonHandle`: a phone number, an email, an account): what a
        /// Focus's allowed people name.
        public var handle: String
        /// The avatar (`INImage`): a `file://` URL or a path.
        public var image: String?
    }

    public var sender: Sender
    public var conversationIdentifier: String?
    /// A group conversation's name (`speakableGroupName`).
    public var groupName: String?

    /// `{"sender": {"displayName", "handle", "image"?}, "conversationIdentifier"?, "groupName"?}`.
    static func parse(_ value: JSONValue) -> Result<Communication, ExtensionReplyError> {
        let sender = value["sender"]
        guard let name = sender?["displayName"]?.string, !name.isEmpty, let handle = sender?["handle"]?.string, !handle.isEmpty
        else {
            return .failure(
                ExtensionReplyError("communication needs a sender with a displayName and a handle (INSendMessageIntent's sender)")
            )
        }
        return .success(
            Communication(
                sender: Sender(displayName: name, handle: handle, image: sender?["image"]?.string),
                conversationIdentifier: value["conversationIdentifier"]?.string, groupName: value["groupName"]?.string))
    }
}
