/// The topic suffixes that name a push type rather than an app.
enum PushTopicSuffix {
    static let all = [
        ".voip", ".complication", ".pushkit.fileprovider", ".voip-ptt", ".location-query", ".push-type.liveactivity",
        ".push-type.widgets", ".push-type.controls",
    ]
}
