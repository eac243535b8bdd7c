import CNGHTTP2

/// Header fields laid out for nghttp2 in memory of the caller's stack.
struct NGHTTP2FieldLayout {
    let bytes: UnsafeMutableBufferPointer<UInt8>
    let fields: UnsafeMutablePointer<nghttp2_nv>
    let capacity: Int
    var offset = 0
    var count = 0

    mutating func add(_ name: String, _ value: String, indexable: Bool) {
        guard let base = self.bytes.baseAddress, self.count < self.capacity else { return }
        let nameStart = self.offset
        self.offset = Self.copy(name, into: self.bytes, at: self.offset)
        let valueStart = self.offset
        self.offset = Self.copy(value, into: self.bytes, at: self.offset)
        let flags = indexable ? NGHTTP2_NV_FLAG_NONE : NGHTTP2_NV_FLAG_NO_INDEX
        (self.fields + self.count).initialize(
            to: nghttp2_nv(
                name: base + nameStart, value: base + valueStart, namelen: valueStart - nameStart,
                valuelen: self.offset - valueStart,
                flags: UInt8(flags.rawValue)
            )
        )
        self.count += 1
    }

    /// Copies the UTF-8 of `text` into `bytes` at `offset`, as far as it fits; the offset after it.
    private static func copy(_ text: String, into bytes: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        var text = text
        return text.withUTF8 { utf8 in
            guard let source = utf8.baseAddress, let target = bytes.baseAddress else { return offset }
            let count = min(utf8.count, bytes.count - offset)
            (target + offset).update(from: source, count: count)
            return offset + count
        }
    }
}
