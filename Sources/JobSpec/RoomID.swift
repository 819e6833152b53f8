/// Room ids: what the API accepts as one before it looks the room up.
public enum RoomID {
    /// 1 to 128 characters, no slash, no control characters, and not `.` or `..`, so a room id
    /// never names a path outside a rooms directory (fixture rooms are directories).
    public static func isPlausible(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 128 && id != "." && id != ".." && !id.contains("/")
            && !id.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}
