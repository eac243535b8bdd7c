/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320).
public enum CRC32 {
    static let table: [UInt32] = (0..<256).map { (byte: UInt32) in
        (0..<8).reduce(byte) { value, _ in value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
    }

    public static func checksum<S: Sequence>(_ bytes: S) -> UInt32 where S.Element == UInt8 {
        ~bytes.reduce(0xFFFF_FFFF as UInt32) { crc, byte in (crc >> 8) ^ Self.table[Int((crc ^ UInt32(byte)) & 0xFF)] }
    }
}
