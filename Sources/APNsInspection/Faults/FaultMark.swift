/// A fault rule that shaped a provider's answer.
public struct FaultMark: Sendable, Equatable {
    public var ruleID: String
    public var action: String

    public init(ruleID: String, action: String) {
        self.ruleID = ruleID
        self.action = action
    }
}
