import APNsCore
import Testing

@Suite("Shards")
struct ShardTests {
    @Test("K/N parses within range; a shard's tokens map to it; the map file gives every first byte its shard")
    func map() throws {
        #expect(Shard("1/3") == Shard(index: 1, count: 3))
        for bad in ["3/3", "-1/3", "1/0", "1/257", "1", "a/b", "1/3/4"] { #expect(Shard(bad) == nil, "\(bad)") }
        for index in 0..<3 {
            let shard = try #require(Shard(index: index, count: 3))
            for _ in 0..<200 { #expect(shard.owns(shard.randomToken())) }
        }
        let lines = Shard.mapFile(count: 3).split(separator: "\n")
        #expect(lines.count == 256 && lines.first == "00 shard0" && lines[1] == "01 shard1" && lines.last == "ff shard0")
        let one = try #require(Shard(index: 0, count: 1))
        #expect(one.owns(DeviceToken.random()))
    }

    @Test("identifiers a shard makes carry it in their last byte; both UUID versions stay canonical, versions and variant intact")
    func uniqueIDs() throws {
        for count in [2, 3, 7, 256] {
            for index in [0, count - 1] {
                let shard = try #require(Shard(index: index, count: count))
                var ids = APNsIDGenerator(shard: shard)
                for _ in 0..<100 {
                    for id in [ids.uuid(), ids.timeOrderedUUID(nowMillis: 1_764_000_000_000)] {
                        #expect(APNsID.isCanonical(id) && Shard.index(ofUniqueID: id, count: count) == index, "\(id)")
                        let characters = Array(id)
                        #expect(["4", "7"].contains(characters[14]) && ["8", "9", "a", "b"].contains(characters[19]), "\(id)")
                    }
                }
            }
        }
        #expect(Shard.index(ofUniqueID: "not-a-uuid", count: 3) == nil)
    }

    @Test(
        "a bundle's channels belong to the shard CRC-32 of its id picks, as HAProxy's crc32 converter computes it (zlib's check value)"
    )
    func bundles() {
        // The CRC-32 check value of "123456789" (the catalogue's), and zlib.crc32(b"com.example.cluster").
        #expect(CRC32.checksum("123456789".utf8) == 0xCBF4_3926)
        #expect(CRC32.checksum("com.example.cluster".utf8) == 802_114_630)
        #expect(Shard.index(ofBundle: "com.example.cluster", count: 3) == 802_114_630 % 3)
    }
}
