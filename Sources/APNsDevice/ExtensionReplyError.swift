/// Why an extension's reply could not be used (the original is shown instead).
public struct ExtensionReplyError: Error, Hashable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
