/// Checks that some bytes are one JSON object (RFC 8259), without building it.
///
/// Faster than a full parse and allocation-free, which matters on the accept path.
public enum JSONObjectValidator {
    /// The deepest nesting accepted; deeper documents are refused rather than risking the stack.
    public static let maximumDepth = 256

    /// `nil` when `bytes` hold exactly one JSON object (surrounding white space allowed),
    /// otherwise what is wrong and where.
    public static func problem(in bytes: [UInt8]) -> String? {
        self.scan(bytes).problem
    }

    /// What one pass over a payload finds: whether it is one JSON object (`problem` nil) and, as
    /// the pass goes by, what ``PushLint`` reads of its `aps` dictionary (nil when it has none).
    public struct Scan: Sendable {
        public var problem: String?
        public var aps: APSFacts?
    }

    /// Checks `bytes` and gathers the lint's facts in the same pass.
    public static func scan(_ bytes: [UInt8]) -> Scan {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer)
            scanner.skipWhitespace()
            guard scanner.peek() == UInt8(ascii: "{") else {
                return Scan(
                    problem: scanner.atEnd ? "no JSON value" : "the top-level value is not an object (offset \(scanner.offset))")
            }
            do {
                try scanner.value(depth: 0, role: .top)
                scanner.skipWhitespace()
                guard scanner.atEnd else { throw Failure(offset: scanner.offset, what: "trailing data") }
                return Scan(problem: nil, aps: scanner.apsFound ? scanner.facts : nil)
            } catch let failure as Failure {
                return Scan(problem: "\(failure.what) at offset \(failure.offset)")
            } catch {
                return Scan(problem: "unreadable")
            }
        }
    }

    struct Failure: Error {
        var offset: Int
        var what: String
    }

    /// Where a value sits, as far as the lint cares: the payload itself, `aps`, one of `aps`'s
    /// members, or a member of `aps.alert` or `aps.sound` when they are dictionaries.
    enum Role {
        case other, top, aps
        case apsMember(APSFacts.Member)
        case alertMember
        case soundName
        case soundVolume
    }

    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0
        /// The lint's facts, gathered while the first `aps` member passes by.
        var facts = APSFacts()
        var apsFound = false
        private var apsSeen = false

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { self.offset >= self.bytes.count }

        func peek() -> UInt8? { self.atEnd ? nil : self.bytes[self.offset] }

        mutating func skipWhitespace() {
            while let byte = self.peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                self.offset += 1
            }
        }

        func fail(_ what: String) -> Failure { Failure(offset: self.offset, what: what) }

        mutating func expect(_ byte: UInt8) throws {
            guard self.peek() == byte else {
                throw self.fail("expected '\(Character(Unicode.Scalar(byte)))'")
            }
            self.offset += 1
        }

        mutating func value(depth: Int, role: Role = .other) throws {
            guard depth < JSONObjectValidator.maximumDepth else { throw self.fail("nesting too deep") }
            self.skipWhitespace()
            guard let byte = self.peek() else { throw self.fail("unexpected end") }
            let start = self.offset
            switch byte {
            case UInt8(ascii: "{"):
                switch role {
                case .aps:
                    self.apsFound = true
                    try self.object(depth: depth, role: .aps)
                case .apsMember(.alert): try self.object(depth: depth, role: .alertMember)
                case .apsMember(.sound): try self.object(depth: depth, role: .soundName)
                case .top: try self.object(depth: depth, role: .top)
                default: try self.object(depth: depth)
                }
            case UInt8(ascii: "["): try self.array(depth: depth)
            case UInt8(ascii: "\""): try self.string()
            case UInt8(ascii: "t"): try self.literal("true")
            case UInt8(ascii: "f"): try self.literal("false")
            case UInt8(ascii: "n"): try self.literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try self.number()
            default: throw self.fail("unexpected character")
            }
            switch role {
            case .apsMember(let member): self.facts.read(member, UnsafeBufferPointer(rebasing: self.bytes[start..<self.offset]))
            case .soundName: self.facts.readSoundName(UnsafeBufferPointer(rebasing: self.bytes[start..<self.offset]))
            case .soundVolume: self.facts.readSoundVolume(UnsafeBufferPointer(rebasing: self.bytes[start..<self.offset]))
            default: break
            }
        }

        mutating func object(depth: Int, role: Role = .other) throws {
            try self.expect(UInt8(ascii: "{"))
            self.skipWhitespace()
            if self.peek() == UInt8(ascii: "}") {
                self.offset += 1
                return
            }
            while true {
                self.skipWhitespace()
                guard self.peek() == UInt8(ascii: "\"") else { throw self.fail("expected a member name") }
                let nameStart = self.offset + 1
                try self.string()
                let name = UnsafeBufferPointer(rebasing: self.bytes[nameStart..<self.offset - 1])
                self.skipWhitespace()
                try self.expect(UInt8(ascii: ":"))
                try self.value(depth: depth + 1, role: self.role(of: name, in: role))
                self.skipWhitespace()
                guard let next = self.peek() else { throw self.fail("unexpected end") }
                self.offset += 1
                if next == UInt8(ascii: "}") { return }
                guard next == UInt8(ascii: ",") else {
                    self.offset -= 1
                    throw self.fail("expected ',' or '}'")
                }
            }
        }

        /// The role of the member `name` of an object in `role`.
        private mutating func role(of name: UnsafeBufferPointer<UInt8>, in role: Role) -> Role {
            switch role {
            case .top:
                // The first `aps` is the one read (as a lookup of the key finds it).
                guard !self.apsSeen, APSFacts.equal(name, "aps") else { return .other }
                self.apsSeen = true
                return .aps
            case .aps:
                let member = APSFacts.Member(name)
                if member == .other { self.facts.check(member: name) }
                return .apsMember(member)
            case .alertMember:
                if APSFacts.shownAlertKeys.contains(where: { APSFacts.equal(name, $0) }) { self.facts.alertShows = true }
                return .other
            case .soundName:
                return APSFacts.equal(name, "name") ? .soundName : APSFacts.equal(name, "volume") ? .soundVolume : .other
            default: return .other
            }
        }

        mutating func array(depth: Int) throws {
            try self.expect(UInt8(ascii: "["))
            self.skipWhitespace()
            if self.peek() == UInt8(ascii: "]") {
                self.offset += 1
                return
            }
            while true {
                try self.value(depth: depth + 1)
                self.skipWhitespace()
                guard let next = self.peek() else { throw self.fail("unexpected end") }
                self.offset += 1
                if next == UInt8(ascii: "]") { return }
                guard next == UInt8(ascii: ",") else {
                    self.offset -= 1
                    throw self.fail("expected ',' or ']'")
                }
            }
        }

        mutating func string() throws {
            try self.expect(UInt8(ascii: "\""))
            var pendingContinuation = 0
            // The range the next continuation byte must be in: narrower after E0, ED, F0 and F4,
            // which would otherwise let in overlong forms, UTF-16 surrogates (U+D800–U+DFFF) and
            // code points above U+10FFFF (RFC 3629, section 4).
            var continuation: ClosedRange<UInt8> = 0x80...0xBF
            while true {
                if pendingContinuation == 0 {
                    // Printable ASCII other than a quote or a backslash, the common case, in a tight loop.
                    var index = self.offset
                    while index < self.bytes.count, case let plain = self.bytes[index], plain >= 0x20, plain < 0x80,
                        plain != 0x22, plain != 0x5C
                    {
                        index += 1
                    }
                    self.offset = index
                }
                guard let byte = self.peek() else { break }
                if pendingContinuation > 0 {
                    guard continuation.contains(byte) else { throw self.fail("invalid UTF-8") }
                    continuation = 0x80...0xBF
                    pendingContinuation -= 1
                    self.offset += 1
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""):
                    self.offset += 1
                    return
                case UInt8(ascii: "\\"):
                    self.offset += 1
                    try self.escape()
                case 0x00..<0x20:
                    throw self.fail("control character in string")
                case 0x80..<0xC2:
                    throw self.fail("invalid UTF-8")
                case 0xC2..<0xE0:
                    pendingContinuation = 1
                    self.offset += 1
                case 0xE0..<0xF0:
                    pendingContinuation = 2
                    continuation = byte == 0xE0 ? 0xA0...0xBF : byte == 0xED ? 0x80...0x9F : 0x80...0xBF
                    self.offset += 1
                case 0xF0..<0xF5:
                    pendingContinuation = 3
                    continuation = byte == 0xF0 ? 0x90...0xBF : byte == 0xF4 ? 0x80...0x8F : 0x80...0xBF
                    self.offset += 1
                case 0xF5...0xFF:
                    throw self.fail("invalid UTF-8")
                default:
                    self.offset += 1
                }
            }
            throw self.fail("unterminated string")
        }

        mutating func escape() throws {
            guard let byte = self.peek() else { throw self.fail("unterminated string") }
            self.offset += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                return
            case UInt8(ascii: "u"):
                for _ in 0..<4 {
                    guard let digit = self.peek(), Hex.value(of: digit) != nil else {
                        throw self.fail("bad \\u escape")
                    }
                    self.offset += 1
                }
            default:
                self.offset -= 1
                throw self.fail("bad escape")
            }
        }

        mutating func literal(_ word: StaticString) throws {
            let count = word.utf8CodeUnitCount
            guard self.offset + count <= self.bytes.count else { throw self.fail("unexpected end") }
            for i in 0..<count where self.bytes[self.offset + i] != word.utf8Start[i] {
                throw self.fail("unexpected character")
            }
            self.offset += count
        }

        mutating func number() throws {
            if self.peek() == UInt8(ascii: "-") { self.offset += 1 }
            guard let first = self.peek(), first >= 0x30 && first <= 0x39 else { throw self.fail("bad number") }
            self.offset += 1
            if first != UInt8(ascii: "0") { self.digits() }
            if self.peek() == UInt8(ascii: ".") {
                self.offset += 1
                guard self.digits() > 0 else { throw self.fail("bad number") }
            }
            if let e = self.peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
                self.offset += 1
                if let sign = self.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { self.offset += 1 }
                guard self.digits() > 0 else { throw self.fail("bad number") }
            }
        }

        @discardableResult
        mutating func digits() -> Int {
            var count = 0
            while let byte = self.peek(), byte >= 0x30 && byte <= 0x39 {
                self.offset += 1
                count += 1
            }
            return count
        }
    }
}
