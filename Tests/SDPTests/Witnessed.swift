/// SDP witnessed in nature: offers and answers captured from real peers, byte for byte except
/// that line endings are LF here (the tests put CRLF back). Captured on the Revue build host on
/// 2026-12-01 unless said otherwise; the 192.0.2.2 and fd00::2 addresses are that host's.
enum Witnessed {
    /// Witnessed: Chromium 156.0.8078.114 (Debian 12), headless with fake devices: addTransceiver(mic and camera, sendonly) plus createDataChannel, max-bundle, after ICE gathering.
    static let chromium156Camera = #"""
v=0
o=- 4506248694891184910 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0 1 2
a=extmap-allow-mixed
a=msid-semantic: WMS ae70910c-1f83-463f-8ab0-efceedb6a1ba
m=audio 51401 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126
c=IN IP4 127.0.0.1
a=rtcp:9 IN IP4 0.0.0.0
a=candidate:801256018 1 udp 2122194687 127.0.0.1 51401 typ host generation 0 network-id 3 network-cost 50
a=candidate:3412246726 1 udp 2122063615 192.0.2.2 51315 typ host generation 0 network-id 1
a=candidate:1055793370 1 udp 2122267903 ::1 54886 typ host generation 0 network-id 4 network-cost 50
a=candidate:262438 1 udp 2122134271 fd00::2 39238 typ host generation 0 network-id 2
a=candidate:3513312966 1 tcp 1518214911 127.0.0.1 9 typ host tcptype active generation 0 network-id 3 network-cost 50
a=candidate:902304850 1 tcp 1518083839 192.0.2.2 9 typ host tcptype active generation 0 network-id 1
a=candidate:3225744462 1 tcp 1518288127 ::1 9 typ host tcptype active generation 0 network-id 4 network-cost 50
a=candidate:4272870834 1 tcp 1518154495 fd00::2 9 typ host tcptype active generation 0 network-id 2
a=ice-ufrag:WD5l
a=ice-pwd:IFpYnV5Y/W6epRkjP9hocFkO
a=ice-options:trickle
a=fingerprint:sha-256 89:2C:97:12:CB:79:80:E7:BC:90:90:8A:82:CA:A8:47:A6:A4:C0:9E:6C:D2:CA:D5:FD:16:CD:6C:54:DB:08:84
a=setup:actpass
a=mid:0
a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level
a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid
a=sendonly
a=msid:ae70910c-1f83-463f-8ab0-efceedb6a1ba d051bd2b-c43a-443c-b58e-b5038c965f8f
a=rtcp-mux
a=rtcp-rsize
a=rtcp-xr:rcvr-rtt=all
a=rtpmap:111 opus/48000/2
a=rtcp-fb:111 transport-cc
a=fmtp:111 minptime=10;useinbandfec=1
a=rtpmap:63 red/48000/2
a=fmtp:63 111/111
a=rtpmap:9 G722/8000
a=rtpmap:0 PCMU/8000
a=rtpmap:8 PCMA/8000
a=rtpmap:13 CN/8000
a=rtpmap:110 telephone-event/48000
a=rtpmap:126 telephone-event/8000
a=ssrc:125456982 cname:oKumqTFXS/wOPwed
a=ssrc:125456982 msid:ae70910c-1f83-463f-8ab0-efceedb6a1ba d051bd2b-c43a-443c-b58e-b5038c965f8f
m=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103 104 107 108 109 114 115 116 117 39 40 45 46 98 99 100 101 118 119 120
c=IN IP4 0.0.0.0
a=rtcp:9 IN IP4 0.0.0.0
a=ice-ufrag:WD5l
a=ice-pwd:IFpYnV5Y/W6epRkjP9hocFkO
a=ice-options:trickle
a=fingerprint:sha-256 89:2C:97:12:CB:79:80:E7:BC:90:90:8A:82:CA:A8:47:A6:A4:C0:9E:6C:D2:CA:D5:FD:16:CD:6C:54:DB:08:84
a=setup:actpass
a=mid:1
a=extmap:14 urn:ietf:params:rtp-hdrext:toffset
a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=extmap:13 urn:3gpp:video-orientation
a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=extmap:5 http://www.webrtc.org/experiments/rtp-hdrext/playout-delay
a=extmap:6 http://www.webrtc.org/experiments/rtp-hdrext/video-content-type
a=extmap:7 http://www.webrtc.org/experiments/rtp-hdrext/video-timing
a=extmap:8 http://www.webrtc.org/experiments/rtp-hdrext/color-space
a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:10 urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id
a=extmap:11 urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id
a=sendonly
a=msid:ae70910c-1f83-463f-8ab0-efceedb6a1ba 88a19576-7f4a-494f-bbad-200f4732de7f
a=rtcp-mux
a=rtcp-rsize
a=rtcp-xr:rcvr-rtt=all
a=rtpmap:96 VP8/90000
a=rtcp-fb:96 goog-remb
a=rtcp-fb:96 transport-cc
a=rtcp-fb:96 ccm fir
a=rtcp-fb:96 nack
a=rtcp-fb:96 nack pli
a=rtpmap:97 rtx/90000
a=fmtp:97 apt=96
a=rtpmap:102 H264/90000
a=rtcp-fb:102 goog-remb
a=rtcp-fb:102 transport-cc
a=rtcp-fb:102 ccm fir
a=rtcp-fb:102 nack
a=rtcp-fb:102 nack pli
a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f
a=rtpmap:103 rtx/90000
a=fmtp:103 apt=102
a=rtpmap:104 H264/90000
a=rtcp-fb:104 goog-remb
a=rtcp-fb:104 transport-cc
a=rtcp-fb:104 ccm fir
a=rtcp-fb:104 nack
a=rtcp-fb:104 nack pli
a=fmtp:104 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f
a=rtpmap:107 rtx/90000
a=fmtp:107 apt=104
a=rtpmap:108 H264/90000
a=rtcp-fb:108 goog-remb
a=rtcp-fb:108 transport-cc
a=rtcp-fb:108 ccm fir
a=rtcp-fb:108 nack
a=rtcp-fb:108 nack pli
a=fmtp:108 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f
a=rtpmap:109 rtx/90000
a=fmtp:109 apt=108
a=rtpmap:114 H264/90000
a=rtcp-fb:114 goog-remb
a=rtcp-fb:114 transport-cc
a=rtcp-fb:114 ccm fir
a=rtcp-fb:114 nack
a=rtcp-fb:114 nack pli
a=fmtp:114 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f
a=rtpmap:115 rtx/90000
a=fmtp:115 apt=114
a=rtpmap:116 H264/90000
a=rtcp-fb:116 goog-remb
a=rtcp-fb:116 transport-cc
a=rtcp-fb:116 ccm fir
a=rtcp-fb:116 nack
a=rtcp-fb:116 nack pli
a=fmtp:116 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f
a=rtpmap:117 rtx/90000
a=fmtp:117 apt=116
a=rtpmap:39 H264/90000
a=rtcp-fb:39 goog-remb
a=rtcp-fb:39 transport-cc
a=rtcp-fb:39 ccm fir
a=rtcp-fb:39 nack
a=rtcp-fb:39 nack pli
a=fmtp:39 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=4d001f
a=rtpmap:40 rtx/90000
a=fmtp:40 apt=39
a=rtpmap:45 AV1/90000
a=rtcp-fb:45 goog-remb
a=rtcp-fb:45 transport-cc
a=rtcp-fb:45 ccm fir
a=rtcp-fb:45 nack
a=rtcp-fb:45 nack pli
a=fmtp:45 level-idx=5;profile=0;tier=0
a=rtpmap:46 rtx/90000
a=fmtp:46 apt=45
a=rtpmap:98 VP9/90000
a=rtcp-fb:98 goog-remb
a=rtcp-fb:98 transport-cc
a=rtcp-fb:98 ccm fir
a=rtcp-fb:98 nack
a=rtcp-fb:98 nack pli
a=fmtp:98 profile-id=0
a=rtpmap:99 rtx/90000
a=fmtp:99 apt=98
a=rtpmap:100 VP9/90000
a=rtcp-fb:100 goog-remb
a=rtcp-fb:100 transport-cc
a=rtcp-fb:100 ccm fir
a=rtcp-fb:100 nack
a=rtcp-fb:100 nack pli
a=fmtp:100 profile-id=2
a=rtpmap:101 rtx/90000
a=fmtp:101 apt=100
a=rtpmap:118 red/90000
a=rtpmap:119 rtx/90000
a=fmtp:119 apt=118
a=rtpmap:120 ulpfec/90000
a=ssrc-group:FID 3697550976 2661880327
a=ssrc:3697550976 cname:oKumqTFXS/wOPwed
a=ssrc:3697550976 msid:ae70910c-1f83-463f-8ab0-efceedb6a1ba 88a19576-7f4a-494f-bbad-200f4732de7f
a=ssrc:2661880327 cname:oKumqTFXS/wOPwed
a=ssrc:2661880327 msid:ae70910c-1f83-463f-8ab0-efceedb6a1ba 88a19576-7f4a-494f-bbad-200f4732de7f
m=application 9 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 0.0.0.0
a=ice-ufrag:WD5l
a=ice-pwd:IFpYnV5Y/W6epRkjP9hocFkO
a=ice-options:trickle
a=fingerprint:sha-256 89:2C:97:12:CB:79:80:E7:BC:90:90:8A:82:CA:A8:47:A6:A4:C0:9E:6C:D2:CA:D5:FD:16:CD:6C:54:DB:08:84
a=setup:actpass
a=mid:2
a=sctp-port:5000
a=max-message-size:262144
"""#

    /// Witnessed: Chromium 156.0.8078.114: camera with sendEncodings rid h, m, l.
    static let chromium156Simulcast = #"""
v=0
o=- 1572949621072496718 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0
a=extmap-allow-mixed
a=msid-semantic: WMS ae70910c-1f83-463f-8ab0-efceedb6a1ba
m=video 9 UDP/TLS/RTP/SAVPF 96 97 102 103 104 107 108 109 114 115 116 117 39 40 45 46 98 99 100 101 118 119 120
c=IN IP4 0.0.0.0
a=rtcp:9 IN IP4 0.0.0.0
a=ice-ufrag:7n2m
a=ice-pwd:AteJ7duLLgqCiJrAL49qXLRV
a=ice-options:trickle
a=fingerprint:sha-256 E6:C7:C4:8C:86:FD:FB:42:2E:BB:F0:CF:2C:B4:A8:F2:CF:7C:86:51:84:BC:F5:E8:EB:2B:49:E6:8B:DA:67:E7
a=setup:actpass
a=mid:0
a=extmap:1 urn:ietf:params:rtp-hdrext:toffset
a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=extmap:3 urn:3gpp:video-orientation
a=extmap:4 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=extmap:5 http://www.webrtc.org/experiments/rtp-hdrext/playout-delay
a=extmap:6 http://www.webrtc.org/experiments/rtp-hdrext/video-content-type
a=extmap:7 http://www.webrtc.org/experiments/rtp-hdrext/video-timing
a=extmap:8 http://www.webrtc.org/experiments/rtp-hdrext/color-space
a=extmap:9 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:10 urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id
a=extmap:11 urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id
a=extmap:13 https://aomediacodec.github.io/av1-rtp-spec/#dependency-descriptor-rtp-header-extension
a=extmap:14 http://www.webrtc.org/experiments/rtp-hdrext/video-layers-allocation00
a=sendonly
a=msid:ae70910c-1f83-463f-8ab0-efceedb6a1ba 88a19576-7f4a-494f-bbad-200f4732de7f
a=rtcp-mux
a=rtcp-rsize
a=rtcp-xr:rcvr-rtt=all
a=rtpmap:96 VP8/90000
a=rtcp-fb:96 goog-remb
a=rtcp-fb:96 transport-cc
a=rtcp-fb:96 ccm fir
a=rtcp-fb:96 nack
a=rtcp-fb:96 nack pli
a=rtpmap:97 rtx/90000
a=fmtp:97 apt=96
a=rtpmap:102 H264/90000
a=rtcp-fb:102 goog-remb
a=rtcp-fb:102 transport-cc
a=rtcp-fb:102 ccm fir
a=rtcp-fb:102 nack
a=rtcp-fb:102 nack pli
a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f
a=rtpmap:103 rtx/90000
a=fmtp:103 apt=102
a=rtpmap:104 H264/90000
a=rtcp-fb:104 goog-remb
a=rtcp-fb:104 transport-cc
a=rtcp-fb:104 ccm fir
a=rtcp-fb:104 nack
a=rtcp-fb:104 nack pli
a=fmtp:104 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f
a=rtpmap:107 rtx/90000
a=fmtp:107 apt=104
a=rtpmap:108 H264/90000
a=rtcp-fb:108 goog-remb
a=rtcp-fb:108 transport-cc
a=rtcp-fb:108 ccm fir
a=rtcp-fb:108 nack
a=rtcp-fb:108 nack pli
a=fmtp:108 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f
a=rtpmap:109 rtx/90000
a=fmtp:109 apt=108
a=rtpmap:114 H264/90000
a=rtcp-fb:114 goog-remb
a=rtcp-fb:114 transport-cc
a=rtcp-fb:114 ccm fir
a=rtcp-fb:114 nack
a=rtcp-fb:114 nack pli
a=fmtp:114 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f
a=rtpmap:115 rtx/90000
a=fmtp:115 apt=114
a=rtpmap:116 H264/90000
a=rtcp-fb:116 goog-remb
a=rtcp-fb:116 transport-cc
a=rtcp-fb:116 ccm fir
a=rtcp-fb:116 nack
a=rtcp-fb:116 nack pli
a=fmtp:116 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f
a=rtpmap:117 rtx/90000
a=fmtp:117 apt=116
a=rtpmap:39 H264/90000
a=rtcp-fb:39 goog-remb
a=rtcp-fb:39 transport-cc
a=rtcp-fb:39 ccm fir
a=rtcp-fb:39 nack
a=rtcp-fb:39 nack pli
a=fmtp:39 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=4d001f
a=rtpmap:40 rtx/90000
a=fmtp:40 apt=39
a=rtpmap:45 AV1/90000
a=rtcp-fb:45 goog-remb
a=rtcp-fb:45 transport-cc
a=rtcp-fb:45 ccm fir
a=rtcp-fb:45 nack
a=rtcp-fb:45 nack pli
a=fmtp:45 level-idx=5;profile=0;tier=0
a=rtpmap:46 rtx/90000
a=fmtp:46 apt=45
a=rtpmap:98 VP9/90000
a=rtcp-fb:98 goog-remb
a=rtcp-fb:98 transport-cc
a=rtcp-fb:98 ccm fir
a=rtcp-fb:98 nack
a=rtcp-fb:98 nack pli
a=fmtp:98 profile-id=0
a=rtpmap:99 rtx/90000
a=fmtp:99 apt=98
a=rtpmap:100 VP9/90000
a=rtcp-fb:100 goog-remb
a=rtcp-fb:100 transport-cc
a=rtcp-fb:100 ccm fir
a=rtcp-fb:100 nack
a=rtcp-fb:100 nack pli
a=fmtp:100 profile-id=2
a=rtpmap:101 rtx/90000
a=fmtp:101 apt=100
a=rtpmap:118 red/90000
a=rtpmap:119 rtx/90000
a=fmtp:119 apt=118
a=rtpmap:120 ulpfec/90000
a=rid:h send
a=rid:m send
a=rid:l send
a=simulcast:send h;m;l
"""#

    /// Witnessed: Chromium 156.0.8078.114: addTransceiver(audio and video, recvonly).
    static let chromium156Recvonly = #"""
v=0
o=- 7456414656858291847 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0 1
a=extmap-allow-mixed
a=msid-semantic: WMS
m=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126
c=IN IP4 0.0.0.0
a=rtcp:9 IN IP4 0.0.0.0
a=ice-ufrag:3heC
a=ice-pwd:X/d8wf+vcGTtRojRBRDVk3Cc
a=ice-options:trickle
a=fingerprint:sha-256 48:7F:24:76:C1:D7:9A:D0:F8:45:8A:F8:D6:9F:BA:B2:B0:19:F5:31:C3:99:AF:BD:98:BD:5A:79:EE:1D:01:07
a=setup:actpass
a=mid:0
a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level
a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid
a=recvonly
a=rtcp-mux
a=rtcp-rsize
a=rtcp-xr:rcvr-rtt=all
a=rtpmap:111 opus/48000/2
a=rtcp-fb:111 transport-cc
a=fmtp:111 minptime=10;useinbandfec=1
a=rtpmap:63 red/48000/2
a=fmtp:63 111/111
a=rtpmap:9 G722/8000
a=rtpmap:0 PCMU/8000
a=rtpmap:8 PCMA/8000
a=rtpmap:13 CN/8000
a=rtpmap:110 telephone-event/48000
a=rtpmap:126 telephone-event/8000
m=video 9 UDP/TLS/RTP/SAVPF 96 97 98 99 100 101 35 36 37 38 102 103 104 107 108 109 114 115 116 117 39 40 41 42 43 44 45 46 47 48 118 119 120 49
c=IN IP4 0.0.0.0
a=rtcp:9 IN IP4 0.0.0.0
a=ice-ufrag:3heC
a=ice-pwd:X/d8wf+vcGTtRojRBRDVk3Cc
a=ice-options:trickle
a=fingerprint:sha-256 48:7F:24:76:C1:D7:9A:D0:F8:45:8A:F8:D6:9F:BA:B2:B0:19:F5:31:C3:99:AF:BD:98:BD:5A:79:EE:1D:01:07
a=setup:actpass
a=mid:1
a=extmap:14 urn:ietf:params:rtp-hdrext:toffset
a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=extmap:13 urn:3gpp:video-orientation
a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=extmap:5 http://www.webrtc.org/experiments/rtp-hdrext/playout-delay
a=extmap:6 http://www.webrtc.org/experiments/rtp-hdrext/video-content-type
a=extmap:7 http://www.webrtc.org/experiments/rtp-hdrext/video-timing
a=extmap:8 http://www.webrtc.org/experiments/rtp-hdrext/color-space
a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:10 urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id
a=extmap:11 urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id
a=recvonly
a=rtcp-mux
a=rtcp-rsize
a=rtcp-xr:rcvr-rtt=all
a=rtpmap:96 VP8/90000
a=rtcp-fb:96 goog-remb
a=rtcp-fb:96 transport-cc
a=rtcp-fb:96 ccm fir
a=rtcp-fb:96 nack
a=rtcp-fb:96 nack pli
a=rtpmap:97 rtx/90000
a=fmtp:97 apt=96
a=rtpmap:98 VP9/90000
a=rtcp-fb:98 goog-remb
a=rtcp-fb:98 transport-cc
a=rtcp-fb:98 ccm fir
a=rtcp-fb:98 nack
a=rtcp-fb:98 nack pli
a=fmtp:98 profile-id=0
a=rtpmap:99 rtx/90000
a=fmtp:99 apt=98
a=rtpmap:100 VP9/90000
a=rtcp-fb:100 goog-remb
a=rtcp-fb:100 transport-cc
a=rtcp-fb:100 ccm fir
a=rtcp-fb:100 nack
a=rtcp-fb:100 nack pli
a=fmtp:100 profile-id=2
a=rtpmap:101 rtx/90000
a=fmtp:101 apt=100
a=rtpmap:35 VP9/90000
a=rtcp-fb:35 goog-remb
a=rtcp-fb:35 transport-cc
a=rtcp-fb:35 ccm fir
a=rtcp-fb:35 nack
a=rtcp-fb:35 nack pli
a=fmtp:35 profile-id=1
a=rtpmap:36 rtx/90000
a=fmtp:36 apt=35
a=rtpmap:37 VP9/90000
a=rtcp-fb:37 goog-remb
a=rtcp-fb:37 transport-cc
a=rtcp-fb:37 ccm fir
a=rtcp-fb:37 nack
a=rtcp-fb:37 nack pli
a=fmtp:37 profile-id=3
a=rtpmap:38 rtx/90000
a=fmtp:38 apt=37
a=rtpmap:102 H264/90000
a=rtcp-fb:102 goog-remb
a=rtcp-fb:102 transport-cc
a=rtcp-fb:102 ccm fir
a=rtcp-fb:102 nack
a=rtcp-fb:102 nack pli
a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f
a=rtpmap:103 rtx/90000
a=fmtp:103 apt=102
a=rtpmap:104 H264/90000
a=rtcp-fb:104 goog-remb
a=rtcp-fb:104 transport-cc
a=rtcp-fb:104 ccm fir
a=rtcp-fb:104 nack
a=rtcp-fb:104 nack pli
a=fmtp:104 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f
a=rtpmap:107 rtx/90000
a=fmtp:107 apt=104
a=rtpmap:108 H264/90000
a=rtcp-fb:108 goog-remb
a=rtcp-fb:108 transport-cc
a=rtcp-fb:108 ccm fir
a=rtcp-fb:108 nack
a=rtcp-fb:108 nack pli
a=fmtp:108 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f
a=rtpmap:109 rtx/90000
a=fmtp:109 apt=108
a=rtpmap:114 H264/90000
a=rtcp-fb:114 goog-remb
a=rtcp-fb:114 transport-cc
a=rtcp-fb:114 ccm fir
a=rtcp-fb:114 nack
a=rtcp-fb:114 nack pli
a=fmtp:114 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f
a=rtpmap:115 rtx/90000
a=fmtp:115 apt=114
a=rtpmap:116 H264/90000
a=rtcp-fb:116 goog-remb
a=rtcp-fb:116 transport-cc
a=rtcp-fb:116 ccm fir
a=rtcp-fb:116 nack
a=rtcp-fb:116 nack pli
a=fmtp:116 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f
a=rtpmap:117 rtx/90000
a=fmtp:117 apt=116
a=rtpmap:39 H264/90000
a=rtcp-fb:39 goog-remb
a=rtcp-fb:39 transport-cc
a=rtcp-fb:39 ccm fir
a=rtcp-fb:39 nack
a=rtcp-fb:39 nack pli
a=fmtp:39 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=4d001f
a=rtpmap:40 rtx/90000
a=fmtp:40 apt=39
a=rtpmap:41 H264/90000
a=rtcp-fb:41 goog-remb
a=rtcp-fb:41 transport-cc
a=rtcp-fb:41 ccm fir
a=rtcp-fb:41 nack
a=rtcp-fb:41 nack pli
a=fmtp:41 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=f4001f
a=rtpmap:42 rtx/90000
a=fmtp:42 apt=41
a=rtpmap:43 H264/90000
a=rtcp-fb:43 goog-remb
a=rtcp-fb:43 transport-cc
a=rtcp-fb:43 ccm fir
a=rtcp-fb:43 nack
a=rtcp-fb:43 nack pli
a=fmtp:43 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=f4001f
a=rtpmap:44 rtx/90000
a=fmtp:44 apt=43
a=rtpmap:45 AV1/90000
a=rtcp-fb:45 goog-remb
a=rtcp-fb:45 transport-cc
a=rtcp-fb:45 ccm fir
a=rtcp-fb:45 nack
a=rtcp-fb:45 nack pli
a=fmtp:45 level-idx=5;profile=0;tier=0
a=rtpmap:46 rtx/90000
a=fmtp:46 apt=45
a=rtpmap:47 AV1/90000
a=rtcp-fb:47 goog-remb
a=rtcp-fb:47 transport-cc
a=rtcp-fb:47 ccm fir
a=rtcp-fb:47 nack
a=rtcp-fb:47 nack pli
a=fmtp:47 level-idx=5;profile=1;tier=0
a=rtpmap:48 rtx/90000
a=fmtp:48 apt=47
a=rtpmap:118 red/90000
a=rtpmap:119 rtx/90000
a=fmtp:119 apt=118
a=rtpmap:120 ulpfec/90000
a=rtpmap:49 flexfec-03/90000
a=rtcp-fb:49 goog-remb
a=rtcp-fb:49 transport-cc
a=fmtp:49 repair-window=10000000
"""#

    /// Witnessed: Chromium 156.0.8078.114: createDataChannel only.
    static let chromium156DataChannel = #"""
v=0
o=- 3735803921936767310 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0
a=extmap-allow-mixed
a=msid-semantic: WMS
m=application 9 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 0.0.0.0
a=ice-ufrag:y2+6
a=ice-pwd:PIqKTrNGLvr9XBmhUoLWMnDY
a=ice-options:trickle
a=fingerprint:sha-256 45:A0:A9:DD:97:3A:17:D4:1C:80:89:06:7C:B3:E0:F3:01:8D:A6:55:02:0F:E4:C8:B7:87:CA:BD:D5:76:12:3D
a=setup:actpass
a=mid:0
a=sctp-port:5000
a=max-message-size:262144
"""#

    /// Witnessed: Chromium 156.0.8078.114: camera, setCodecPreferences(every H264 entry of RTCRtpSender.getCapabilities).
    static let chromium156H264Only = #"""
v=0
o=- 2389211026629330118 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0
a=extmap-allow-mixed
a=msid-semantic: WMS 03c42500-9bf2-4b67-b1dc-73f4765d9243
m=video 37709 UDP/TLS/RTP/SAVPF 102 104 108 114 116 39
c=IN IP4 127.0.0.1
a=rtcp:9 IN IP4 0.0.0.0
a=candidate:1374862168 1 udp 2122194687 127.0.0.1 37709 typ host generation 0 network-id 3 network-cost 50
a=candidate:4291765460 1 udp 2122063615 192.0.2.2 37230 typ host generation 0 network-id 1
a=candidate:2095804291 1 udp 2122267903 ::1 49405 typ host generation 0 network-id 4 network-cost 50
a=candidate:4173154404 1 udp 2122134271 fd00::2 40564 typ host generation 0 network-id 2
a=ice-ufrag:2aAU
a=ice-pwd:HGD7NWtvjHv1z+W1rx6+uxdc
a=ice-options:trickle
a=fingerprint:sha-256 C5:74:39:0C:68:E4:67:D7:88:E7:86:62:8F:84:EF:2D:91:6E:16:27:88:EA:71:5E:FF:EB:70:9D:A3:9C:AA:65
a=setup:actpass
a=mid:0
a=extmap:1 urn:ietf:params:rtp-hdrext:toffset
a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=extmap:3 urn:3gpp:video-orientation
a=extmap:4 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=extmap:5 http://www.webrtc.org/experiments/rtp-hdrext/playout-delay
a=extmap:6 http://www.webrtc.org/experiments/rtp-hdrext/video-content-type
a=extmap:7 http://www.webrtc.org/experiments/rtp-hdrext/video-timing
a=extmap:8 http://www.webrtc.org/experiments/rtp-hdrext/color-space
a=extmap:9 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:10 urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id
a=extmap:11 urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id
a=sendonly
a=msid:03c42500-9bf2-4b67-b1dc-73f4765d9243 ea6f071f-7c43-4e88-b133-c7674daf4a53
a=rtcp-mux
a=rtcp-rsize
a=rtcp-xr:rcvr-rtt=all
a=rtpmap:102 H264/90000
a=rtcp-fb:102 goog-remb
a=rtcp-fb:102 transport-cc
a=rtcp-fb:102 ccm fir
a=rtcp-fb:102 nack
a=rtcp-fb:102 nack pli
a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f
a=rtpmap:104 H264/90000
a=rtcp-fb:104 goog-remb
a=rtcp-fb:104 transport-cc
a=rtcp-fb:104 ccm fir
a=rtcp-fb:104 nack
a=rtcp-fb:104 nack pli
a=fmtp:104 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f
a=rtpmap:108 H264/90000
a=rtcp-fb:108 goog-remb
a=rtcp-fb:108 transport-cc
a=rtcp-fb:108 ccm fir
a=rtcp-fb:108 nack
a=rtcp-fb:108 nack pli
a=fmtp:108 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f
a=rtpmap:114 H264/90000
a=rtcp-fb:114 goog-remb
a=rtcp-fb:114 transport-cc
a=rtcp-fb:114 ccm fir
a=rtcp-fb:114 nack
a=rtcp-fb:114 nack pli
a=fmtp:114 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f
a=rtpmap:116 H264/90000
a=rtcp-fb:116 goog-remb
a=rtcp-fb:116 transport-cc
a=rtcp-fb:116 ccm fir
a=rtcp-fb:116 nack
a=rtcp-fb:116 nack pli
a=fmtp:116 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f
a=rtpmap:39 H264/90000
a=rtcp-fb:39 goog-remb
a=rtcp-fb:39 transport-cc
a=rtcp-fb:39 ccm fir
a=rtcp-fb:39 nack
a=rtcp-fb:39 nack pli
a=fmtp:39 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=4d001f
a=ssrc:1697171843 cname:zGT9uRQ6tz0xhYOq
a=ssrc:1697171843 msid:03c42500-9bf2-4b67-b1dc-73f4765d9243 ea6f071f-7c43-4e88-b133-c7674daf4a53
"""#

    /// Witnessed: Chromium 156.0.8078.114: camera, setCodecPreferences(the H264 entries with packetization-mode=0).
    static let chromium156H264Mode0Only = #"""
v=0
o=- 5571911562678654075 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0
a=extmap-allow-mixed
a=msid-semantic: WMS 03c42500-9bf2-4b67-b1dc-73f4765d9243
m=video 38261 UDP/TLS/RTP/SAVPF 104 114 39
c=IN IP4 127.0.0.1
a=rtcp:9 IN IP4 0.0.0.0
a=candidate:4095334321 1 udp 2122194687 127.0.0.1 38261 typ host generation 0 network-id 3 network-cost 50
a=candidate:280569125 1 udp 2122063615 192.0.2.2 55948 typ host generation 0 network-id 1
a=candidate:3845506361 1 udp 2122267903 ::1 50895 typ host generation 0 network-id 4 network-cost 50
a=candidate:3688883397 1 udp 2122134271 fd00::2 44135 typ host generation 0 network-id 2
a=ice-ufrag:QGSm
a=ice-pwd:GBSx06SUJzFKa/4XbLZxAnG5
a=ice-options:trickle
a=fingerprint:sha-256 B2:8A:C8:6C:4D:8C:3B:A8:C6:7A:C1:B7:F6:12:D9:D8:30:1A:48:0E:08:97:DE:69:DA:98:86:90:D1:8F:CB:0D
a=setup:actpass
a=mid:0
a=extmap:1 urn:ietf:params:rtp-hdrext:toffset
a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=extmap:3 urn:3gpp:video-orientation
a=extmap:4 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=extmap:5 http://www.webrtc.org/experiments/rtp-hdrext/playout-delay
a=extmap:6 http://www.webrtc.org/experiments/rtp-hdrext/video-content-type
a=extmap:7 http://www.webrtc.org/experiments/rtp-hdrext/video-timing
a=extmap:8 http://www.webrtc.org/experiments/rtp-hdrext/color-space
a=extmap:9 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:10 urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id
a=extmap:11 urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id
a=sendonly
a=msid:03c42500-9bf2-4b67-b1dc-73f4765d9243 ea6f071f-7c43-4e88-b133-c7674daf4a53
a=rtcp-mux
a=rtcp-rsize
a=rtcp-xr:rcvr-rtt=all
a=rtpmap:104 H264/90000
a=rtcp-fb:104 goog-remb
a=rtcp-fb:104 transport-cc
a=rtcp-fb:104 ccm fir
a=rtcp-fb:104 nack
a=rtcp-fb:104 nack pli
a=fmtp:104 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f
a=rtpmap:114 H264/90000
a=rtcp-fb:114 goog-remb
a=rtcp-fb:114 transport-cc
a=rtcp-fb:114 ccm fir
a=rtcp-fb:114 nack
a=rtcp-fb:114 nack pli
a=fmtp:114 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f
a=rtpmap:39 H264/90000
a=rtcp-fb:39 goog-remb
a=rtcp-fb:39 transport-cc
a=rtcp-fb:39 ccm fir
a=rtcp-fb:39 nack
a=rtcp-fb:39 nack pli
a=fmtp:39 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=4d001f
a=ssrc:3944835354 cname:E+/G4YKshBMyLOES
a=ssrc:3944835354 msid:03c42500-9bf2-4b67-b1dc-73f4765d9243 ea6f071f-7c43-4e88-b133-c7674daf4a53
"""#

    /// Witnessed: Firefox ESR 153.8.0 (Debian 12), headless with fake media: mic and camera sendonly plus a data channel, max-bundle (note a=bundle-only with port 0).
    static let firefox153Camera = #"""
v=0
o=mozilla...THIS_IS_SDPARTA-99.0 7282257033000924902 0 IN IP4 0.0.0.0
s=-
t=0 0
a=sendrecv
a=fingerprint:sha-256 A4:53:09:4C:63:21:FE:70:D2:2A:1D:6A:69:54:E3:D1:68:E5:FC:C6:49:22:45:78:85:08:7C:16:AC:58:D9:97
a=group:BUNDLE 0 1 2
a=ice-options:trickle
a=msid-semantic:WMS *
m=audio 42472 UDP/TLS/RTP/SAVPF 109 9 0 8 101
c=IN IP4 192.0.2.2
a=candidate:0 1 UDP 2122187007 192.0.2.2 42472 typ host
a=candidate:1 1 UDP 2122252543 fd00::2 48622 typ host
a=candidate:2 1 TCP 2105458943 192.0.2.2 9 typ host tcptype active
a=candidate:3 1 TCP 2105524479 fd00::2 9 typ host tcptype active
a=candidate:0 2 UDP 2122187006 192.0.2.2 54485 typ host
a=candidate:1 2 UDP 2122252542 fd00::2 59095 typ host
a=candidate:2 2 TCP 2105458942 192.0.2.2 9 typ host tcptype active
a=candidate:3 2 TCP 2105524478 fd00::2 9 typ host tcptype active
a=sendonly
a=end-of-candidates
a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level
a=extmap:2/recvonly urn:ietf:params:rtp-hdrext:csrc-audio-level
a=extmap:3 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:7 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=extmap-allow-mixed
a=fmtp:109 maxplaybackrate=48000;stereo=1;useinbandfec=1
a=fmtp:101 0-15
a=ice-pwd:04716495c586820e43f08793acb426f6
a=ice-ufrag:4f29fe01
a=mid:0
a=msid:{538997ab-0728-4aed-91db-3e48096dbedd} {606564a8-747b-4731-99c3-a419a79e5588}
a=rtcp:54485 IN IP4 192.0.2.2
a=rtcp-fb:109 transport-cc
a=rtcp-fb:9 transport-cc
a=rtcp-fb:0 transport-cc
a=rtcp-fb:8 transport-cc
a=rtcp-mux
a=rtpmap:109 opus/48000/2
a=rtpmap:9 G722/8000/1
a=rtpmap:0 PCMU/8000
a=rtpmap:8 PCMA/8000
a=rtpmap:101 telephone-event/8000
a=setup:actpass
a=ssrc:1785811388 cname:{1cad27e6-2b97-4f44-942a-8efc62c16e35}
m=video 0 UDP/TLS/RTP/SAVPF 120 124 121 125 99 100 123 122 119
c=IN IP4 0.0.0.0
a=bundle-only
a=sendonly
a=extmap:3 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:4 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=extmap:5 urn:ietf:params:rtp-hdrext:toffset
a=extmap:6/recvonly http://www.webrtc.org/experiments/rtp-hdrext/playout-delay
a=extmap:7 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=extmap-allow-mixed
a=fmtp:120 max-fs=12288;max-fr=60
a=fmtp:124 apt=120
a=fmtp:121 max-fs=12288;max-fr=60
a=fmtp:125 apt=121
a=fmtp:100 apt=99
a=fmtp:119 apt=122
a=ice-pwd:04716495c586820e43f08793acb426f6
a=ice-ufrag:4f29fe01
a=mid:1
a=msid:{538997ab-0728-4aed-91db-3e48096dbedd} {66c6271b-1d98-40f6-b9d9-5c67be28aae5}
a=rtcp-fb:120 nack
a=rtcp-fb:120 nack pli
a=rtcp-fb:120 ccm fir
a=rtcp-fb:120 goog-remb
a=rtcp-fb:120 transport-cc
a=rtcp-fb:121 nack
a=rtcp-fb:121 nack pli
a=rtcp-fb:121 ccm fir
a=rtcp-fb:121 goog-remb
a=rtcp-fb:121 transport-cc
a=rtcp-fb:99 nack
a=rtcp-fb:99 nack pli
a=rtcp-fb:99 ccm fir
a=rtcp-fb:99 goog-remb
a=rtcp-fb:99 transport-cc
a=rtcp-fb:123 nack
a=rtcp-fb:123 nack pli
a=rtcp-fb:123 ccm fir
a=rtcp-fb:123 goog-remb
a=rtcp-fb:123 transport-cc
a=rtcp-fb:122 nack
a=rtcp-fb:122 nack pli
a=rtcp-fb:122 ccm fir
a=rtcp-fb:122 goog-remb
a=rtcp-fb:122 transport-cc
a=rtcp-mux
a=rtcp-rsize
a=rtpmap:120 VP8/90000
a=rtpmap:124 rtx/90000
a=rtpmap:121 VP9/90000
a=rtpmap:125 rtx/90000
a=rtpmap:99 AV1/90000
a=rtpmap:100 rtx/90000
a=rtpmap:123 ulpfec/90000
a=rtpmap:122 red/90000
a=rtpmap:119 rtx/90000
a=setup:actpass
a=ssrc:997039103 cname:{1cad27e6-2b97-4f44-942a-8efc62c16e35}
a=ssrc:651653253 cname:{1cad27e6-2b97-4f44-942a-8efc62c16e35}
a=ssrc-group:FID 997039103 651653253
m=application 0 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 0.0.0.0
a=bundle-only
a=sendrecv
a=ice-pwd:04716495c586820e43f08793acb426f6
a=ice-ufrag:4f29fe01
a=mid:2
a=setup:actpass
a=sctp-port:5000
a=max-message-size:1073741823
"""#

    /// Witnessed: Firefox ESR 153.8.0: camera with sendEncodings rid h, m, l.
    static let firefox153Simulcast = #"""
v=0
o=mozilla...THIS_IS_SDPARTA-99.0 353150877631429647 0 IN IP4 0.0.0.0
s=-
t=0 0
a=fingerprint:sha-256 4F:23:35:51:5F:80:A5:AE:A4:D9:E4:82:14:0D:4F:DB:F5:DE:14:4B:E9:19:D5:EE:48:D0:35:48:3C:F8:3E:73
a=group:BUNDLE 0
a=ice-options:trickle
a=msid-semantic:WMS *
m=video 9 UDP/TLS/RTP/SAVPF 120 124 121 125 99 100 123 122 119
c=IN IP4 0.0.0.0
a=sendonly
a=extmap:3 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:4 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=extmap:5 urn:ietf:params:rtp-hdrext:toffset
a=extmap:6/recvonly http://www.webrtc.org/experiments/rtp-hdrext/playout-delay
a=extmap:7 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=extmap:8/sendonly https://aomediacodec.github.io/av1-rtp-spec/#dependency-descriptor-rtp-header-extension
a=extmap:9/sendonly urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id
a=extmap:10/sendonly urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id
a=extmap-allow-mixed
a=fmtp:120 max-fs=12288;max-fr=60
a=fmtp:124 apt=120
a=fmtp:121 max-fs=12288;max-fr=60
a=fmtp:125 apt=121
a=fmtp:100 apt=99
a=fmtp:119 apt=122
a=ice-pwd:b42898080b63d81e56588894ed090d13
a=ice-ufrag:a5af559a
a=mid:0
a=msid:{538997ab-0728-4aed-91db-3e48096dbedd} {b72d2029-0303-4b8c-8fb6-224882d311c5}
a=rid:h send
a=rid:m send
a=rid:l send
a=rtcp-fb:120 nack
a=rtcp-fb:120 nack pli
a=rtcp-fb:120 ccm fir
a=rtcp-fb:120 goog-remb
a=rtcp-fb:120 transport-cc
a=rtcp-fb:121 nack
a=rtcp-fb:121 nack pli
a=rtcp-fb:121 ccm fir
a=rtcp-fb:121 goog-remb
a=rtcp-fb:121 transport-cc
a=rtcp-fb:99 nack
a=rtcp-fb:99 nack pli
a=rtcp-fb:99 ccm fir
a=rtcp-fb:99 goog-remb
a=rtcp-fb:99 transport-cc
a=rtcp-fb:123 nack
a=rtcp-fb:123 nack pli
a=rtcp-fb:123 ccm fir
a=rtcp-fb:123 goog-remb
a=rtcp-fb:123 transport-cc
a=rtcp-fb:122 nack
a=rtcp-fb:122 nack pli
a=rtcp-fb:122 ccm fir
a=rtcp-fb:122 goog-remb
a=rtcp-fb:122 transport-cc
a=rtcp-mux
a=rtcp-rsize
a=rtpmap:120 VP8/90000
a=rtpmap:124 rtx/90000
a=rtpmap:121 VP9/90000
a=rtpmap:125 rtx/90000
a=rtpmap:99 AV1/90000
a=rtpmap:100 rtx/90000
a=rtpmap:123 ulpfec/90000
a=rtpmap:122 red/90000
a=rtpmap:119 rtx/90000
a=setup:actpass
a=simulcast:send h;m;l
a=ssrc:4026976323 cname:{609e75e9-1681-429e-944c-4294e525f1a9}
a=ssrc:213902750 cname:{609e75e9-1681-429e-944c-4294e525f1a9}
a=ssrc:2243823712 cname:{609e75e9-1681-429e-944c-4294e525f1a9}
a=ssrc:1711598365 cname:{609e75e9-1681-429e-944c-4294e525f1a9}
a=ssrc:1874427492 cname:{609e75e9-1681-429e-944c-4294e525f1a9}
a=ssrc:1799223947 cname:{609e75e9-1681-429e-944c-4294e525f1a9}
a=ssrc-group:FID 4026976323 213902750
a=ssrc-group:FID 2243823712 1711598365
a=ssrc-group:FID 1874427492 1799223947
"""#

    /// Witnessed: Firefox ESR 153.8.0: createDataChannel only.
    static let firefox153DataChannel = #"""
v=0
o=mozilla...THIS_IS_SDPARTA-99.0 1011796706147576004 0 IN IP4 0.0.0.0
s=-
t=0 0
a=fingerprint:sha-256 C0:DC:37:46:59:FB:99:8A:D4:6E:42:F6:19:BF:89:CA:A0:40:6B:40:E6:78:83:E1:AF:00:34:18:DF:95:20:CA
a=group:BUNDLE 0
a=ice-options:trickle
a=msid-semantic:WMS *
m=application 9 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 0.0.0.0
a=sendrecv
a=ice-pwd:1fdd8fa1c3a58422117358a39b41de60
a=ice-ufrag:a7bb4b4f
a=mid:0
a=setup:actpass
a=sctp-port:5000
a=max-message-size:1073741823
"""#

    /// Witnessed: aiortc 1.16.0 (PyPI, Python 3.11): AudioStreamTrack and VideoStreamTrack sendonly plus createDataChannel, iceServers=[] and the loopback patch.
    static let aiortc116Publish = #"""
v=0
o=- 4005114523 4005114523 IN IP4 0.0.0.0
s=-
t=0 0
a=group:BUNDLE 0 1 2
a=msid-semantic:WMS *
m=audio 48588 UDP/TLS/RTP/SAVPF 96 9 0 8
c=IN IP4 127.0.0.1
a=sendonly
a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:2 urn:ietf:params:rtp-hdrext:ssrc-audio-level
a=mid:0
a=msid:54355f03-97d9-4791-bdfc-f51ab42ea009 d26c7dd9-7840-4bb3-8ca3-a99446767a6f
a=rtcp:9 IN IP4 0.0.0.0
a=rtcp-mux
a=ssrc:2041670534 cname:34f346e3-4c75-4821-914b-f0be865c15e4
a=rtpmap:96 opus/48000/2
a=rtpmap:9 G722/8000
a=rtpmap:0 PCMU/8000
a=rtpmap:8 PCMA/8000
a=candidate:16572de626da4e5384a0ce2d0d93678a 1 udp 2130706431 127.0.0.1 48588 typ host
a=end-of-candidates
a=ice-ufrag:C4Yi
a=ice-pwd:xpj3OwEh0AhWJMzSELQjvB
a=fingerprint:sha-256 49:AD:34:FC:96:BA:2E:7A:AF:17:1E:B3:36:9E:13:06:E3:57:58:51:E9:CC:84:53:5F:3D:D8:A7:43:86:09:44
a=fingerprint:sha-384 98:65:29:19:66:50:7C:3E:0F:95:5A:1E:B6:1F:11:A8:D5:19:CA:64:08:C6:7B:D8:AC:7B:89:A3:EE:D0:E5:F5:49:D0:DB:37:D1:C7:3A:A0:1A:E1:E5:09:CE:A5:8B:71
a=fingerprint:sha-512 9C:A5:BF:DF:2C:86:31:26:1D:E0:BB:7E:83:A6:9E:6E:96:E1:84:F0:C4:D8:A7:40:3F:79:E0:8F:C6:8C:12:A9:EE:CF:B1:11:B7:16:64:9A:B1:27:AE:B9:27:59:F6:EE:75:6B:42:DD:20:13:18:D0:17:7F:15:7D:5B:81:D1:DA
a=setup:actpass
m=video 45304 UDP/TLS/RTP/SAVPF 97 98 99 100 101 102
c=IN IP4 127.0.0.1
a=sendonly
a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:3 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=mid:1
a=msid:54355f03-97d9-4791-bdfc-f51ab42ea009 ece741d5-18a7-4629-a460-c5212ba45911
a=rtcp:9 IN IP4 0.0.0.0
a=rtcp-mux
a=ssrc-group:FID 2940057866 2476431614
a=ssrc:2940057866 cname:34f346e3-4c75-4821-914b-f0be865c15e4
a=ssrc:2476431614 cname:34f346e3-4c75-4821-914b-f0be865c15e4
a=rtpmap:97 VP8/90000
a=rtcp-fb:97 nack
a=rtcp-fb:97 nack pli
a=rtcp-fb:97 goog-remb
a=rtpmap:98 rtx/90000
a=fmtp:98 apt=97
a=rtpmap:99 H264/90000
a=rtcp-fb:99 nack
a=rtcp-fb:99 nack pli
a=rtcp-fb:99 goog-remb
a=fmtp:99 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f
a=rtpmap:100 rtx/90000
a=fmtp:100 apt=99
a=rtpmap:101 H264/90000
a=rtcp-fb:101 nack
a=rtcp-fb:101 nack pli
a=rtcp-fb:101 goog-remb
a=fmtp:101 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f
a=rtpmap:102 rtx/90000
a=fmtp:102 apt=101
a=candidate:16572de626da4e5384a0ce2d0d93678a 1 udp 2130706431 127.0.0.1 45304 typ host
a=end-of-candidates
a=ice-ufrag:C4Yi
a=ice-pwd:xpj3OwEh0AhWJMzSELQjvB
a=fingerprint:sha-256 49:AD:34:FC:96:BA:2E:7A:AF:17:1E:B3:36:9E:13:06:E3:57:58:51:E9:CC:84:53:5F:3D:D8:A7:43:86:09:44
a=fingerprint:sha-384 98:65:29:19:66:50:7C:3E:0F:95:5A:1E:B6:1F:11:A8:D5:19:CA:64:08:C6:7B:D8:AC:7B:89:A3:EE:D0:E5:F5:49:D0:DB:37:D1:C7:3A:A0:1A:E1:E5:09:CE:A5:8B:71
a=fingerprint:sha-512 9C:A5:BF:DF:2C:86:31:26:1D:E0:BB:7E:83:A6:9E:6E:96:E1:84:F0:C4:D8:A7:40:3F:79:E0:8F:C6:8C:12:A9:EE:CF:B1:11:B7:16:64:9A:B1:27:AE:B9:27:59:F6:EE:75:6B:42:DD:20:13:18:D0:17:7F:15:7D:5B:81:D1:DA
a=setup:actpass
m=application 37643 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 127.0.0.1
a=mid:2
a=sctp-port:5000
a=max-message-size:262144
a=candidate:16572de626da4e5384a0ce2d0d93678a 1 udp 2130706431 127.0.0.1 37643 typ host
a=end-of-candidates
a=ice-ufrag:C4Yi
a=ice-pwd:xpj3OwEh0AhWJMzSELQjvB
a=fingerprint:sha-256 49:AD:34:FC:96:BA:2E:7A:AF:17:1E:B3:36:9E:13:06:E3:57:58:51:E9:CC:84:53:5F:3D:D8:A7:43:86:09:44
a=fingerprint:sha-384 98:65:29:19:66:50:7C:3E:0F:95:5A:1E:B6:1F:11:A8:D5:19:CA:64:08:C6:7B:D8:AC:7B:89:A3:EE:D0:E5:F5:49:D0:DB:37:D1:C7:3A:A0:1A:E1:E5:09:CE:A5:8B:71
a=fingerprint:sha-512 9C:A5:BF:DF:2C:86:31:26:1D:E0:BB:7E:83:A6:9E:6E:96:E1:84:F0:C4:D8:A7:40:3F:79:E0:8F:C6:8C:12:A9:EE:CF:B1:11:B7:16:64:9A:B1:27:AE:B9:27:59:F6:EE:75:6B:42:DD:20:13:18:D0:17:7F:15:7D:5B:81:D1:DA
a=setup:actpass
"""#

    /// Witnessed: aiortc 1.16.0: addTransceiver(audio and video, recvonly).
    static let aiortc116Recvonly = #"""
v=0
o=- 4005114523 4005114523 IN IP4 0.0.0.0
s=-
t=0 0
a=group:BUNDLE 0 1
a=msid-semantic:WMS *
m=audio 47871 UDP/TLS/RTP/SAVPF 96 9 0 8
c=IN IP4 127.0.0.1
a=recvonly
a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:2 urn:ietf:params:rtp-hdrext:ssrc-audio-level
a=mid:0
a=msid:e455357f-aaf7-49ab-a925-c7fbdd9875a9 b98455c2-ab01-4e8d-a1d4-28c36506231d
a=rtcp:9 IN IP4 0.0.0.0
a=rtcp-mux
a=ssrc:420838396 cname:fea54dea-216a-4bd0-bc11-30a56d2c6956
a=rtpmap:96 opus/48000/2
a=rtpmap:9 G722/8000
a=rtpmap:0 PCMU/8000
a=rtpmap:8 PCMA/8000
a=candidate:16572de626da4e5384a0ce2d0d93678a 1 udp 2130706431 127.0.0.1 47871 typ host
a=end-of-candidates
a=ice-ufrag:ATbA
a=ice-pwd:fJediZJCPdOwQTJyPHeuy3
a=fingerprint:sha-256 8B:CB:9C:A5:AB:6C:15:B2:CF:E5:00:C7:E5:DD:7A:23:44:3F:60:C9:44:32:AD:68:F5:B2:8F:4B:D2:6E:31:8F
a=fingerprint:sha-384 D6:22:E1:E4:31:3B:DE:F2:4A:16:D8:CB:74:19:B8:01:1F:1C:A6:EC:F4:0D:73:B9:CE:DC:85:D4:6B:4E:8A:3E:00:EE:00:B8:2B:32:89:8A:D5:50:C8:93:6C:84:80:BE
a=fingerprint:sha-512 14:D1:D4:B4:1E:4A:26:57:50:24:ED:33:A6:B4:4D:E3:58:82:4C:C6:D2:D9:23:49:0F:F7:8A:0F:D4:7F:56:A4:12:E1:DA:17:85:01:ED:0E:24:30:CD:A9:05:4A:75:20:AE:3C:52:4D:37:7C:20:94:06:E7:58:5B:87:79:6C:75
a=setup:actpass
m=video 57097 UDP/TLS/RTP/SAVPF 97 98 99 100 101 102
c=IN IP4 127.0.0.1
a=recvonly
a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:3 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=mid:1
a=msid:e455357f-aaf7-49ab-a925-c7fbdd9875a9 3f3f65f8-fdd9-4832-a954-adeb2064b12b
a=rtcp:9 IN IP4 0.0.0.0
a=rtcp-mux
a=ssrc-group:FID 3109948800 1226013934
a=ssrc:3109948800 cname:fea54dea-216a-4bd0-bc11-30a56d2c6956
a=ssrc:1226013934 cname:fea54dea-216a-4bd0-bc11-30a56d2c6956
a=rtpmap:97 VP8/90000
a=rtcp-fb:97 nack
a=rtcp-fb:97 nack pli
a=rtcp-fb:97 goog-remb
a=rtpmap:98 rtx/90000
a=fmtp:98 apt=97
a=rtpmap:99 H264/90000
a=rtcp-fb:99 nack
a=rtcp-fb:99 nack pli
a=rtcp-fb:99 goog-remb
a=fmtp:99 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f
a=rtpmap:100 rtx/90000
a=fmtp:100 apt=99
a=rtpmap:101 H264/90000
a=rtcp-fb:101 nack
a=rtcp-fb:101 nack pli
a=rtcp-fb:101 goog-remb
a=fmtp:101 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f
a=rtpmap:102 rtx/90000
a=fmtp:102 apt=101
a=candidate:16572de626da4e5384a0ce2d0d93678a 1 udp 2130706431 127.0.0.1 57097 typ host
a=end-of-candidates
a=ice-ufrag:ATbA
a=ice-pwd:fJediZJCPdOwQTJyPHeuy3
a=fingerprint:sha-256 8B:CB:9C:A5:AB:6C:15:B2:CF:E5:00:C7:E5:DD:7A:23:44:3F:60:C9:44:32:AD:68:F5:B2:8F:4B:D2:6E:31:8F
a=fingerprint:sha-384 D6:22:E1:E4:31:3B:DE:F2:4A:16:D8:CB:74:19:B8:01:1F:1C:A6:EC:F4:0D:73:B9:CE:DC:85:D4:6B:4E:8A:3E:00:EE:00:B8:2B:32:89:8A:D5:50:C8:93:6C:84:80:BE
a=fingerprint:sha-512 14:D1:D4:B4:1E:4A:26:57:50:24:ED:33:A6:B4:4D:E3:58:82:4C:C6:D2:D9:23:49:0F:F7:8A:0F:D4:7F:56:A4:12:E1:DA:17:85:01:ED:0E:24:30:CD:A9:05:4A:75:20:AE:3C:52:4D:37:7C:20:94:06:E7:58:5B:87:79:6C:75
a=setup:actpass
"""#

    /// Witnessed: GStreamer 1.22.0 webrtcbin (Debian 12, the element whipsink drives), bundle-policy=max-bundle: vp8enc and opusenc, sendonly.
    static let gstreamer122VP8 = #"""
v=0
o=- 9206595696781729811 0 IN IP4 0.0.0.0
s=-
t=0 0
a=ice-options:trickle
a=group:BUNDLE video0 audio1
m=video 9 UDP/TLS/RTP/SAVPF 96
c=IN IP4 0.0.0.0
a=setup:actpass
a=ice-ufrag:Rvlo3n85Ag6oDo1W17qUwlkHVJkOK6N4
a=ice-pwd:BAstmD8PGjtBlCkMnz/4oeL9LADVksE6
a=rtcp-mux
a=rtcp-rsize
a=sendonly
a=rtpmap:96 VP8/90000
a=rtcp-fb:96 nack pli
a=rtcp-fb:96 ccm fir
a=rtcp-fb:96 transport-cc
a=framerate:30
a=ssrc:28784284 msid:user1280829295@host-d98c67ac webrtctransceiver0
a=ssrc:28784284 cname:user1280829295@host-d98c67ac
a=mid:video0
a=fingerprint:sha-256 D8:58:7B:31:0A:82:62:E6:9C:3D:06:B8:C8:6A:2D:AF:EA:1F:9C:0F:D3:BC:D8:3F:81:AD:E1:3C:A6:61:5B:AE
a=rtcp-mux-only
m=audio 0 UDP/TLS/RTP/SAVPF 111
c=IN IP4 0.0.0.0
a=setup:actpass
a=ice-ufrag:Rvlo3n85Ag6oDo1W17qUwlkHVJkOK6N4
a=ice-pwd:BAstmD8PGjtBlCkMnz/4oeL9LADVksE6
a=bundle-only
a=rtcp-mux
a=rtcp-rsize
a=sendonly
a=rtpmap:111 OPUS/48000/2
a=rtcp-fb:111 transport-cc
a=fmtp:111 sprop-stereo=0;sprop-maxcapturerate=48000
a=ssrc:608703415 msid:user1280829295@host-d98c67ac webrtctransceiver1
a=ssrc:608703415 cname:user1280829295@host-d98c67ac
a=mid:audio1
a=fingerprint:sha-256 D8:58:7B:31:0A:82:62:E6:9C:3D:06:B8:C8:6A:2D:AF:EA:1F:9C:0F:D3:BC:D8:3F:81:AD:E1:3C:A6:61:5B:AE
a=rtcp-mux-only
"""#

    /// Witnessed: GStreamer 1.22.0 webrtcbin: openh264enc (constrained-baseline) and opusenc, sendonly; no profile-level-id.
    static let gstreamer122H264 = #"""
v=0
o=- 4482424712805015795 0 IN IP4 0.0.0.0
s=-
t=0 0
a=ice-options:trickle
a=group:BUNDLE video0 audio1
m=video 9 UDP/TLS/RTP/SAVPF 102
c=IN IP4 0.0.0.0
a=setup:actpass
a=ice-ufrag:zBR2K+3J+qa9XN1W2LdEt4EY94USJ1/x
a=ice-pwd:goo4FYd7typkYmjV6xcxL4mw76ImfYuS
a=rtcp-mux
a=rtcp-rsize
a=sendonly
a=rtpmap:102 H264/90000
a=rtcp-fb:102 nack pli
a=rtcp-fb:102 ccm fir
a=rtcp-fb:102 transport-cc
a=framerate:30
a=fmtp:102 packetization-mode=1;sprop-parameter-sets=Z0LADYyNQKD5APCIRqA=,aM48gA==
a=ssrc:579910898 msid:user457438903@host-ba21316b webrtctransceiver0
a=ssrc:579910898 cname:user457438903@host-ba21316b
a=mid:video0
a=fingerprint:sha-256 A6:A9:FF:76:D1:15:3E:92:76:EA:F5:16:93:A0:50:15:E5:19:FD:BF:19:91:12:E6:FF:FD:52:7D:4B:EA:96:0E
a=rtcp-mux-only
m=audio 0 UDP/TLS/RTP/SAVPF 111
c=IN IP4 0.0.0.0
a=setup:actpass
a=ice-ufrag:zBR2K+3J+qa9XN1W2LdEt4EY94USJ1/x
a=ice-pwd:goo4FYd7typkYmjV6xcxL4mw76ImfYuS
a=bundle-only
a=rtcp-mux
a=rtcp-rsize
a=sendonly
a=rtpmap:111 OPUS/48000/2
a=rtcp-fb:111 transport-cc
a=fmtp:111 sprop-stereo=0;sprop-maxcapturerate=48000
a=ssrc:1987026246 msid:user457438903@host-ba21316b webrtctransceiver1
a=ssrc:1987026246 cname:user457438903@host-ba21316b
a=mid:audio1
a=fingerprint:sha-256 A6:A9:FF:76:D1:15:3E:92:76:EA:F5:16:93:A0:50:15:E5:19:FD:BF:19:91:12:E6:FF:FD:52:7D:4B:EA:96:0E
a=rtcp-mux-only
"""#

    /// Witnessed: Chrome 104 (2022-08-18), from algesten/str0m docs/chrome-sdp.json, the capture the research note cites.
    static let str0mChrome104 = #"""
v=0
o=- 2954344436352400798 4 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0 1 2
a=extmap-allow-mixed
a=msid-semantic: WMS bce3d790-a073-42ae-89e6-6a8979f4e203
m=application 64356 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 192.168.115.173
a=candidate:1669605774 1 udp 2122260223 192.168.115.173 64356 typ host generation 0 network-id 1 network-cost 10
a=candidate:755488126 1 tcp 1518280447 192.168.115.173 9 typ host tcptype active generation 0 network-id 1 network-cost 10
a=ice-ufrag:v8Lx
a=ice-pwd:GdpW980Caww9WWsbg6jJ5pGu
a=ice-options:trickle
a=fingerprint:sha-256 7A:D7:C9:33:94:8D:8A:BA:10:EB:93:21:7C:B4:91:6D:40:F7:56:07:CA:9D:42:D3:80:32:2D:10:D9:AC:8E:15
a=setup:actpass
a=mid:0
a=sctp-port:5000
a=max-message-size:262144
m=audio 9 UDP/TLS/RTP/SAVPF 111 63 103 104 9 0 8 106 105 13 110 112 113 126
c=IN IP4 0.0.0.0
a=rtcp:9 IN IP4 0.0.0.0
a=ice-ufrag:v8Lx
a=ice-pwd:GdpW980Caww9WWsbg6jJ5pGu
a=ice-options:trickle
a=fingerprint:sha-256 7A:D7:C9:33:94:8D:8A:BA:10:EB:93:21:7C:B4:91:6D:40:F7:56:07:CA:9D:42:D3:80:32:2D:10:D9:AC:8E:15
a=setup:actpass
a=mid:1
a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level
a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid
a=sendonly
a=msid:bce3d790-a073-42ae-89e6-6a8979f4e203 37d89104-03a9-4be0-8cf4-50310d61b211
a=rtcp-mux
a=rtpmap:111 opus/48000/2
a=rtcp-fb:111 transport-cc
a=fmtp:111 minptime=10;useinbandfec=1
a=rtpmap:63 red/48000/2
a=fmtp:63 111/111
a=rtpmap:103 ISAC/16000
a=rtpmap:104 ISAC/32000
a=rtpmap:9 G722/8000
a=rtpmap:0 PCMU/8000
a=rtpmap:8 PCMA/8000
a=rtpmap:106 CN/32000
a=rtpmap:105 CN/16000
a=rtpmap:13 CN/8000
a=rtpmap:110 telephone-event/48000
a=rtpmap:112 telephone-event/32000
a=rtpmap:113 telephone-event/16000
a=rtpmap:126 telephone-event/8000
a=ssrc:2096647523 cname:XafHSPS71ySwVueL
a=ssrc:2096647523 msid:bce3d790-a073-42ae-89e6-6a8979f4e203 37d89104-03a9-4be0-8cf4-50310d61b211
m=video 9 UDP/TLS/RTP/SAVPF 96 97 127 121 125 107 108 109 124 120 123 119 35 36 41 42 98 99 100 101 114 115 116 117 118
c=IN IP4 0.0.0.0
a=rtcp:9 IN IP4 0.0.0.0
a=ice-ufrag:v8Lx
a=ice-pwd:GdpW980Caww9WWsbg6jJ5pGu
a=ice-options:trickle
a=fingerprint:sha-256 7A:D7:C9:33:94:8D:8A:BA:10:EB:93:21:7C:B4:91:6D:40:F7:56:07:CA:9D:42:D3:80:32:2D:10:D9:AC:8E:15
a=setup:actpass
a=mid:2
a=extmap:14 urn:ietf:params:rtp-hdrext:toffset
a=extmap:2 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=extmap:13 urn:3gpp:video-orientation
a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=extmap:5 http://www.webrtc.org/experiments/rtp-hdrext/playout-delay
a=extmap:6 http://www.webrtc.org/experiments/rtp-hdrext/video-content-type
a=extmap:7 http://www.webrtc.org/experiments/rtp-hdrext/video-timing
a=extmap:8 http://www.webrtc.org/experiments/rtp-hdrext/color-space
a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:10 urn:ietf:params:rtp-hdrext:sdes:rtp-stream-id
a=extmap:11 urn:ietf:params:rtp-hdrext:sdes:repaired-rtp-stream-id
a=sendonly
a=msid:bce3d790-a073-42ae-89e6-6a8979f4e203 a7fb716d-5759-4f9c-80a7-3a3d1833b429
a=rtcp-mux
a=rtcp-rsize
a=rtpmap:96 VP8/90000
a=rtcp-fb:96 goog-remb
a=rtcp-fb:96 transport-cc
a=rtcp-fb:96 ccm fir
a=rtcp-fb:96 nack
a=rtcp-fb:96 nack pli
a=rtpmap:97 rtx/90000
a=fmtp:97 apt=96
a=rtpmap:127 H264/90000
a=rtcp-fb:127 goog-remb
a=rtcp-fb:127 transport-cc
a=rtcp-fb:127 ccm fir
a=rtcp-fb:127 nack
a=rtcp-fb:127 nack pli
a=fmtp:127 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f
a=rtpmap:121 rtx/90000
a=fmtp:121 apt=127
a=rtpmap:125 H264/90000
a=rtcp-fb:125 goog-remb
a=rtcp-fb:125 transport-cc
a=rtcp-fb:125 ccm fir
a=rtcp-fb:125 nack
a=rtcp-fb:125 nack pli
a=fmtp:125 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f
a=rtpmap:107 rtx/90000
a=fmtp:107 apt=125
a=rtpmap:108 H264/90000
a=rtcp-fb:108 goog-remb
a=rtcp-fb:108 transport-cc
a=rtcp-fb:108 ccm fir
a=rtcp-fb:108 nack
a=rtcp-fb:108 nack pli
a=fmtp:108 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f
a=rtpmap:109 rtx/90000
a=fmtp:109 apt=108
a=rtpmap:124 H264/90000
a=rtcp-fb:124 goog-remb
a=rtcp-fb:124 transport-cc
a=rtcp-fb:124 ccm fir
a=rtcp-fb:124 nack
a=rtcp-fb:124 nack pli
a=fmtp:124 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42e01f
a=rtpmap:120 rtx/90000
a=fmtp:120 apt=124
a=rtpmap:123 H264/90000
a=rtcp-fb:123 goog-remb
a=rtcp-fb:123 transport-cc
a=rtcp-fb:123 ccm fir
a=rtcp-fb:123 nack
a=rtcp-fb:123 nack pli
a=fmtp:123 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f
a=rtpmap:119 rtx/90000
a=fmtp:119 apt=123
a=rtpmap:35 H264/90000
a=rtcp-fb:35 goog-remb
a=rtcp-fb:35 transport-cc
a=rtcp-fb:35 ccm fir
a=rtcp-fb:35 nack
a=rtcp-fb:35 nack pli
a=fmtp:35 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=4d001f
a=rtpmap:36 rtx/90000
a=fmtp:36 apt=35
a=rtpmap:41 AV1/90000
a=rtcp-fb:41 goog-remb
a=rtcp-fb:41 transport-cc
a=rtcp-fb:41 ccm fir
a=rtcp-fb:41 nack
a=rtcp-fb:41 nack pli
a=rtpmap:42 rtx/90000
a=fmtp:42 apt=41
a=rtpmap:98 VP9/90000
a=rtcp-fb:98 goog-remb
a=rtcp-fb:98 transport-cc
a=rtcp-fb:98 ccm fir
a=rtcp-fb:98 nack
a=rtcp-fb:98 nack pli
a=fmtp:98 profile-id=0
a=rtpmap:99 rtx/90000
a=fmtp:99 apt=98
a=rtpmap:100 VP9/90000
a=rtcp-fb:100 goog-remb
a=rtcp-fb:100 transport-cc
a=rtcp-fb:100 ccm fir
a=rtcp-fb:100 nack
a=rtcp-fb:100 nack pli
a=fmtp:100 profile-id=2
a=rtpmap:101 rtx/90000
a=fmtp:101 apt=100
a=rtpmap:114 H264/90000
a=rtcp-fb:114 goog-remb
a=rtcp-fb:114 transport-cc
a=rtcp-fb:114 ccm fir
a=rtcp-fb:114 nack
a=rtcp-fb:114 nack pli
a=fmtp:114 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=64001f
a=rtpmap:115 rtx/90000
a=fmtp:115 apt=114
a=rtpmap:116 red/90000
a=rtpmap:117 rtx/90000
a=fmtp:117 apt=116
a=rtpmap:118 ulpfec/90000
a=ssrc-group:FID 2796837875 1979944319
a=ssrc:2796837875 cname:XafHSPS71ySwVueL
a=ssrc:2796837875 msid:bce3d790-a073-42ae-89e6-6a8979f4e203 a7fb716d-5759-4f9c-80a7-3a3d1833b429
a=ssrc:1979944319 cname:XafHSPS71ySwVueL
a=ssrc:1979944319 msid:bce3d790-a073-42ae-89e6-6a8979f4e203 a7fb716d-5759-4f9c-80a7-3a3d1833b429
"""#

    /// Every witnessed offer, for table-driven tests.
    static let offers: [(name: String, sdp: String)] = [
        ("chromium156Camera", chromium156Camera),
        ("chromium156Simulcast", chromium156Simulcast),
        ("chromium156Recvonly", chromium156Recvonly),
        ("chromium156DataChannel", chromium156DataChannel),
        ("chromium156H264Only", chromium156H264Only),
        ("chromium156H264Mode0Only", chromium156H264Mode0Only),
        ("firefox153Camera", firefox153Camera),
        ("firefox153Simulcast", firefox153Simulcast),
        ("firefox153DataChannel", firefox153DataChannel),
        ("aiortc116Publish", aiortc116Publish),
        ("aiortc116Recvonly", aiortc116Recvonly),
        ("gstreamer122VP8", gstreamer122VP8),
        ("gstreamer122H264", gstreamer122H264),
        ("str0mChrome104", str0mChrome104),
    ]

    /// Witnessed: Chromium 156.0.8078.114's answer to `SubscriberFixture.offer()` (setRemoteDescription, createAnswer).
    static let chromium156SubscriberAnswer = #"""
v=0
o=- 2124274626046731718 2 IN IP4 127.0.0.1
s=-
t=0 0
a=group:BUNDLE 0 1 2
a=msid-semantic: WMS
m=audio 37144 UDP/TLS/RTP/SAVPF 111
c=IN IP4 127.0.0.1
a=rtcp:9 IN IP4 0.0.0.0
a=candidate:3365056848 1 udp 2122194687 127.0.0.1 37144 typ host generation 0 network-id 3 network-cost 50
a=candidate:1722756828 1 udp 2122063615 192.0.2.2 37684 typ host generation 0 network-id 1
a=candidate:3851117963 1 udp 2122267903 ::1 42651 typ host generation 0 network-id 4 network-cost 50
a=candidate:1641890412 1 udp 2122134271 fd00::2 40068 typ host generation 0 network-id 2
a=ice-ufrag:6mZz
a=ice-pwd:/ktOeTE40SImw84RiJT5km2M
a=ice-options:trickle
a=fingerprint:sha-256 2A:0D:CA:5F:89:5E:65:B9:7C:CE:C4:23:97:10:9F:C4:0C:79:38:4C:5F:AD:77:44:A9:69:9A:F5:42:61:76:B1
a=setup:active
a=mid:0
a=extmap:2 urn:ietf:params:rtp-hdrext:ssrc-audio-level
a=extmap:3 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=extmap:4 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid
a=recvonly
a=rtcp-mux
a=rtcp-rsize
a=rtpmap:111 opus/48000/2
a=rtcp-fb:111 transport-cc
a=fmtp:111 minptime=10;useinbandfec=1
m=video 9 UDP/TLS/RTP/SAVPF 96 97
c=IN IP4 0.0.0.0
a=rtcp:9 IN IP4 0.0.0.0
a=ice-ufrag:6mZz
a=ice-pwd:/ktOeTE40SImw84RiJT5km2M
a=ice-options:trickle
a=fingerprint:sha-256 2A:0D:CA:5F:89:5E:65:B9:7C:CE:C4:23:97:10:9F:C4:0C:79:38:4C:5F:AD:77:44:A9:69:9A:F5:42:61:76:B1
a=setup:active
a=mid:1
a=extmap:3 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=extmap:4 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid
a=recvonly
a=rtcp-mux
a=rtcp-rsize
a=rtpmap:96 VP8/90000
a=rtcp-fb:96 goog-remb
a=rtcp-fb:96 transport-cc
a=rtcp-fb:96 ccm fir
a=rtcp-fb:96 nack
a=rtcp-fb:96 nack pli
a=rtpmap:97 rtx/90000
a=fmtp:97 apt=96
m=application 9 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 0.0.0.0
a=ice-ufrag:6mZz
a=ice-pwd:/ktOeTE40SImw84RiJT5km2M
a=ice-options:trickle
a=fingerprint:sha-256 2A:0D:CA:5F:89:5E:65:B9:7C:CE:C4:23:97:10:9F:C4:0C:79:38:4C:5F:AD:77:44:A9:69:9A:F5:42:61:76:B1
a=setup:active
a=mid:2
a=sctp-port:5000
a=max-message-size:262144
"""#

    /// Witnessed: Firefox ESR 153.8.0's answer to `SubscriberFixture.offer()`.
    static let firefox153SubscriberAnswer = #"""
v=0
o=mozilla...THIS_IS_SDPARTA-99.0 7405249089485546667 0 IN IP4 0.0.0.0
s=-
t=0 0
a=sendrecv
a=fingerprint:sha-256 DA:17:CC:F1:2A:77:6A:73:77:F3:E9:8B:93:13:F8:4C:C1:10:6A:52:5D:D7:D9:E1:83:F7:87:84:2E:58:31:46
a=group:BUNDLE 0 1 2
a=ice-options:trickle
a=msid-semantic:WMS *
m=audio 56030 UDP/TLS/RTP/SAVPF 111
c=IN IP4 192.0.2.2
a=candidate:0 1 UDP 2122187007 192.0.2.2 56030 typ host
a=candidate:1 1 UDP 2122252543 fd00::2 45864 typ host
a=candidate:2 1 TCP 2105458943 192.0.2.2 9 typ host tcptype active
a=candidate:3 1 TCP 2105524479 fd00::2 9 typ host tcptype active
a=recvonly
a=end-of-candidates
a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:2 urn:ietf:params:rtp-hdrext:ssrc-audio-level
a=extmap:4 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=fmtp:111 maxplaybackrate=48000;stereo=1;useinbandfec=1
a=ice-pwd:809e906e3b66248262f7306877e230cf
a=ice-ufrag:03b7cf1e
a=mid:0
a=rtcp-fb:111 transport-cc
a=rtcp-mux
a=rtpmap:111 opus/48000/2
a=setup:active
a=ssrc:3145856366 cname:{f623f405-eeb9-4e1a-9729-b4d0d1e69740}
m=video 56030 UDP/TLS/RTP/SAVPF 96 97
c=IN IP4 192.0.2.2
a=recvonly
a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:3 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=extmap:4 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01
a=fmtp:96 max-fs=12288;max-fr=60
a=fmtp:97 apt=96
a=ice-pwd:809e906e3b66248262f7306877e230cf
a=ice-ufrag:03b7cf1e
a=mid:1
a=rtcp-fb:96 nack
a=rtcp-fb:96 nack pli
a=rtcp-fb:96 ccm fir
a=rtcp-fb:96 goog-remb
a=rtcp-fb:96 transport-cc
a=rtcp-mux
a=rtcp-rsize
a=rtpmap:96 VP8/90000
a=rtpmap:97 rtx/90000
a=setup:active
a=ssrc:373901514 cname:{f623f405-eeb9-4e1a-9729-b4d0d1e69740}
m=application 56030 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 192.0.2.2
a=sendrecv
a=ice-pwd:809e906e3b66248262f7306877e230cf
a=ice-ufrag:03b7cf1e
a=mid:2
a=setup:active
a=sctp-port:5000
a=max-message-size:1073741823
"""#

    /// Witnessed: aiortc 1.16.0's answer to `SubscriberFixture.offer()`.
    static let aiortc116SubscriberAnswer = #"""
v=0
o=- 4005115325 4005115325 IN IP4 0.0.0.0
s=-
t=0 0
a=group:BUNDLE 0 1 2
a=msid-semantic:WMS *
m=audio 36442 UDP/TLS/RTP/SAVPF 111
c=IN IP4 127.0.0.1
a=recvonly
a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:2 urn:ietf:params:rtp-hdrext:ssrc-audio-level
a=mid:0
a=msid:869d71a3-6c50-41c8-b6dd-2105decc6b41 c7f67cd1-e049-487e-82f6-90b0a3f05b76
a=rtcp:9 IN IP4 0.0.0.0
a=rtcp-mux
a=ssrc:423466185 cname:9fcbcee7-8dcd-463c-b6b2-90498c6ddace
a=rtpmap:111 opus/48000/2
a=candidate:16572de626da4e5384a0ce2d0d93678a 1 udp 2130706431 127.0.0.1 36442 typ host
a=end-of-candidates
a=ice-ufrag:IUYz
a=ice-pwd:Q9QsJJvWh8Hj61YkJr87Xf
a=fingerprint:sha-256 29:63:6B:60:CA:02:EB:31:4B:75:39:19:42:F2:7C:CF:34:A4:76:E8:5A:8D:52:94:56:A7:E5:3C:C7:64:5E:B3
a=fingerprint:sha-384 AF:26:0A:D9:80:8E:0E:19:1D:35:98:C9:E4:87:45:4B:75:20:07:3F:5E:DB:3A:27:C5:21:1D:B3:87:52:FF:8F:AF:D0:E8:DC:4F:B3:2E:79:29:02:24:31:E9:9E:21:13
a=fingerprint:sha-512 A7:A3:F8:B0:01:83:9A:D3:83:43:F9:3E:E3:EF:12:7A:C2:B4:6F:F6:3C:D5:99:D6:9E:E0:EB:16:B6:6A:3A:B6:48:85:0E:5F:7F:F1:26:65:44:9E:7A:B8:06:79:81:C0:1B:1F:64:A6:BE:66:C9:E5:C6:BA:7D:69:C0:56:78:34
a=setup:active
m=video 36442 UDP/TLS/RTP/SAVPF 96 97
c=IN IP4 127.0.0.1
a=recvonly
a=extmap:1 urn:ietf:params:rtp-hdrext:sdes:mid
a=extmap:3 http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time
a=mid:1
a=msid:869d71a3-6c50-41c8-b6dd-2105decc6b41 047df134-bb2b-465c-8a42-73d1a9f1f7d0
a=rtcp:9 IN IP4 0.0.0.0
a=rtcp-mux
a=ssrc-group:FID 409093728 46376137
a=ssrc:409093728 cname:9fcbcee7-8dcd-463c-b6b2-90498c6ddace
a=ssrc:46376137 cname:9fcbcee7-8dcd-463c-b6b2-90498c6ddace
a=rtpmap:96 VP8/90000
a=rtcp-fb:96 nack
a=rtcp-fb:96 nack pli
a=rtcp-fb:96 goog-remb
a=rtpmap:97 rtx/90000
a=fmtp:97 apt=96
a=candidate:16572de626da4e5384a0ce2d0d93678a 1 udp 2130706431 127.0.0.1 36442 typ host
a=end-of-candidates
a=ice-ufrag:IUYz
a=ice-pwd:Q9QsJJvWh8Hj61YkJr87Xf
a=fingerprint:sha-256 29:63:6B:60:CA:02:EB:31:4B:75:39:19:42:F2:7C:CF:34:A4:76:E8:5A:8D:52:94:56:A7:E5:3C:C7:64:5E:B3
a=fingerprint:sha-384 AF:26:0A:D9:80:8E:0E:19:1D:35:98:C9:E4:87:45:4B:75:20:07:3F:5E:DB:3A:27:C5:21:1D:B3:87:52:FF:8F:AF:D0:E8:DC:4F:B3:2E:79:29:02:24:31:E9:9E:21:13
a=fingerprint:sha-512 A7:A3:F8:B0:01:83:9A:D3:83:43:F9:3E:E3:EF:12:7A:C2:B4:6F:F6:3C:D5:99:D6:9E:E0:EB:16:B6:6A:3A:B6:48:85:0E:5F:7F:F1:26:65:44:9E:7A:B8:06:79:81:C0:1B:1F:64:A6:BE:66:C9:E5:C6:BA:7D:69:C0:56:78:34
a=setup:active
m=application 36442 UDP/DTLS/SCTP webrtc-datachannel
c=IN IP4 127.0.0.1
a=mid:2
a=sctp-port:5000
a=max-message-size:262144
a=candidate:16572de626da4e5384a0ce2d0d93678a 1 udp 2130706431 127.0.0.1 36442 typ host
a=end-of-candidates
a=ice-ufrag:IUYz
a=ice-pwd:Q9QsJJvWh8Hj61YkJr87Xf
a=fingerprint:sha-256 29:63:6B:60:CA:02:EB:31:4B:75:39:19:42:F2:7C:CF:34:A4:76:E8:5A:8D:52:94:56:A7:E5:3C:C7:64:5E:B3
a=fingerprint:sha-384 AF:26:0A:D9:80:8E:0E:19:1D:35:98:C9:E4:87:45:4B:75:20:07:3F:5E:DB:3A:27:C5:21:1D:B3:87:52:FF:8F:AF:D0:E8:DC:4F:B3:2E:79:29:02:24:31:E9:9E:21:13
a=fingerprint:sha-512 A7:A3:F8:B0:01:83:9A:D3:83:43:F9:3E:E3:EF:12:7A:C2:B4:6F:F6:3C:D5:99:D6:9E:E0:EB:16:B6:6A:3A:B6:48:85:0E:5F:7F:F1:26:65:44:9E:7A:B8:06:79:81:C0:1B:1F:64:A6:BE:66:C9:E5:C6:BA:7D:69:C0:56:78:34
a=setup:active
"""#
}
