/// The known word a person probably meant: the closest by edit distance, when it is close. What
/// a message names as the fix (`badg` → `badge`, `pushh` → `push`).
public enum NearestWord {
    /// The word of `words` closest to `word` (case and `_`/`-` aside), when at most 2 edits or a
    /// third of the word away; nil when none is that close.
    public static func nearest(_ word: String, in words: [String]) -> String? {
        let typed = Array(word.lowercased().replacingOccurrences(of: "_", with: "-"))
        let scored = words.map { ($0, Self.distance(typed, Array($0))) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(2, typed.count / 3) else { return nil }
        return best
    }

    /// Levenshtein distance.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
