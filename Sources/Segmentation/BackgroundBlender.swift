import Media

/// Puts the person of a camera picture over another background: the mask, scaled to the
/// picture, decides for each pixel how much of the camera shows (`out = bg + (cam − bg) × a`).
///
/// The model's probabilities are eased into an opacity with a soft threshold: below 0.3 the
/// pixel is background, above 0.7 it is the person, and between them it fades, which feathers
/// the edge instead of cutting hair and fingers out with a hard line.
public enum BackgroundBlender {
    /// Opacity (0...256) for each mask value.
    static let opacity: [UInt16] = (0...255).map { value in
        let probability = Double(value) / 255
        return UInt16(min(256, max(0, ((probability - 0.3) / 0.4) * 256)).rounded())
    }

    /// The camera's person over `background`, which must be the camera's size (else the camera
    /// picture is returned as it is).
    public static func blend(_ camera: VideoFrame, over background: VideoFrame, mask: PersonMask) -> VideoFrame {
        guard background.width == camera.width, background.height == camera.height else { return camera }
        let eased = mask.values.map { opacity[Int($0)] }
        let luma = Bilinear.resize(eased, width: mask.width, height: mask.height, toWidth: camera.width, height: camera.height)
        let chroma = Bilinear.resize(eased, width: mask.width, height: mask.height, toWidth: camera.chromaWidth, height: camera.chromaHeight)
        var out = camera
        out.y = mix(camera.y, background.y, luma)
        out.u = mix(camera.u, background.u, chroma)
        out.v = mix(camera.v, background.v, chroma)
        return out
    }

    private static func mix(_ front: [UInt8], _ back: [UInt8], _ opacity: [UInt16]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: front.count)
        front.withUnsafeBufferPointer { front in
            back.withUnsafeBufferPointer { back in
                opacity.withUnsafeBufferPointer { opacity in
                    out.withUnsafeMutableBufferPointer { out in
                        for index in 0..<min(front.count, back.count, opacity.count) {
                            let b = Int(back[index])
                            out[index] = UInt8(truncatingIfNeeded: b + (((Int(front[index]) - b) * Int(opacity[index]) + 128) >> 8))
                        }
                    }
                }
            }
        }
        return out
    }
}
