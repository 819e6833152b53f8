import Foundation
import RevueSDK

// The Swift examples of seed 002 (Publish options and encoding), each file as the seed prints it, without
// its `import RevueSDK` (this file has it). Written by `scripts/seed-examples` from
// `../shared/seeds/`.

// Line 17 of the seed: publishCameraWithDefaults, publishCameraAsH264, publishCameraWithLowerBitrate.
/// Send the camera with the default options: VP8 with every frame a keyframe, at most 15 fps.
@MainActor
func publishCameraWithDefaults(to participant: RemoteParticipant) async throws {
guard let local = Room.shared.localParticipant else { return }
try await local.publishCamera(to: participant)
}
/// Send the camera as H.264 at 2 Mbps and up to 24 fps.
@MainActor
func publishCameraAsH264(to participant: RemoteParticipant) async throws {
guard let local = Room.shared.localParticipant else { return }
let options = VideoPublishOptions(codec: .h264(H264Encoding(maxBitrate: 2_000_000)), maxFps: 24)
try await local.publishCamera(to: participant, options: options)
}
/// Start from a VP8 preset and change one setting.
@MainActor
func publishCameraWithLowerBitrate(to participant: RemoteParticipant) async throws {
guard let local = Room.shared.localParticipant else { return }
let preset = Vp8Encoding.lowLatency
let encoding = Vp8Encoding(
maxBitrate: 1_000_000,
cpuUsed: preset.cpuUsed,
quantizerMin: preset.quantizerMin,
quantizerMax: preset.quantizerMax,
keyframeInterval: preset.keyframeInterval,
rateControlMode: preset.rateControlMode,
cqLevel: preset.cqLevel,
temporalLayers: preset.temporalLayers
)
try await local.publishCamera(to: participant, options: VideoPublishOptions(codec: .vp8(encoding)))
}

// Line 133 of the seed: sendSharperVideo.
/// Change what one participant receives while the call goes on. Each publication has its own
/// settings, so the other participants are not affected.
@MainActor
func sendSharperVideo(on publication: LocalTrackPublication) throws {
switch publication.videoPublishOptions?.codec.type {
case .vp8:
try publication.setVp8Encoding(.highQuality)
case .h264:
try publication.setH264Encoding(H264Encoding(maxBitrate: 6_000_000))
case nil:
return
}
try publication.setMaxFps(30)
}
