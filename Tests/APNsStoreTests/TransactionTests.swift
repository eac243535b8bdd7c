import APNsTestSupport
import Foundation
import Testing

@testable import APNsStore

/// The store's LMDB layer on its own (issue 71: Transaction was tested only through the store):
/// each call against a real environment in a temporary directory, and what LMDB leaves behind
/// when a write fails or the map is full.
@Suite("LMDB transactions")
struct TransactionTests {
    /// A fresh environment of `mapSize` bytes, closed and removed after `body`.
    func withEnvironment(mapSize: Int = 8 << 20, _ body: (LMDBEnvironment) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        let environment = try LMDBEnvironment.open(directory: directory.path, mapSize: mapSize, sync: false)
        defer {
            environment.close()
            try? directory.remove()
        }
        try body(environment)
    }

    static func key(_ number: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(number).bigEndian) { Array($0) } }

    /// `"v<number>"` under `number`'s key in the log database, by putGrowing or (`reserving`) reserveGrowing.
    static func putGrowing(_ txn: Transaction, _ environment: LMDBEnvironment, _ number: Int, reserving: Bool) throws(StoreError)
    {
        let dbi = environment.log
        let value = Array("v\(number)".utf8)
        var failure: StoreError?
        Self.key(number).withUnsafeBytes { key in
            value.withUnsafeBytes { bytes in
                do throws(StoreError) {
                    if reserving {
                        try txn.reserveGrowing(dbi, key: key, size: value.count) { $0.copyBytes(from: value) }
                    } else {
                        try txn.putGrowing(dbi, key: key, value: bytes)
                    }
                } catch {
                    failure = error
                }
            }
        }
        if let failure { throw failure }
    }

    @Test("put, get, read in place and delete: what was put reads back, a deleted key is gone, deleting it again says so")
    func putGetDelete() throws {
        try self.withEnvironment { environment in
            try environment.write { txn throws(StoreError) in
                try txn.put(environment.meta, Array("a".utf8), Array("one".utf8))
                try txn.put(environment.meta, Array("a".utf8), Array("two".utf8))
            }
            try environment.read { txn throws(StoreError) in
                #expect(try txn.get(environment.meta, Array("a".utf8)) == Array("two".utf8))
                #expect(try txn.withValue(environment.meta, key: Array("a".utf8)) { $0.count } == 3)
                #expect(try txn.get(environment.meta, Array("b".utf8)) == nil)
                #expect(try txn.count(environment.meta) == 1)
            }
            try environment.write { txn throws(StoreError) in
                #expect(try txn.delete(environment.meta, Array("a".utf8)))
                #expect(try !txn.delete(environment.meta, Array("a".utf8)))
            }
            try environment.read { txn throws(StoreError) in #expect(try txn.get(environment.meta, Array("a".utf8)) == nil) }
        }
    }

    @Test("putGrowing and reserveGrowing take keys in any order: appended when past the last, put in place when not")
    func growing() throws {
        try self.withEnvironment { environment in
            let order = [5, 6, 9, 2, 7, 10, 1]
            try environment.write { txn throws(StoreError) in
                for number in order { try Self.putGrowing(txn, environment, number, reserving: number % 2 == 1) }
            }
            var seen: [(Int, String)] = []
            try environment.read { txn throws(StoreError) in
                try txn.scan(environment.log) { key, value in
                    seen.append((Int(key.reduce(0) { $0 << 8 | UInt32($1) }), String(decoding: value, as: UTF8.self)))
                    return true
                }
            }
            #expect(seen.map(\.0) == order.sorted())
            #expect(seen.allSatisfy { $0.1 == "v\($0.0)" })
        }
    }

    @Test("scan from a key, backwards, and stopping early")
    func scans() throws {
        try self.withEnvironment { environment in
            try environment.write { txn throws(StoreError) in
                for number in [10, 20, 30, 40] { try txn.put(environment.log, Self.key(number), [UInt8(number)]) }
            }
            func visit(from start: [UInt8] = [], reverse: Bool = false, taking limit: Int = .max) throws -> [UInt8] {
                var values: [UInt8] = []
                try environment.read { txn throws(StoreError) in
                    try txn.scan(environment.log, from: start, reverse: reverse) { _, value in
                        values.append(value[0])
                        return values.count < limit
                    }
                }
                return values
            }
            #expect(try visit(from: Self.key(25)) == [30, 40])
            #expect(try visit(from: Self.key(41)) == [])
            #expect(try visit(reverse: true) == [40, 30, 20, 10])
            #expect(try visit(taking: 2) == [10, 20])
        }
    }

    @Test("a write whose body throws writes nothing; empty leaves the database open and empty")
    func abortAndEmpty() throws {
        try self.withEnvironment { environment in
            #expect(throws: StoreError.refused("no")) {
                try environment.write { txn throws(StoreError) in
                    try txn.put(environment.meta, Array("kept?".utf8), [1])
                    throw StoreError.refused("no")
                }
            }
            try environment.read { txn throws(StoreError) in #expect(try txn.get(environment.meta, Array("kept?".utf8)) == nil) }
            try environment.write { txn throws(StoreError) in
                for number in 0..<100 { try txn.put(environment.meta, Self.key(number), Array(repeating: 7, count: 100)) }
            }
            try environment.read { txn throws(StoreError) in #expect(try txn.bytesInUse(environment.meta) > 0) }
            try environment.write { txn throws(StoreError) in try txn.empty(environment.meta) }
            try environment.read { txn throws(StoreError) in
                #expect(try txn.count(environment.meta) == 0)
                #expect(try txn.get(environment.meta, Self.key(1)) == nil)
            }
            try environment.write { txn throws(StoreError) in try txn.put(environment.meta, Self.key(1), [1]) }
            try environment.read { txn throws(StoreError) in #expect(try txn.get(environment.meta, Self.key(1)) == [1]) }
        }
    }

    @Test("a full map is mapFull with the map's size, the transaction is rolled back whole, and smaller writes go on")
    func mapFull() throws {
        let mapSize = 1 << 20
        try self.withEnvironment(mapSize: mapSize) { environment in
            let big = Array(repeating: UInt8(1), count: 64 << 10)
            #expect(throws: StoreError.mapFull(mapSizeBytes: mapSize)) {
                try environment.write { txn throws(StoreError) in
                    for number in 0..<64 { try txn.put(environment.log, Self.key(number), big) }
                }
            }
            try environment.read { txn throws(StoreError) in #expect(try txn.count(environment.log) == 0) }
            try environment.write { txn throws(StoreError) in try txn.put(environment.log, Self.key(1), big) }
            try environment.read { txn throws(StoreError) in #expect(try txn.get(environment.log, Self.key(1)) == big) }
        }
    }
}
