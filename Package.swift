// swift-tools-version:6.0
// Revue: recording, HLS and livestream worker for video rooms.
//
// The targets read top to bottom as the data path (see docs/ARCHITECTURE.md):
//   C libraries → platform wrappers → database → media stages → services → the `revue` tool.
import PackageDescription

/// FFmpeg as scripts/build-ffmpeg builds it (static, with only the codecs, containers and
/// protocols Revue uses: a job maps 67 libraries instead of 169; scripts/bootstrap runs it), or
/// with REVUE_SYSTEM_FFMPEG set (to anything), Debian's shared libraries (README.md, "Requirements").
let systemFFmpeg = Context.environment["REVUE_SYSTEM_FFMPEG"] != nil
/// With Debian's libraries, the five by name: libavformat.pc does not bring libswscale, and the
/// module map has no link lines (they would pick Debian's shared libraries over Revue's static ones).
let ffmpegLinking: [LinkerSetting] = systemFFmpeg
    ? ["avformat", "avcodec", "swscale", "swresample", "avutil"].map { .linkedLibrary($0) } : []

/// A system library found through pkg-config, with the Debian package that provides it.
func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt(apt)])
}

let package = Package(
    name: "Revue",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "revue", targets: ["revue"]),
        // The client SDK of the seeds (docs/SDK.md): apps, bots and tests publish into rooms with it.
        .library(name: "RevueSDK", targets: ["RevueSDK"]),
    ],
    targets: [
        // MARK: C libraries (Debian -dev packages; each has a shim header for its macros)
        systemLibrary("CFFmpeg", pkgConfig: systemFFmpeg ? "libavformat" : "revue-ffmpeg",
                      apt: ["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev", "libswresample-dev"]),
        systemLibrary("CVPX", pkgConfig: "vpx", apt: ["libvpx-dev"]),
        systemLibrary("COpus", pkgConfig: "opus", apt: ["libopus-dev"]),
        systemLibrary("CSRTP", pkgConfig: "libsrtp2", apt: ["libsrtp2-dev"]),
        systemLibrary("COpenSSL", pkgConfig: "openssl", apt: ["libssl-dev"]),
        systemLibrary("CLibPQ", pkgConfig: "libpq", apt: ["libpq-dev"]),
        systemLibrary("CFreeType", pkgConfig: "freetype2", apt: ["libfreetype-dev"]),
        // No pkgConfig: usrsctp.pc adds -DINET -DINET6, which SwiftPM refuses with a warning; the
        // header needs neither, and it is on the default search path.
        .systemLibrary(name: "CUsrsctp", providers: [.apt(["libusrsctp-dev"])]),
        systemLibrary("CCurl", pkgConfig: "libcurl", apt: ["libcurl4-openssl-dev"]),
        // ALSA's capture API: microphones on Linux (and PulseAudio or PipeWire through their ALSA plugins).
        systemLibrary("CALSA", pkgConfig: "alsa", apt: ["libasound2-dev"]),
        // WebRTC's audio processing module (C++, never imported by Swift): the Debian package
        // behind CAudioProcessing, which wraps it in a C API. No pkgConfig: its .pc adds
        // -DWEBRTC_POSIX and -DWEBRTC_AUDIO_PROCESSING_ONLY_BUILD, which SwiftPM refuses with a
        // warning; CAudioProcessing defines them, adds the include path and links the library.
        .systemLibrary(name: "CWebRTCAudioProcessing", providers: [.apt(["libwebrtc-audio-processing-dev"])]),
        .systemLibrary(name: "CLinux"),
        .systemLibrary(name: "CEpoll"),

        // A C++ target with a C API (include/revue_audio_processing.h) over webrtc::AudioProcessing.
        // The headers' directory is the one `pkg-config --cflags webrtc-audio-processing` names.
        .target(name: "CAudioProcessing", dependencies: ["CWebRTCAudioProcessing"],
                cxxSettings: [.define("WEBRTC_POSIX"), .define("WEBRTC_AUDIO_PROCESSING_ONLY_BUILD"),
                              .unsafeFlags(["-I/usr/include/webrtc_audio_processing"])],
                // The module map's `link` only autolinks for a module that is imported; C++ is not.
                linkerSettings: [.linkedLibrary("webrtc_audio_processing")]),

        // MARK: Platform: small Swift owners of C objects
        .target(name: "Log"),
        .target(name: "Platform", dependencies: ["CLinux"]),
        .target(name: "Crypto", dependencies: ["COpenSSL"]),

        // MARK: The job spec: one typed shape of a job, from the REST API to the pipeline's process
        .target(name: "JobSpec"),
        // What the REST API and the webhooks say (the typed views, the webhook payload and its
        // outbox channel) and rooms' settings: apart from the job, so a view's edit does not
        // rebuild the encoder.
        .target(name: "APIModels", dependencies: ["JobSpec"]),

        // MARK: Database: PostgreSQL is the job store and the coordination engine
        .target(name: "Postgres", dependencies: ["CLibPQ", "Log", "Platform"]),
        .target(name: "Migrations", dependencies: ["Postgres", "Crypto", "Log"], plugins: ["EmbedFiles"]),
        // Many machines (docs/CLUSTER.md): nodes, their heartbeats, and where each room is placed, in PostgreSQL.
        .target(name: "Cluster", dependencies: ["Postgres", "Log"]),
        // migrations/*.sql (and the room server's pages) built into the binary, so it needs no files beside it.
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["EmbedFilesTool"]),
        .executableTarget(name: "EmbedFilesTool", path: "Plugins/EmbedFilesTool"),

        // MARK: Media types every layer shares: kinds of track, pictures, sound
        .target(name: "Media"),

        // MARK: Ingest: packets in, whole frames on one clock out
        .target(name: "RTP"),
        .target(name: "MediaSource", dependencies: ["JobSpec", "RTP", "Media"]),
        .target(name: "Fixture", dependencies: ["RTP", "JobSpec", "MediaSource"]),
        .target(name: "Ingest", dependencies: ["RTP", "MediaSource", "Media"]),

        // MARK: Transport: one UDP port carries STUN/ICE, DTLS, SRTP; SDP negotiates it
        .target(name: "Net"),
        .target(name: "STUN", dependencies: ["Crypto", "Net"]),
        .target(name: "ICE", dependencies: ["STUN", "Net"]),
        // SRTP owns the protection profile and key types; DTLS negotiates and exports them.
        .target(name: "SRTP", dependencies: ["CSRTP"]),
        .target(name: "DTLS", dependencies: ["COpenSSL", "Crypto", "SRTP"]),
        .target(name: "SDP"),
        .target(name: "Transport", dependencies: ["CLinux", "Net", "STUN", "ICE", "DTLS", "SRTP", "Log"]),
        // Data channels (RFC 8831/8832) over usrsctp; SCTP packets ride DTLS application data.
        .target(name: "DataChannel", dependencies: ["CUsrsctp", "Log"]),
        // The SFU forwards plain RTP/RTCP between peers; the transport does the sockets and SRTP.
        .target(name: "SFU", dependencies: ["RTP", "Media"]),
        // End-to-end encrypted frames (SFrame, RFC 9605): encrypted before packetization by the
        // sender, forwarded unread by the SFU, decrypted after assembly by a receiver with the key.
        .target(name: "FrameCrypto", dependencies: ["Media", "Crypto", "JobSpec"]),
        // Receiving a room, sans-IO, for every receiver (recorder, SDK, transcriber): subscriber
        // offers in, started and stopped tracks out; datagrams in, opened frames and feedback out.
        .target(name: "Subscriber", dependencies: ["Ingest", "SDP", "MediaSource", "FrameCrypto", "JobSpec", "RTP", "Log", "Media"]),

        // MARK: Media: decode
        .target(name: "LibAV", dependencies: ["CFFmpeg", "Media"], linkerSettings: ffmpegLinking),
        .target(name: "Decode", dependencies: ["COpus", "CFFmpeg", "LibAV", "Media", "Ingest"]),

        // MARK: Speech: utterances in, timed words out (docs/TRANSCRIPTION.md)
        // The SpeechEngine seam, faster-whisper in a helper process Revue owns (Resources/
        // whisper_helper.py, built in), voice activity detection, transcripts and their files.
        .target(name: "Speech", dependencies: ["Platform", "Log", "Media"], exclude: ["Resources"], plugins: ["EmbedFiles"]),
        // MARK: Segmentation: camera pictures in, person masks out, backgrounds replaced (docs/SDK.md)
        // MediaPipe's selfie-segmentation model in a helper process Revue owns (Resources/
        // segment_helper.py, built in), and the blur and blend that put the person over another background.
        .target(name: "Segmentation", dependencies: ["Platform", "Log", "Media"], exclude: ["Resources"], plugins: ["EmbedFiles"]),
        // Machine translation of transcription lines (Apertium), off the room server's loop.
        .target(name: "Translation", dependencies: ["Platform", "Log"]),
        // Transcripts of files and recordings: each speaker's audio decoded, cut and transcribed.
        .target(name: "Transcription", dependencies: ["Speech", "Decode", "Log"]),

        // MARK: Media: composite and mix, then encode once
        .target(name: "Layout", dependencies: ["JobSpec"]),
        .target(name: "Composite", dependencies: ["JobSpec", "Layout", "Media", "LibAV", "CFreeType"]),
        .target(name: "Mix", dependencies: ["Media"]),
        .target(name: "Encode", dependencies: ["CFFmpeg", "CVPX", "COpus", "LibAV", "JobSpec", "Media", "Layout"]),

        // MARK: Outputs: one encode, many outputs
        // HLS playlists as text, written and read back: the outputs write them, the origin
        // answers low-latency players' delivery directives from them.
        .target(name: "HLS"),
        .target(name: "Outputs", dependencies: ["CFFmpeg", "LibAV", "JobSpec", "Encode", "Media", "Log", "HLS"]),

        // MARK: The pipeline, assembled in one place
        // A job's run (`JobRun`): its source (a fixture, or a room through RoomReceiver) and its
        // sinks made from the spec, its events reported to the worker.
        .target(name: "Pipeline", dependencies: ["JobSpec", "MediaSource", "Subscriber", "Fixture", "Ingest", "Decode", "Media", "Layout", "Composite",
                                                "Mix", "Encode", "Outputs", "HLS", "Log", "Platform", "Transcription", "RoomReceiver", "Storage"]),

        // MARK: Object storage: S3 over libcurl (SigV4, multipart, presigned URLs, HLS mirrored live)
        // The one outbound HTTP client: libcurl (TLS verified, deadlines, SigV4 by curl), for
        // object storage, webhooks, summaries, forwarded REST actions and the SDK's files.
        .target(name: "OutboundHTTP", dependencies: ["CCurl"]),
        .target(name: "Storage", dependencies: ["OutboundHTTP", "Crypto", "JobSpec", "Outputs"]),

        // MARK: Services: HTTP, jobs, the REST API
        .target(name: "HTTP", dependencies: ["Log", "CEpoll"]),
        .target(name: "WebSocket", dependencies: ["HTTP", "Crypto", "Log", "CEpoll"]),
        // The signalling protocol's typed messages (docs/SIGNALING.md); pure Swift.
        .target(name: "Signaling", dependencies: ["JobSpec", "Media"]),
        .target(name: "Jobs", dependencies: ["OutboundHTTP", "APIModels", "JobSpec", "Fixture", "Postgres", "Log", "Crypto", "Platform", "Outputs", "Storage"]),
        // Live rooms, sessions and participants: the room server's control plane (docs/ROOMS.md).
        .target(name: "Rooms", dependencies: ["APIModels", "Signaling", "JobSpec", "Postgres", "Crypto", "Log"]),
        // The client side of a room, in the parts each side needs (docs/ARCHITECTURE.md):
        // joining and staying in a room (signalling, the media link, one rejoin and backoff policy);
        .target(name: "RoomSession", dependencies: ["CLinux", "DTLS", "ICE", "Log", "Net", "SDP", "Transport", "JobSpec", "Signaling",
                                                   "WebSocket"]),
        // receiving it through Subscriber, as the recorder does (LiveRoomSource) and the SDK
        // (MediaReceiver, remote tracks decoded); no capture devices, no encoders;
        .target(name: "RoomReceiver", dependencies: ["RoomSession", "Subscriber", "Decode", "Ingest", "JobSpec", "Log", "Media",
                                                    "MediaSource", "RTP", "SDP", "Signaling", "Transport"]),
        // cameras and microphones: ALSA, files, buffers, test patterns, WebRTC's audio processing;
        .target(name: "Capture", dependencies: ["CALSA", "CAudioProcessing", "CFFmpeg", "LibAV", "Decode", "Composite", "Log", "Media"]),
        // publishing into it: sender, pacer, estimators, simulcast, packetizers, the SDK
        // participant's connection (RoomPublisher).
        .target(name: "Publisher", dependencies: ["RoomSession", "RoomReceiver", "Capture", "CFFmpeg", "LibAV", "DataChannel", "Encode",
                                                 "FrameCrypto", "JobSpec", "Log", "Media", "RTP", "SDP", "Signaling", "Transport"]),
        // Live transcription of a room: each participant's audio through Subscriber and Decode, cut
        // per speaker and transcribed, the lines sent to everyone (docs/TRANSCRIPTION.md).
        .target(name: "LiveTranscription", dependencies: ["Speech", "Decode", "Ingest", "Subscriber", "MediaSource", "Media", "Signaling", "Log"]),
        // The seeds' client API (VideoSDK, Room, custom tracks) over RoomClient's signalling and publisher.
        // the speaker: the room's received sound, mixed, to an ALSA playback device.
        .target(name: "Playout", dependencies: ["CALSA", "Capture", "Media", "Log"]),
        .target(name: "RevueSDK", dependencies: ["OutboundHTTP", "RoomSession", "RoomReceiver", "Capture", "Publisher", "Playout", "Signaling", "JobSpec", "Log", "Media", "DataChannel", "HTTP", "Speech", "Segmentation"]),
        .target(name: "RoomServer", dependencies: ["APIModels", "Transport", "SDP", "SFU", "DataChannel", "DTLS", "ICE", "Net", "Rooms",
                                                   "Signaling", "WebSocket", "HTTP", "JobSpec", "Jobs", "Postgres", "Log", "Media",
                                                   "Crypto", "Translation", "Cluster"],
                exclude: ["Resources"], plugins: ["EmbedFiles"]),
        // The REST API; Resources/openapi.json (from docs/openapi.yaml, scripts/openapi) is built in.
        .target(name: "API", dependencies: ["OutboundHTTP", "APIModels", "JobSpec", "Fixture", "HTTP", "Jobs", "Rooms", "Signaling", "Postgres", "Crypto", "Log",
                                            "Storage", "Speech", "HLS", "Cluster"],
                exclude: ["Resources"], plugins: ["EmbedFiles"]),

        // MARK: The tool
        .target(name: "CLI", dependencies: ["OutboundHTTP", "APIModels", "RoomReceiver", "Capture", "Publisher", "JobSpec", "MediaSource", "RoomServer", "Net", "Postgres", "Migrations", "Log", "Fixture", "Pipeline", "Layout", "Composite", "Encode",
                                           "Outputs", "LibAV", "Jobs", "Rooms", "Platform", "HTTP", "Crypto", "API", "Storage", "Speech", "Transcription",
                                           "LiveTranscription", "Cluster", "Media"]),
        .executableTarget(name: "revue", dependencies: ["CLI", "Crypto", "Platform", "LibAV"]),

        // MARK: Benchmarks (bench/README.md)
        // recvmmsg/sendmmsg for bench/sfu's reference relay (glibc declares them only under _GNU_SOURCE).
        .systemLibrary(name: "CSocketBatch", path: "bench/CSocketBatch"),
        .executableTarget(name: "RevueBench", dependencies: ["APIModels", "Publisher", "Capture", "JobSpec", "Encode", "Fixture", "Ingest", "Decode", "Pipeline", "Platform", "Layout",
                                                            "LibAV", "Outputs", "Jobs", "CFFmpeg", "TestSupport", "RTP", "SFU", "SRTP",
                                                            "CSocketBatch", "API", "Crypto", "HTTP", "Net", "Postgres", "Media",
                                                            "RoomServer", "Rooms", "Cluster", "Signaling", "HLS", "Segmentation"],
                          path: "bench/RevueBench"),

        // MARK: Tests mirror Sources/
        // RoomServerHarness (a room server in the test's process) is shared by RoomServerTests, RoomClientLiveTests, LivePipelineTests and RevueSDKTests.
        // What any test may use without building the server: seeded random, hex, temporary
        // directories, the `.live` and `.browser` tags (Tests/TestKit).
        .target(name: "TestKit", path: "Tests/TestKit"),
        // The live harness: servers, peers, browsers, PostgreSQL, media probes (re-exports TestKit).
        .target(name: "TestSupport", dependencies: ["Rooms", "APIModels", "TestKit", "JobSpec", "Layout", "Postgres", "Platform", "Media", "Encode", "Outputs", "Migrations",
                                                  "WebSocket", "HTTP", "API", "Crypto", "Jobs", "Net", "RoomServer", "Transport", "Signaling"],
                path: "Tests/TestSupport"),
        // With REVUE_SYSTEM_FFMPEG, FFmpeg's libraries are linked by LibAV's settings, which the one
        // test bundle has from the other test targets.
        .testTarget(name: "CLibrariesTests",
                    dependencies: ["CFFmpeg", "CVPX", "COpus", "CSRTP", "COpenSSL", "CLibPQ", "CFreeType", "CCurl"]),
        .testTarget(name: "LogTests", dependencies: ["Log"]),
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto", "TestKit"]),
        .testTarget(name: "FrameCryptoTests", dependencies: ["FrameCrypto", "Crypto", "JobSpec", "TestKit", "Media"]),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "TestSupport"]),
        .testTarget(name: "MigrationsTests", dependencies: ["Migrations", "Postgres", "TestSupport"]),
        .testTarget(name: "JobSpecTests", dependencies: ["APIModels", "JobSpec", "TestKit"]),
        .testTarget(name: "APIModelsTests", dependencies: ["APIModels", "JobSpec"]),
        .testTarget(name: "RTPTests", dependencies: ["RTP", "TestKit"]),
        .testTarget(name: "FixtureTests", dependencies: ["Fixture", "MediaSource", "TestSupport"]),
        .testTarget(name: "IngestTests", dependencies: ["Ingest", "RTP", "TestKit"]),
        .testTarget(name: "NetTests", dependencies: ["Net", "TestKit"]),
        .testTarget(name: "STUNTests", dependencies: ["STUN", "Net", "TestKit"]),
        .testTarget(name: "ICETests", dependencies: ["ICE", "STUN", "Net", "TestKit"]),
        .testTarget(name: "SRTPTests", dependencies: ["SRTP", "DTLS", "COpenSSL", "TestKit"]),
        .testTarget(name: "DTLSTests", dependencies: ["DTLS", "SRTP", "Platform", "TestKit", "TestSupport"]),
        .testTarget(name: "SDPTests", dependencies: ["SDP", "TestKit"]),
        .testTarget(name: "TransportTests", dependencies: ["Transport", "SDP", "DTLS", "ICE", "Net", "HTTP", "TestSupport"]),
        .testTarget(name: "DataChannelTests", dependencies: ["DataChannel", "DTLS", "Platform", "TestKit", "TestSupport"],
                    exclude: ["Interop/aiortc_sctp_peer.py"]),
        .testTarget(name: "SFUTests", dependencies: ["Media", "SFU", "RTP", "Fixture", "TestKit", "TestSupport"]),
        .testTarget(name: "DecodeTests", dependencies: ["Decode", "Ingest", "Media", "Platform", "TestSupport"]),
        .testTarget(name: "LayoutTests", dependencies: ["JobSpec", "Layout"]),
        .testTarget(name: "CompositeTests", dependencies: ["JobSpec", "Composite", "Layout", "Media"]),
        .testTarget(name: "MixTests", dependencies: ["Mix", "Media", "TestSupport"]),
        .testTarget(name: "EncodeTests", dependencies: ["JobSpec", "Encode", "Decode", "Media", "Layout", "RTP", "TestSupport"]),
        .testTarget(name: "HLSTests", dependencies: ["HLS", "TestKit"]),
        .testTarget(name: "OutputsTests", dependencies: ["Outputs", "HLS", "Encode", "Media", "TestSupport"]),
        .testTarget(name: "SubscriberTests", dependencies: ["Subscriber", "Ingest", "SDP", "MediaSource", "FrameCrypto", "JobSpec",
                                                            "RTP", "Log"]),
        .testTarget(name: "PipelineTests", dependencies: ["JobSpec", "MediaSource", "Pipeline", "Fixture", "Ingest", "Decode", "RTP",
                                                          "TestSupport", "Composite", "Encode", "Layout", "Media", "Outputs"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "JobSpec", "Crypto", "Platform", "TestSupport"]),
        .testTarget(name: "OutboundHTTPTests", dependencies: ["OutboundHTTP", "HTTP", "TestSupport"]),
        .testTarget(name: "HTTPTests", dependencies: ["OutboundHTTP", "HTTP", "TestSupport"]),
        .testTarget(name: "WebSocketTests", dependencies: ["OutboundHTTP", "WebSocket", "HTTP", "TestSupport"]),
        .testTarget(name: "SignalingTests", dependencies: ["Signaling", "JobSpec", "TestKit"]),
        .testTarget(name: "TranslationTests", dependencies: ["Translation", "TestSupport"]),
        .testTarget(name: "LiveTranscriptionTests", dependencies: ["LiveTranscription", "Speech", "Media", "MediaSource", "Fixture", "Log", "TestSupport"]),
        .testTarget(name: "ClusterTests", dependencies: ["Rooms", "APIModels", "Cluster", "Jobs", "JobSpec", "Postgres", "TestSupport"]),
        .testTarget(name: "JobsTests", dependencies: ["APIModels", "JobSpec", "Jobs", "Postgres", "Crypto", "HTTP", "Log", "TestSupport"]),
        .testTarget(name: "RoomsTests", dependencies: ["APIModels", "Rooms", "Signaling", "JobSpec", "Jobs", "Crypto", "HTTP", "Postgres",
                                                       "TestSupport"]),
        .testTarget(name: "APITests", dependencies: ["APIModels", "JobSpec", "Fixture", "API", "Jobs", "Rooms", "Signaling", "HTTP", "Crypto",
                                                     "Postgres", "RoomServer", "TestSupport", "Platform", "HLS", "Outputs", "OutboundHTTP"]),
        // Issue 29's hostile clients against a real `revue serve`, with a legitimate room beside them.
        .testTarget(name: "HardeningTests", dependencies: ["Publisher", "Capture", "JobSpec", "Net", "STUN", "HTTP", "WebSocket", "TestSupport",
                                                           "Platform"]),
        .testTarget(name: "EndToEndTests", dependencies: ["APIModels", "JobSpec", "Jobs", "TestSupport", "Platform", "Postgres", "API", "Storage", "Outputs",
                                                          "HTTP"]),
        .testTarget(name: "RoomSessionTests", dependencies: ["RoomSession"]),
        .testTarget(name: "RoomReceiverTests", dependencies: ["RoomReceiver", "Media"]),
        .testTarget(name: "CaptureTests", dependencies: ["Capture", "Media", "TestSupport"]),
        .testTarget(name: "PlayoutTests", dependencies: ["Playout", "Media", "TestSupport"]),
        .testTarget(name: "PublisherTests", dependencies: ["Publisher", "Capture", "Encode", "Media", "RTP", "TestSupport"]),
        .testTarget(name: "RoomServerTests", dependencies: ["Rooms", "APIModels", "RoomSession", "Publisher", "Capture", "RoomServer", "API", "Jobs", "JobSpec", "Signaling", "Transport",
                                                            "WebSocket", "TestKit", "TestSupport", "Platform", "Cluster", "Postgres"]),
        // RoomSession, RoomReceiver, Publisher and `revue publish` in live rooms (Chromium, aiortc).
        .testTarget(name: "RoomClientLiveTests", dependencies: ["TestSupport", "TestKit", "Publisher", "Capture", "Media", "JobSpec", "Transport",
                                                                "RoomReceiver", "Platform", "Net", "Jobs", "Signaling", "MediaSource"]),
        // Live recordings, HLS and transcripts through the worker and the pipeline.
        .testTarget(name: "LivePipelineTests", dependencies: ["TestSupport", "TestKit", "Jobs", "JobSpec", "Platform", "Media", "Speech", "Publisher",
                                                              "Capture", "RoomReceiver", "Net", "MediaSource", "Outputs"]),
        // The seeds' own Swift examples, compiled against RevueSDK's public API only (issue 12).
        // Verbatim examples leave values unused, as documentation does (three "never used"
        // warnings): those are the seeds', not Revue's, and the test build allows no warning.
        .target(name: "SeedExamples", dependencies: ["RevueSDK"], path: "Tests/SeedExamples", exclude: ["README.md"],
                swiftSettings: [.unsafeFlags(["-suppress-warnings"])]),
        .testTarget(name: "RevueSDKTests", dependencies: ["OutboundHTTP", "Publisher", "RoomReceiver", "Capture", "RevueSDK", "Log", "Media", "HTTP", "JobSpec", "Jobs", "Net",
                                                          "Transport", "TestSupport", "Platform", "Speech", "Segmentation", "Cluster", "Postgres"]),
        .testTarget(name: "SpeechTests", dependencies: ["Speech", "Platform", "TestKit", "TestSupport"]),
        .testTarget(name: "SegmentationTests", dependencies: ["Segmentation", "Capture", "Media", "Platform"]),
        .testTarget(name: "TranscriptionTests", dependencies: ["Transcription", "Speech", "Decode", "Encode", "Outputs", "TestSupport", "Platform"]),
        .testTarget(name: "CLITests", dependencies: ["APIModels", "Capture", "CLI", "Jobs", "JobSpec", "Rooms", "Postgres", "TestSupport", "Cluster"]),
    ],
    swiftLanguageModes: [.v6]
)
