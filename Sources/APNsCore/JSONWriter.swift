/// Builds JSON text by hand: the admin API's output is small and fixed in shape, and payloads,
/// already validated as JSON objects, are embedded as they are.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// Appends a string literal with JSON escaping. Runs of bytes that need none are copied whole.
    public mutating func string(_ value: String) {
        self.bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices
            where utf8[index] == UInt8(ascii: "\"") || utf8[index] == UInt8(ascii: "\\") || utf8[index] < 0x20 {
                self.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                self.escape(utf8[index])
                start = index + 1
            }
            self.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        self.bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): self.raw("\\\"")
        case UInt8(ascii: "\\"): self.raw("\\\\")
        case 0x0A: self.raw("\\n")
        case 0x0D: self.raw("\\r")
        case 0x09: self.raw("\\t")
        default:
            self.raw("\\u00")
            self.bytes.append(contentsOf: Array(Hex.encode([byte]).utf8))
        }
    }

    public mutating func optionalString(_ value: String?) {
        if let value { self.string(value) } else { self.raw("null") }
    }

    public mutating func number<I: BinaryInteger>(_ value: I) { self.raw(String(value)) }

    /// A finite number, as ``text(of:)`` writes it.
    public mutating func number(_ value: Double) { self.raw(Self.text(of: value)) }

    /// A finite number as the shortest text that reads back as the same `Double`: whole numbers
    /// without a fraction (`40`, not `40.0`), others as Swift prints them (`0.25`, `1e-07`).
    public static func text(of value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// Appends text that is already JSON.
    public mutating func raw(_ text: String) { self.bytes.append(contentsOf: text.utf8) }

    public mutating func raw(_ bytes: [UInt8]) { self.bytes.append(contentsOf: bytes) }

    /// Writes `{"k": v, ...}`, calling `body` with a member writer.
    public mutating func object(_ body: (inout Members) -> Void) {
        var members = Members(writer: self)
        self.bytes = []
        members.writer.raw("{")
        body(&members)
        members.writer.raw("}")
        self = members.writer
    }

    /// The JSON text of `[...]` of `items`.
    public static func array<S: Sequence>(_ items: S, _ element: (inout JSONWriter, S.Element) -> Void) -> [UInt8] {
        var writer = JSONWriter()
        writer.array(items, element)
        return writer.bytes
    }

    /// `{"error": message}`, the admin API's error document.
    public static func error(_ message: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.object { members in members.member("error") { $0.string(message) } }
        return writer.bytes
    }

    /// Writes `[...]` of `items`.
    public mutating func array<S: Sequence>(_ items: S, _ element: (inout JSONWriter, S.Element) -> Void) {
        self.raw("[")
        var first = true
        for item in items {
            if !first { self.raw(",") }
            first = false
            element(&self, item)
        }
        self.raw("]")
    }

    public struct Members {
        var writer: JSONWriter
        private var first = true

        init(writer: JSONWriter) { self.writer = writer }

        /// Adds one member; `value` writes its JSON.
        public mutating func member(_ key: String, _ value: (inout JSONWriter) -> Void) {
            if !self.first { self.writer.raw(",") }
            self.first = false
            self.writer.string(key)
            self.writer.raw(":")
            value(&self.writer)
        }
    }
}
