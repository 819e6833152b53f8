import CLinux

/// Process-wide allocator settings for media work.
public enum MemoryTuning {
    /// Keeps large buffers (decoded pictures, canvases: hundreds of kilobytes each, made and freed
    /// every frame) on the heap instead of fresh mmap()s, which the kernel would zero page by page
    /// on every frame. Measured with perf: a few percent of a recording's CPU went to clearing pages.
    public static func apply() {
        _ = revue_set_mmap_threshold(64 << 20)
        _ = revue_set_trim_threshold(256 << 20)
    }
}
