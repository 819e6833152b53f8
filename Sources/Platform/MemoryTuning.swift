import CLinux

/// Process-wide allocator and paging settings for media work (`revue record`, the benchmarks).
public enum MemoryTuning {
    /// - Keeps large buffers (decoded pictures: hundreds of kilobytes each, made and freed every
    ///   frame) on the heap instead of fresh mmap()s, which the kernel would zero page by page on
    ///   every frame. Measured with perf: a few percent of a recording's CPU went to clearing pages.
    /// - One malloc arena: a job has two threads (the pipeline, and an output's queue), and an
    ///   arena of its own for the output thread held memory the main heap had free (the MP4's
    ///   faststart rewrite at the end of a recording put 6 MB on top of the peak).
    /// - No transparent huge pages: libx264 asks for them for its pictures, and a 2 MB page
    ///   behind a 2.8 MB picture rounds it up to 4 MB (6 MB of a 720p job's resident memory,
    ///   and the zeroing of whole huge pages at start-up).
    public static func apply() {
        _ = revue_set_mmap_threshold(64 << 20)
        _ = revue_set_trim_threshold(256 << 20)
        _ = revue_set_arena_max(1)
        _ = revue_disable_transparent_huge_pages()
    }

    /// Hands the allocator's free memory back to the kernel (malloc_trim). For the moment a
    /// phase that needed much memory is over and another begins: the encoder's pictures are
    /// freed when a recording ends, and without this the MP4's faststart rewrite would add its
    /// allocations (and libavformat's code and tables) on top of a heap still as big as at the
    /// busiest moment.
    public static func releaseFreeMemory() {
        _ = revue_malloc_trim()
    }
}
