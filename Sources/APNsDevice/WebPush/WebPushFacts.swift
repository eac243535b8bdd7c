/// What the push service knew of a web push besides its body: passed on with it to the phone.
public struct WebPushFacts: Hashable, Sendable {
    public var vapidSubject: String?
    public var urgency: String?
    public var topic: String?

    public init(vapidSubject: String?, urgency: String?, topic: String?) {
        self.vapidSubject = vapidSubject
        self.urgency = urgency
        self.topic = topic
    }
}
