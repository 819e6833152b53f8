import CLI
import Foundation
import Platform

MemoryTuning.apply()

exit(Revue.main(Array(CommandLine.arguments.dropFirst())))
