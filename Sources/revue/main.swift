import CLI
import Foundation

exit(Revue.main(Array(CommandLine.arguments.dropFirst())))
