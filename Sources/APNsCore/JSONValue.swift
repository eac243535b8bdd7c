/// A JSON value: what the emulator reads out of a payload (the `aps` dictionary for the lint, and
/// later what the phone shows), parsed without Foundation; and what an app's user info or a
/// document's free-form member carries through `Codable` unchanged. The one JSON value type.
public enum JSONValue: Sendable, Hashable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    /// Parses one JSON value (surrounding white space allowed); nil when `bytes` are not one
    /// value or nest deeper than ``JSONObjectValidator/maximumDepth``. It reads what
    /// ``JSONObjectValidator`` has passed and is lenient where that is strict (control characters
    /// in strings); of duplicate member names the first wins.
    public static func parse(_ bytes: [UInt8]) -> JSONValue? {
        var reader = Reader(bytes: bytes)
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipWhitespace()
        return reader.offset == bytes.count ? value : nil
    }

    /// The member `key` of the JSON object in `bytes`, parsed; the other members are skipped
    /// without being built. Nil when `bytes` are not an object or have no such member.
    public static func member(_ key: String, ofObjectIn bytes: [UInt8]) -> JSONValue? {
        var reader = Reader(bytes: bytes)
        guard reader.seek(key) else { return nil }
        return reader.value(depth: 1)
    }

    /// The member `key` of an object; nil for anything else.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    public var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    public var number: Double? {
        guard case .number(let value) = self else { return nil }
        return value
    }

    /// Whether the value is JSON's `1` (how `content-available` and `mutable-content` are set).
    public var isOne: Bool { self.number == 1 }

    struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func skipWhitespace() {
            while self.offset < self.bytes.count, case let byte = self.bytes[self.offset],
                byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
            {
                self.offset += 1
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            self.skipWhitespace()
            guard self.offset < self.bytes.count, self.bytes[self.offset] == byte else { return false }
            self.offset += 1
            return true
        }

        mutating func value(depth: Int) -> JSONValue? {
            self.skipWhitespace()
            guard depth < JSONObjectValidator.maximumDepth, self.offset < self.bytes.count else { return nil }
            switch self.bytes[self.offset] {
            case UInt8(ascii: "{"): return self.object(depth: depth)
            case UInt8(ascii: "["): return self.array(depth: depth)
            case UInt8(ascii: "\""): return self.string().map(JSONValue.string)
            case UInt8(ascii: "t"): return self.literal("true", .bool(true))
            case UInt8(ascii: "f"): return self.literal("false", .bool(false))
            case UInt8(ascii: "n"): return self.literal("null", .null)
            default: return self.number()
            }
        }

        mutating func object(depth: Int) -> JSONValue? {
            self.offset += 1
            var members: [String: JSONValue] = [:]
            if self.take(UInt8(ascii: "}")) { return .object(members) }
            repeat {
                self.skipWhitespace()
                guard let key = self.string(), self.take(UInt8(ascii: ":")), let value = self.value(depth: depth + 1) else {
                    return nil
                }
                if members[key] == nil { members[key] = value }
            } while self.take(UInt8(ascii: ","))
            return self.take(UInt8(ascii: "}")) ? .object(members) : nil
        }

        mutating func array(depth: Int) -> JSONValue? {
            self.offset += 1
            var elements: [JSONValue] = []
            if self.take(UInt8(ascii: "]")) { return .array(elements) }
            repeat {
                guard let element = self.value(depth: depth + 1) else { return nil }
                elements.append(element)
            } while self.take(UInt8(ascii: ","))
            return self.take(UInt8(ascii: "]")) ? .array(elements) : nil
        }

        mutating func literal(_ word: String, _ value: JSONValue) -> JSONValue? {
            let expected = Array(word.utf8)
            guard self.bytes.count - self.offset >= expected.count,
                Array(self.bytes[self.offset..<self.offset + expected.count]) == expected
            else { return nil }
            self.offset += expected.count
            return value
        }

        mutating func number() -> JSONValue? {
            let start = self.offset
            while self.offset < self.bytes.count, "+-.eE0123456789".utf8.contains(self.bytes[self.offset]) { self.offset += 1 }
            return Double(String(decoding: self.bytes[start..<self.offset], as: UTF8.self)).map(JSONValue.number)
        }

        /// Moves to the value of member `key` of the object at the offset; false when there is none.
        mutating func seek(_ key: String) -> Bool {
            guard self.take(UInt8(ascii: "{")), !self.take(UInt8(ascii: "}")) else { return false }
            repeat {
                self.skipWhitespace()
                guard let name = self.stringBytes(), self.take(UInt8(ascii: ":")) else { return false }
                if name.elementsEqual(key.utf8) { return true }
                guard self.skip(depth: 1) else { return false }
            } while self.take(UInt8(ascii: ","))
            return false
        }

        /// Calls `body` with each member name of the object at the offset, the reader at its
        /// value; `body` moves past the value (or returns false to stop). False when not an object.
        mutating func members(_ body: (ArraySlice<UInt8>, inout Reader) -> Bool) -> Bool {
            guard self.take(UInt8(ascii: "{")) else { return false }
            if self.take(UInt8(ascii: "}")) { return true }
            repeat {
                self.skipWhitespace()
                guard let name = self.stringBytes(), self.take(UInt8(ascii: ":")), body(name, &self) else { return false }
            } while self.take(UInt8(ascii: ","))
            return self.take(UInt8(ascii: "}"))
        }

        /// The byte at the offset, after white space.
        mutating func peek() -> UInt8? {
            self.skipWhitespace()
            return self.offset < self.bytes.count ? self.bytes[self.offset] : nil
        }

        /// The raw bytes of the string at the offset (escapes left as they are), moving past it.
        mutating func stringBytes() -> ArraySlice<UInt8>? {
            guard self.offset < self.bytes.count, self.bytes[self.offset] == UInt8(ascii: "\"") else { return nil }
            let start = self.offset + 1
            // The closing quote is the first one not escaped: found in place, without bounds checks.
            let end: Int? = self.bytes.withUnsafeBufferPointer { buffer in
                var index = start
                while index < buffer.count {
                    let byte = buffer[index]
                    if byte == UInt8(ascii: "\""), index < buffer.count { return index }
                    index += byte == UInt8(ascii: "\\") ? 2 : 1
                }
                return nil
            }
            guard let end else { return nil }
            self.offset = end + 1
            return self.bytes[start..<end]
        }

        /// Moves past one value without building it.
        mutating func skip(depth: Int) -> Bool {
            self.skipWhitespace()
            guard depth < JSONObjectValidator.maximumDepth, self.offset < self.bytes.count else { return false }
            switch self.bytes[self.offset] {
            case UInt8(ascii: "\""):
                return self.stringBytes() != nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = self.bytes[self.offset] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                self.offset += 1
                if self.take(close) { return true }
                repeat {
                    if close == UInt8(ascii: "}") {
                        self.skipWhitespace()
                        guard self.stringBytes() != nil, self.take(UInt8(ascii: ":")) else { return false }
                    }
                    guard self.skip(depth: depth + 1) else { return false }
                } while self.take(UInt8(ascii: ","))
                return self.take(close)
            default:
                let start = self.offset
                while self.offset < self.bytes.count, "+-.eE0123456789truefalsn".utf8.contains(self.bytes[self.offset]) {
                    self.offset += 1
                }
                return self.offset > start
            }
        }

        /// A string at the offset, its escapes decoded (a lone surrogate becomes U+FFFD).
        mutating func string() -> String? {
            let mark = self.offset
            if let raw = self.stringBytes(), !raw.contains(UInt8(ascii: "\\")) { return String(decoding: raw, as: UTF8.self) }
            self.offset = mark
            guard self.offset < self.bytes.count, self.bytes[self.offset] == UInt8(ascii: "\"") else { return nil }
            self.offset += 1
            var scalars = String.UnicodeScalarView()
            var run = self.offset
            func flush(_ end: Int) {
                scalars.append(contentsOf: String(decoding: self.bytes[run..<end], as: UTF8.self).unicodeScalars)
            }
            while self.offset < self.bytes.count {
                let byte = self.bytes[self.offset]
                if byte == UInt8(ascii: "\"") {
                    flush(self.offset)
                    self.offset += 1
                    return String(scalars)
                }
                guard byte == UInt8(ascii: "\\") else {
                    self.offset += 1
                    continue
                }
                flush(self.offset)
                guard let scalar = self.escape() else { return nil }
                scalars.append(scalar)
                run = self.offset
            }
            return nil
        }

        mutating func escape() -> Unicode.Scalar? {
            guard self.offset + 1 < self.bytes.count else { return nil }
            let byte = self.bytes[self.offset + 1]
            self.offset += 2
            switch byte {
            case UInt8(ascii: "b"): return "\u{08}"
            case UInt8(ascii: "f"): return "\u{0C}"
            case UInt8(ascii: "n"): return "\n"
            case UInt8(ascii: "r"): return "\r"
            case UInt8(ascii: "t"): return "\t"
            case UInt8(ascii: "u"):
                guard let high = self.hex4() else { return nil }
                if (0xD800..<0xDC00).contains(high), self.bytes.count - self.offset >= 6,
                    self.bytes[self.offset] == UInt8(ascii: "\\"),
                    self.bytes[self.offset + 1] == UInt8(ascii: "u")
                {
                    let mark = self.offset
                    self.offset += 2
                    if let low = self.hex4(), (0xDC00..<0xE000).contains(low) {
                        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
                    }
                    self.offset = mark
                }
                return Unicode.Scalar(high) ?? "\u{FFFD}"
            default: return Unicode.Scalar(byte)
            }
        }

        mutating func hex4() -> UInt32? {
            guard self.bytes.count - self.offset >= 4 else { return nil }
            var value: UInt32 = 0
            for byte in self.bytes[self.offset..<self.offset + 4] {
                guard let digit = Hex.value(of: byte) else { return nil }
                value = value << 4 | UInt32(digit)
            }
            self.offset += 4
            return value
        }
    }
}
