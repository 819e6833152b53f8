import CCurl
import CFFmpeg
import CFreeType
import CLibPQ
import COpenSSL
import COpus
import CSRTP
import CVPX
import Testing

/// Every C library links and is at least the version Revue is written against (Debian 12).
@Suite struct CLibrariesTests {
    /// CURLOPT_AWS_SIGV4 needs libcurl 7.75; Debian 12 has 7.88, built with OpenSSL.
    @Test func libcurlSignsSigV4AndSpeaksTLS() {
        guard let info = revue_curl_version_info() else {
            Issue.record("curl_version_info returned nothing")
            return
        }
        #expect(info.pointee.version_num >= 0x07_4B_00)
        #expect(info.pointee.ssl_version.map { String(cString: $0) }?.hasPrefix("OpenSSL/") == true)
        #expect(revue_curl_global_default() != 0)
    }

    @Test func ffmpegLibrariesAreFFmpeg5OrNewer() {
        #expect(avformat_version() >> 16 >= 59)
        #expect(avcodec_version() >> 16 >= 59)
        #expect(avutil_version() >> 16 >= 57)
        #expect(swscale_version() >> 16 >= 6)
        #expect(swresample_version() >> 16 >= 4)
        #expect(revue_averror_eof() < 0)
        #expect(revue_averror_eagain() == -EAGAIN)
    }

    @Test func ffmpegHasTheCodecsRevueUses() {
        #expect(avcodec_find_encoder_by_name("libx264") != nil)
        #expect(avcodec_find_encoder_by_name("aac") != nil)
        #expect(avcodec_find_decoder(AV_CODEC_ID_H264) != nil)
        #expect(av_guess_format("mp4", nil, nil) != nil)
        #expect(av_guess_format("flv", nil, nil) != nil)
    }

    @Test func libvpxHasAVP8Decoder() {
        #expect(vpx_codec_version() >= (1 << 16 | 8 << 8))
        #expect(vpx_codec_vp8_dx() != nil)
    }

    @Test func opusVersionIsReported() {
        let version = String(cString: opus_get_version_string())
        #expect(version.hasPrefix("libopus 1."))
    }

    @Test func srtpVersionIsReported() {
        let version = String(cString: srtp_get_version_string())
        #expect(version.hasPrefix("libsrtp2 2."))
    }

    @Test func openSSLIsVersion3() {
        #expect(OpenSSL_version_num() >= 0x3000_0000)
    }

    @Test func libpqIsVersion12OrNewer() {
        #expect(PQlibVersion() >= 120_000)
    }

    @Test func freetypeInitialises() {
        var library: FT_Library?
        #expect(FT_Init_FreeType(&library) == 0)
        var major: FT_Int = 0, minor: FT_Int = 0, patch: FT_Int = 0
        FT_Library_Version(library, &major, &minor, &patch)
        #expect(major == 2)
        FT_Done_FreeType(library)
    }
}
