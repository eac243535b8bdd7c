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
}
