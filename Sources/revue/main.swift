import CLI
import Crypto
import Foundation
import LibAV
import Platform

// First: only OpenSSL's first initialisation decides whether it tears itself down at exit
// under threads that may still be using it (a publisher's DTLS close).
OpenSSLProcess.skipCleanupAtExit()
MemoryTuning.apply()
// A peer that goes away mid-write (a webhook receiver, an HTTP client, an RTMP server) is an
// error to handle where it happens, not a signal that ends the process.
signal(SIGPIPE, SIG_IGN)
// FFmpeg's own messages: errors only (Revue counts and reports the rest itself).
LibAVLog.setLevel()

exit(Revue.main(Array(CommandLine.arguments.dropFirst())))
