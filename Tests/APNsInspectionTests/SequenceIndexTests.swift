import Testing

@testable import APNsInspection

/// The journal's index of store sequences (issue 38: a table of its own instead of a Dictionary)
/// must answer as a Dictionary would, through inserts, updates, removals from the middle of
/// probe runs, growth and clearing.
@Suite("Journal sequence index")
struct SequenceIndexTests {
    @Test("random inserts, updates and removals answer as a Dictionary does", arguments: [1, 7, 42])
    func likeDictionary(_ seed: UInt64) {
        var index = SequenceIndex(capacity: 8)
        var reference: [UInt64: UInt64] = [:]
        var state = seed
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        for step in 0..<20_000 {
            // Keys from a small range collide and form long runs; 0 and UInt64.max - 1 are edges.
            let key = [0, UInt64.max - 1, next() % 512][Int(next() % 3)]
            switch next() % 3 {
            case 0, 1:
                index.set(key, UInt64(step))
                reference[key] = UInt64(step)
            default:
                index.remove(key)
                reference[key] = nil
            }
            if step % 97 == 0 {
                for probe in 0..<UInt64(512) where index[probe] != reference[probe] {
                    Issue.record(
                        "step \(step): \(probe) is \(String(describing: index[probe])), not \(String(describing: reference[probe]))"
                    )
                    return
                }
                #expect(index.count == reference.count)
            }
        }
        #expect(index[UInt64.max - 1] == reference[UInt64.max - 1] && index[0] == reference[0])
        index.removeAll()
        #expect(index.count == 0 && index[3] == nil)
    }
}
