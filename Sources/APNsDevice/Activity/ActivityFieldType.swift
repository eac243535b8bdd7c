/// The Swift type of one stored property of an app's `ActivityAttributes` or of its
/// `ContentState`, as far as decoding cares: what JSONDecoder asks of the JSON there.
///
/// Written in documents as a short string (`"string"`, `"int"`, `"double"`, `"bool"`, `"date"`,
/// `"url"`; `"[int]"` for an array, a trailing `?` for an optional: `"date?"`, `"[string]?"`) or,
/// for a nested struct and anything else, as an object: `{"type": "object", "fields": {...}}`,
/// `{"type": "array", "items": <type>}`, with `"optional": true` where it may be absent or null.
/// Swift's spellings (`String`, `Int`, `Double`, `Bool`, `Date`, `URL`) are taken too.
public indirect enum ActivityFieldType: Hashable, Sendable {
    case string
    case int
    case double
    case bool
    /// `Date`: JSONDecoder's default strategy reads a number of seconds since 2001-01-01.
    case date
    case url
    case array(ActivityFieldType)
    /// A nested struct with these fields (none declared: any object, kept whole).
    case object([ActivityField])
    case optional(ActivityFieldType)
    /// Any JSON value (a `Codable` type the emulator need not know field by field).
    case json

    static let scalars: [String: ActivityFieldType] = [
        "string": .string, "int": .int, "double": .double, "bool": .bool, "date": .date, "url": .url,
        // Written bare, a collection of anything.
        "array": .array(.json), "object": .object([]), "json": .json, "any": .json,
        // The numeric types JSONDecoder reads the same way.
        "float": .double, "int64": .int, "int32": .int,
    ]

    /// The type a short notation names (`"int"`, `"[date]?"`), or nil.
    public init?(notation: String) {
        var text = Substring(notation.trimmingCharacters(in: " "))
        var optional = false
        if text.hasSuffix("?") {
            optional = true
            text = text.dropLast()
        }
        let base: ActivityFieldType
        if text.hasPrefix("["), text.hasSuffix("]") {
            guard let element = ActivityFieldType(notation: String(text.dropFirst().dropLast())) else { return nil }
            base = .array(element)
        } else if let scalar = Self.scalars[text.lowercased()] {
            base = scalar
        } else {
            return nil
        }
        self = optional ? .optional(base) : base
    }

    /// The short notation, where there is one (no nested struct inside).
    public var notation: String? {
        switch self {
        case .string: "string"
        case .int: "int"
        case .double: "double"
        case .bool: "bool"
        case .date: "date"
        case .url: "url"
        case .array(let element): element.notation.map { "[\($0)]" }
        case .object(let fields): fields.isEmpty ? "object" : nil
        case .json: "json"
        case .optional(let wrapped): wrapped.notation.flatMap { $0.hasSuffix("?") ? nil : $0 + "?" }
        }
    }

    /// Whether a missing or null value is fine (Swift's `Optional`).
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// The type without its optionality.
    var unwrapped: ActivityFieldType {
        if case .optional(let wrapped) = self { return wrapped.unwrapped }
        return self
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(self.drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
