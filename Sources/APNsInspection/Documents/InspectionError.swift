import APNsCore

/// The one error type of the inspection module: a request document (an admin API body) that is
/// not what it must be, with which field is wrong and how, in words for a person.
///
/// Codes are an open set (``ErrorCode`` members), so a new kind of failure is a new member.
public struct InspectionError: Error, Hashable, Sendable, CustomStringConvertible {
    public typealias Code = ErrorCode<InspectionError>

    public let code: Code
    /// The field it is about (`body` for the document as a whole).
    public let field: String
    public let message: String

    public init(_ code: Code, field: String, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String { self.message }
}

extension ErrorCode where Domain == InspectionError {
    /// A body that is not JSON, not an object, or has a field missing, unknown or wrong.
    public static var badDocument: Self { Self("bad document") }
    /// A query parameter that is empty, out of range or does not parse.
    public static var badParameter: Self { Self("bad parameter") }
}
