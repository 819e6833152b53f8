import LibAV
import Media

extension Frame {
    /// Copies a picture's planes into this frame's (allocated at the picture's size), row by
    /// row where the frame's lines are padded; what both x264 encoders feed libavcodec.
    func copyPlanes(of picture: VideoFrame) {
        let planes: [(source: [UInt8], width: Int, height: Int)] = [
            (picture.y, picture.width, picture.height),
            (picture.u, picture.chromaWidth, picture.chromaHeight),
            (picture.v, picture.chromaWidth, picture.chromaHeight),
        ]
        for (index, plane) in planes.enumerated() {
            guard let target = data(index) else { continue }
            let stride = lineSize(index)
            plane.source.withUnsafeBufferPointer { source in
                guard let base = source.baseAddress else { return }
                if stride == plane.width {
                    target.update(from: base, count: plane.width * plane.height)
                } else {
                    for row in 0..<plane.height {
                        (target + row * stride).update(from: base + row * plane.width, count: plane.width)
                    }
                }
            }
        }
    }
}
