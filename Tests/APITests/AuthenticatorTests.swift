import APIModels
import JobSpec
import API
import Crypto
import Foundation
import HTTP
import Jobs
import Testing

@Suite struct AuthenticatorTests {
    let auth = Authenticator(apiKey: "key-1", secret: "secret-1")

    func request(_ token: String?) -> HTTPRequest {
        HTTPRequest(method: "GET", target: "/v2/recordings", headers: token.map { [("authorization", $0)] } ?? [])
    }

    func code(_ token: String?) -> Int? {
        do {
            _ = try auth.authenticate(request(token))
            return nil
        } catch {
            return error.code
        }
    }

    @Test func aGoodTokenPasses() throws {
        let grant = try auth.authenticate(request(try auth.token()))
        #expect(grant.roomID == nil)
        #expect(try auth.authenticate(request("Bearer " + (try auth.token(roomID: "r1")))).roomID == "r1")
    }

    @Test func aMissingHeaderIs4025() { #expect(code(nil) == 4025) }

    @Test func anExpiredTokenIs4002() throws {
        #expect(code(try auth.token(expiresIn: -10)) == 4002)
    }

    @Test func aWrongSecretIs4002() throws {
        let other = Authenticator(apiKey: "key-1", secret: "not-the-secret")
        #expect(code(try other.token()) == 4002)
    }

    @Test func aWrongAPIKeyIs4001() throws {
        let other = Authenticator(apiKey: "key-2", secret: "secret-1")
        #expect(code(try other.token()) == 4001)
    }

    @Test func anRTCOnlyRoleIs4024() throws {
        #expect(code(try auth.token(roles: [.rtc])) == 4024)
        // A role the platform does not have, signed by hand.
        let superuser = JSONWebToken.sign(payload: Array(#"{"apikey":"key-1","roles":["superuser"]}"#.utf8), secret: "secret-1")
        #expect(code(superuser) == 4024)
        #expect(code(try auth.token(roles: [.rtc, .crawler])) == nil)
    }

    @Test func aRoomMismatchIs4022() throws {
        let grant = try auth.authenticate(request(try auth.token(roomID: "r1")))
        #expect(throws: ServiceError.self) { try Authenticator.check(grant, roomID: "r2") }
        let error = #expect(throws: ServiceError.self) { try Authenticator.check(grant, roomID: "r2") }
        #expect(error?.code == 4022)
        #expect(error?.status == 403)
        try Authenticator.check(grant, roomID: "r1")
    }

    @Test func garbageIs4002() { #expect(code("not.a.token") == 4002) }
}
