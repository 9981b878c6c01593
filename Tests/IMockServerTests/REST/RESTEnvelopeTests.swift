import IMockCore
import IMockNet
import Testing

@testable import IMockServer

/// Exact bytes of success and error bodies.
@Suite struct RESTEnvelopeTests {
    @Test func appTokenBody() throws {
        var fixture = try RESTFixture()
        let outcome = fixture.send(
            "POST", "/acme/chat/token", body: #"{"grant_type":"client_credentials","client_id":"cid","client_secret":"secret","ttl":60}"#)
        #expect(outcome.response.status == 200)
        #expect(outcome.response.headers["Content-Type"] == "application/json;charset=UTF-8")
        let token = try #require(outcome.json["access_token"]?.stringValue)
        #expect(token.hasPrefix("YWMt"))
        #expect(outcome.bodyText == #"{"access_token":"\#(token)","expires_in":60,"application":"\#(fixture.app.uuid)"}"#)
    }

    @Test func userTokenBodyFoldsTheName() throws {
        var fixture = try RESTFixture()
        let outcome = fixture.send("POST", "/acme/chat/token", body: #"{"grant_type":"password","username":"ALICE","password":"pw"}"#)
        let user = fixture.app.users["alice"]!
        let token = try #require(outcome.json["access_token"]?.stringValue)
        #expect(
            outcome.bodyText
                == #"{"access_token":"\#(token)","expires_in":\#(AppSettings.defaultTokenTTL),"user":{"uuid":"\#(user.uuid)","type":"user","created":\#(user.createdMs),"modified":\#(user.modifiedMs),"username":"alice","activated":true}}"#
        )
    }

    @Test func getUserEnvelope() throws {
        var fixture = try RESTFixture()
        let outcome = fixture.send("GET", "/acme/chat/users/Alice", token: fixture.appToken)
        let app = fixture.app
        let user = app.users["alice"]!
        #expect(
            outcome.bodyText
                == #"{"action":"get","application":"\#(app.uuid)","path":"/users","uri":"http://imock.test/acme/chat/users/Alice","entities":[{"uuid":"\#(user.uuid)","type":"user","created":\#(user.createdMs),"modified":\#(user.modifiedMs),"username":"alice","activated":true}],"timestamp":\#(fixture.nowMs),"duration":0,"organization":"acme","applicationName":"chat","count":1}"#
        )
    }

    @Test func errorBodyFieldForField() throws {
        var fixture = try RESTFixture()
        let outcome = fixture.send("GET", "/acme/chat/users/nobody", token: fixture.appToken)
        #expect(outcome.response.status == 404)
        #expect(
            outcome.bodyText
                == #"{"error":"service_resource_not_found","exception":"UserNotFoundException","timestamp":\#(fixture.nowMs),"duration":0,"error_description":"Service resource not found"}"#
        )
    }

    @Test func unknownAppNamesTheURI() throws {
        var fixture = try RESTFixture()
        let outcome = fixture.send("POST", "/nope/app/users", body: "{}", token: fixture.appToken)
        #expect(outcome.response.status == 404)
        #expect(
            outcome.json["error_description"]?.stringValue == "Could not find application for nope/app from URI: nope/app/users")
        #expect(outcome.errorName == "organization_application_not_found")
    }

    @Test func routerGives404And405() throws {
        var fixture = try RESTFixture()
        let unknown = fixture.send("GET", "/acme/chat/nothing", token: fixture.appToken)
        #expect(unknown.response.status == 404 && unknown.errorName == "service_resource_not_found")
        let wrongMethod = fixture.send("PATCH", "/acme/chat/users", token: fixture.appToken)
        #expect(wrongMethod.response.status == 405)
        #expect(wrongMethod.response.headers["Allow"] == "GET, HEAD, POST")
    }
}
