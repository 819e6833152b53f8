import CLI
import Foundation
import LibAV
import Platform

MemoryTuning.apply()
// FFmpeg's own messages: errors only (Revue counts and reports the rest itself).
LibAVLog.setLevel()

exit(Revue.main(Array(CommandLine.arguments.dropFirst())))
