/// Small integer ids for values the journal's archive holds many copies of (tokens, topics, push
/// types): each distinct value is kept once. Ids are never reused until ``removeAll()``.
struct Interner<Value: Hashable & Sendable>: Sendable {
    private var ids: [Value: UInt32] = [:]
    private var values: [Value] = []

    /// The id of `value`, given one now if it has none.
    mutating func id(_ value: Value) -> UInt32 {
        if let id = self.ids[value] { return id }
        let id = UInt32(self.values.count)
        self.values.append(value)
        self.ids[value] = id
        return id
    }

    /// The id of `value`, if it has one.
    func existing(_ value: Value) -> UInt32? { self.ids[value] }

    subscript(id: UInt32) -> Value { self.values[Int(id)] }

    /// The ids of the values `condition` holds for.
    func ids(where condition: (Value) -> Bool) -> Set<UInt32> {
        Set(self.values.indices.filter { condition(self.values[$0]) }.map { UInt32($0) })
    }

    mutating func removeAll() {
        self.ids.removeAll()
        self.values.removeAll()
    }
}
