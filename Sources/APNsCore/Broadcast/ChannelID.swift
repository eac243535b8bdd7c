/// Channel ids: APNs hands them out in base64 (Apple's example `dHN0LXNyY2gtY2hubA==`), of no
/// fixed size.
public enum ChannelID {
    /// Reads `apns-channel-id`: `MissingChannelId` when absent, `BadChannelId` when it is not
    /// base64 of at least one byte.
    public static func validate(_ value: String?) -> Result<String, Reason> {
        guard let value, !value.isEmpty else { return .failure(.missingChannelId) }
        guard Self.isBase64(value) else {
            return .failure(Reason.badChannelId.explained("apns-channel-id \"\(value.prefix(80))\" is not base64"))
        }
        return .success(value)
    }

    /// Standard base64 with its padding, as APNs writes channel ids.
    static func isBase64(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 4, bytes.count % 4 == 0, bytes.count <= 512 else { return false }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return false }
        return bytes.dropLast(padding).allSatisfy { byte in
            (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/")
        }
    }

    /// A new id: 16 random bytes in base64, as unguessable as an `apns-id`.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Self.base64(bytes)
    }

    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = UInt32(0)
            for (offset, byte) in chunk.enumerated() { value |= UInt32(byte) << (16 - 8 * offset) }
            for position in 0..<4 {
                out.append(position <= chunk.count ? alphabet[Int((value >> (18 - 6 * position)) & 0x3F)] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
