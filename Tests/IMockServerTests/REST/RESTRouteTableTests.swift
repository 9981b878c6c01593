import IMockCore
import IMockNet
import Testing

@testable import IMockServer

/// Which token a table case sends.
enum Credential: Sendable {
    case none, app, alice, corrupt, otherApp
}

/// One row: request → status, error name, and (optionally) the exact description.
struct RouteCase: Sendable, CustomStringConvertible {
    var name: String
    var method: String
    var target: String
    var body: String?
    var credential: Credential
    var contentType: String? = "application/json"
    var status: Int
    var error: String?
    var errorDescription: String?

    var description: String { name }
}

let appCredentials = #""client_id":"cid","client_secret":"secret""#

let routeCases: [RouteCase] = [
    // POST /token
    RouteCase(name: "app token", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"client_credentials",\#(appCredentials)}"#, credential: .none, status: 200),
    RouteCase(name: "app token without client_id", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"client_credentials","client_secret":"s"}"#, credential: .none, status: 400, error: "illegal_argument", errorDescription: "client_id must be provided."),
    RouteCase(name: "app token without secret", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"client_credentials","client_id":"cid"}"#, credential: .none, status: 400, error: "illegal_argument", errorDescription: "client_secret must be provided"),
    RouteCase(name: "app token wrong id", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"client_credentials","client_id":"x","client_secret":"secret"}"#, credential: .none, status: 400, error: "invalid_grant", errorDescription: "client_id does not match"),
    RouteCase(name: "app token wrong secret", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"client_credentials","client_id":"cid","client_secret":"x"}"#, credential: .none, status: 400, error: "invalid_grant", errorDescription: "client_secret does not match"),
    RouteCase(name: "token negative ttl", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"client_credentials",\#(appCredentials),"ttl":-1}"#, credential: .none, status: 400, error: "illegal_argument"),
    RouteCase(name: "token ttl wrong type", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"client_credentials",\#(appCredentials),"ttl":"60"}"#, credential: .none, status: 400, error: "illegal_argument", errorDescription: "ttl must be an integer"),
    RouteCase(name: "token no grant", method: "POST", target: "/acme/chat/token", body: "{}", credential: .none, status: 400, error: "illegal_argument", errorDescription: "grant_type must be provided"),
    RouteCase(name: "token unknown grant", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"magic"}"#, credential: .none, status: 400, error: "illegal_argument", errorDescription: "unsupported grant_type: magic"),
    RouteCase(name: "token broken json", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"#, credential: .none, status: 400, error: "json_parse", errorDescription: "Unexpected character."),
    RouteCase(name: "token body not object", method: "POST", target: "/acme/chat/token", body: "[]", credential: .none, status: 400, error: "illegal_argument"),
    RouteCase(name: "token form body", method: "POST", target: "/acme/chat/token", body: "grant_type=x", credential: .none, contentType: "application/x-www-form-urlencoded", status: 415, error: "web_application", errorDescription: "Unsupported Media Type."),
    RouteCase(name: "token unknown app", method: "POST", target: "/acme/nope/token", body: "{}", credential: .none, status: 404, error: "organization_application_not_found"),
    RouteCase(name: "password grant", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"password","username":"alice","password":"pw","ttl":0}"#, credential: .none, status: 200),
    RouteCase(name: "password grant wrong password", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"password","username":"alice","password":"x"}"#, credential: .none, status: 400, error: "invalid_grant", errorDescription: "invalid password"),
    RouteCase(name: "password grant unknown user", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"password","username":"bob","password":"x"}"#, credential: .none, status: 404, error: "invalid_grant", errorDescription: "user not found"),
    RouteCase(name: "password grant illegal name", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"password","username":"a b","password":"x"}"#, credential: .none, status: 400, error: "illegal_argument", errorDescription: "username [a b] is not legal"),
    RouteCase(name: "inherit grant", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"inherit","username":"alice"}"#, credential: .app, status: 200),
    RouteCase(name: "inherit auto-create", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"inherit","username":"newbie","autoCreateUser":true}"#, credential: .app, status: 200),
    RouteCase(name: "inherit unknown user", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"inherit","username":"bob","autoCreateUser":false}"#, credential: .app, status: 404, error: "entity_not_found", errorDescription: "User null not found"),
    RouteCase(name: "inherit too long", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"inherit","username":"\#(String(repeating: "a", count: 65))","autoCreateUser":true}"#, credential: .app, status: 400, error: "illegal_argument", errorDescription: "USERNAME_TOO_LONG"),
    RouteCase(name: "inherit without token", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"inherit","username":"alice"}"#, credential: .none, status: 401, error: "unauthorized", errorDescription: "Unable to authenticate (OAuth)"),
    RouteCase(name: "inherit autoCreate wrong type", method: "POST", target: "/acme/chat/token", body: #"{"grant_type":"inherit","username":"x","autoCreateUser":"yes"}"#, credential: .app, status: 400, error: "illegal_argument", errorDescription: "autoCreateUser must be a boolean"),
    // POST /users
    RouteCase(name: "register single", method: "POST", target: "/acme/chat/users", body: #"{"username":"bob","password":"pw","nickname":"Bob"}"#, credential: .app, status: 200),
    RouteCase(name: "register batch", method: "POST", target: "/acme/chat/users", body: #"[{"username":"b1","password":"pw"},{"username":"b2","password":"pw"}]"#, credential: .app, status: 200),
    RouteCase(name: "register tokenless authorized", method: "POST", target: "/acme/chat/users", body: #"{"username":"bob","password":"pw"}"#, credential: .none, status: 401, error: "unauthorized", errorDescription: "Open registration doesn't allow, so register user need token,"),
    RouteCase(name: "register tokenless open", method: "POST", target: "/acme/open/users", body: #"{"username":"bob","password":"pw"}"#, credential: .none, status: 200),
    RouteCase(name: "register tokenless open batch", method: "POST", target: "/acme/open/users", body: #"[{"username":"bob","password":"pw"}]"#, credential: .none, status: 401, error: "unauthorized"),
    RouteCase(name: "register with user token", method: "POST", target: "/acme/chat/users", body: #"{"username":"bob","password":"pw"}"#, credential: .alice, status: 401, error: "unauthorized"),
    RouteCase(name: "register corrupt token", method: "POST", target: "/acme/chat/users", body: #"{"username":"bob","password":"pw"}"#, credential: .corrupt, status: 401, error: "auth_bad_access_token", errorDescription: "Unable to authenticate due to corrupt access token"),
    RouteCase(name: "register other app's token", method: "POST", target: "/acme/chat/users", body: #"{"username":"bob","password":"pw"}"#, credential: .otherApp, status: 401, error: "auth_bad_access_token", errorDescription: "Unable to authenticate"),
    RouteCase(name: "register duplicate", method: "POST", target: "/acme/chat/users", body: #"{"username":"Alice","password":"pw"}"#, credential: .app, status: 400, error: "duplicate_unique_property_exists"),
    RouteCase(name: "register same name twice in batch", method: "POST", target: "/acme/chat/users", body: #"[{"username":"x","password":"a"},{"username":"X","password":"b"}]"#, credential: .app, status: 400, error: "duplicate_unique_property_exists"),
    RouteCase(name: "register illegal name", method: "POST", target: "/acme/chat/users", body: #"{"username":"a!","password":"pw"}"#, credential: .app, status: 400, error: "illegal_argument", errorDescription: "username [a!] is not legal"),
    RouteCase(name: "register long name", method: "POST", target: "/acme/chat/users", body: #"{"username":"\#(String(repeating: "a", count: 65))","password":"pw"}"#, credential: .app, status: 400, error: "illegal_argument", errorDescription: "USERNAME_TOO_LONG"),
    RouteCase(name: "register no password", method: "POST", target: "/acme/chat/users", body: #"{"username":"bob"}"#, credential: .app, status: 400, error: "illegal_argument", errorDescription: "password or pin must provided"),
    RouteCase(name: "register long nickname", method: "POST", target: "/acme/chat/users", body: #"{"username":"bob","password":"pw","nickname":"\#(String(repeating: "n", count: 101))"}"#, credential: .app, status: 400, error: "illegal_argument", errorDescription: "NICKNAME_TOO_LONG"),
    RouteCase(name: "register batch of 61", method: "POST", target: "/acme/chat/users", body: "[" + (0..<61).map { #"{"username":"u\#($0)","password":"p"}"# }.joined(separator: ",") + "]", credential: .app, status: 400, error: "illegal_argument", errorDescription: "Request body array size[61] had almost reached or been greater than the upper range value[60]"),
    RouteCase(name: "register wrong type", method: "POST", target: "/acme/chat/users", body: #"{"username":42,"password":"pw"}"#, credential: .app, status: 400, error: "illegal_argument", errorDescription: "username must be a string"),
    RouteCase(name: "register broken json", method: "POST", target: "/acme/chat/users", body: #"{"username":"bob",}"#, credential: .app, status: 400, error: "json_parse"),
    RouteCase(name: "register text body", method: "POST", target: "/acme/chat/users", body: "bob", credential: .app, contentType: "text/plain", status: 415),
    RouteCase(name: "register unknown app", method: "POST", target: "/acme/none/users", body: "{}", credential: .app, status: 404, error: "organization_application_not_found"),
    // GET /users
    RouteCase(name: "list users", method: "GET", target: "/acme/chat/users?limit=2", credential: .app, status: 200),
    RouteCase(name: "list users bad limit", method: "GET", target: "/acme/chat/users?limit=x", credential: .app, status: 400, error: "illegal_argument"),
    RouteCase(name: "list users limit 0", method: "GET", target: "/acme/chat/users?limit=0", credential: .app, status: 400, error: "illegal_argument"),
    RouteCase(name: "list users bad cursor", method: "GET", target: "/acme/chat/users?cursor=zz", credential: .app, status: 400, error: "illegal_argument", errorDescription: "cursor is not valid"),
    RouteCase(name: "list users tokenless", method: "GET", target: "/acme/chat/users", credential: .none, status: 401, error: "unauthorized"),
    RouteCase(name: "list users user token", method: "GET", target: "/acme/chat/users", credential: .alice, status: 401, error: "unauthorized"),
    // one user
    RouteCase(name: "get user", method: "GET", target: "/acme/chat/users/alice", credential: .app, status: 200),
    RouteCase(name: "get missing user", method: "GET", target: "/acme/chat/users/zed", credential: .app, status: 404, error: "service_resource_not_found"),
    RouteCase(name: "get user tokenless", method: "GET", target: "/acme/chat/users/alice", credential: .none, status: 401, error: "unauthorized"),
    RouteCase(name: "delete user", method: "DELETE", target: "/acme/chat/users/alice", credential: .app, status: 200),
    RouteCase(name: "delete missing user", method: "DELETE", target: "/acme/chat/users/zed", credential: .app, status: 404, error: "service_resource_not_found"),
    RouteCase(name: "delete user tokenless", method: "DELETE", target: "/acme/chat/users/alice", credential: .none, status: 401, error: "unauthorized"),
    RouteCase(name: "change password PUT", method: "PUT", target: "/acme/chat/users/alice/password", body: #"{"newpassword":"pw2"}"#, credential: .app, status: 200),
    RouteCase(name: "change password POST", method: "POST", target: "/acme/chat/users/alice/password", body: #"{"newpassword":"pw2"}"#, credential: .app, status: 200),
    RouteCase(name: "change password missing", method: "PUT", target: "/acme/chat/users/alice/password", body: "{}", credential: .app, status: 400, error: "illegal_argument", errorDescription: "newpassword is required"),
    RouteCase(name: "change password too long", method: "PUT", target: "/acme/chat/users/alice/password", body: #"{"newpassword":"\#(String(repeating: "p", count: 65))"}"#, credential: .app, status: 400, error: "illegal_argument"),
    RouteCase(name: "change password unknown user", method: "PUT", target: "/acme/chat/users/zed/password", body: #"{"newpassword":"x"}"#, credential: .app, status: 404, error: "entity_not_found", errorDescription: "User null not found"),
    RouteCase(name: "change password broken json", method: "PUT", target: "/acme/chat/users/alice/password", body: "{", credential: .app, status: 400, error: "json_parse"),
    RouteCase(name: "change password tokenless", method: "PUT", target: "/acme/chat/users/alice/password", body: #"{"newpassword":"x"}"#, credential: .none, status: 401, error: "unauthorized"),
    RouteCase(name: "deactivate", method: "POST", target: "/acme/chat/users/alice/deactivate", credential: .app, status: 200),
    RouteCase(name: "deactivate missing", method: "POST", target: "/acme/chat/users/zed/deactivate", credential: .app, status: 404, error: "service_resource_not_found"),
    RouteCase(name: "activate", method: "POST", target: "/acme/chat/users/alice/activate", credential: .app, status: 200),
    RouteCase(name: "activate missing", method: "POST", target: "/acme/chat/users/zed/activate", credential: .app, status: 404, error: "service_resource_not_found"),
    RouteCase(name: "activate tokenless", method: "POST", target: "/acme/chat/users/alice/activate", credential: .none, status: 401, error: "unauthorized"),
    // devices
    RouteCase(name: "disconnect all", method: "GET", target: "/acme/chat/users/alice/disconnect", credential: .app, status: 200),
    RouteCase(name: "disconnect all missing", method: "GET", target: "/acme/chat/users/zed/disconnect", credential: .app, status: 404, error: "service_resource_not_found"),
    RouteCase(name: "disconnect all tokenless", method: "GET", target: "/acme/chat/users/alice/disconnect", credential: .none, status: 401, error: "unauthorized"),
    RouteCase(name: "disconnect one offline", method: "DELETE", target: "/acme/chat/users/alice/disconnect/web_1", credential: .app, status: 400, error: "illegal_argument", errorDescription: "resource not exist"),
    RouteCase(name: "disconnect one missing user", method: "GET", target: "/acme/chat/users/zed/disconnect/web_1", credential: .app, status: 404, error: "service_resource_not_found", errorDescription: "Service resource not found"),
    RouteCase(name: "status", method: "GET", target: "/acme/chat/users/alice/status", credential: .app, status: 200),
    RouteCase(name: "status missing", method: "GET", target: "/acme/chat/users/zed/status", credential: .app, status: 404, error: "service_resource_not_found"),
    RouteCase(name: "batch status", method: "POST", target: "/acme/chat/users/batch/status", body: #"{"usernames":["alice","zed"]}"#, credential: .app, status: 200),
    RouteCase(name: "batch status over 100", method: "POST", target: "/acme/chat/users/batch/status", body: #"{"usernames":[\#((0..<101).map { "\"u\($0)\"" }.joined(separator: ","))]}"#, credential: .app, status: 400, error: "illegal_argument", errorDescription: "request body exceeds maximum limit, maximum limit is 100"),
    RouteCase(name: "batch status wrong type", method: "POST", target: "/acme/chat/users/batch/status", body: #"{"usernames":"alice"}"#, credential: .app, status: 400, error: "illegal_argument"),
    RouteCase(name: "batch status tokenless", method: "POST", target: "/acme/chat/users/batch/status", body: #"{"usernames":[]}"#, credential: .none, status: 401, error: "unauthorized"),
    RouteCase(name: "resources app token", method: "GET", target: "/acme/chat/users/alice/resources", credential: .app, status: 200),
    RouteCase(name: "resources own token", method: "GET", target: "/acme/chat/users/alice/resources", credential: .alice, status: 200),
    RouteCase(name: "resources other user's token", method: "GET", target: "/acme/chat/users/bob/resources", credential: .alice, status: 401, error: "unauthorized"),
    RouteCase(name: "resources tokenless", method: "GET", target: "/acme/chat/users/alice/resources", credential: .none, status: 401, error: "unauthorized"),
    RouteCase(name: "resources missing user", method: "GET", target: "/acme/chat/users/zed/resources", credential: .app, status: 404, error: "service_resource_not_found"),
]

@Suite struct RESTRouteTableTests {
    @Test(arguments: routeCases)
    func route(_ row: RouteCase) throws {
        var fixture = try RESTFixture()
        let token: String?
        switch row.credential {
        case .none: token = nil
        case .app: token = fixture.appToken
        case .alice: token = fixture.aliceToken
        case .corrupt: token = "YWMtnot-a-token"
        case .otherApp:
            var other = fixture.state.directory
            let app = try other.app(AppKey(org: "acme", app: "other"))
            token = try other.issueAppToken(
                in: app.key, clientID: app.clientID, clientSecret: app.clientSecret, ttlSeconds: 0, nowMs: 0
            ).token
            fixture.state.directory = other
        }
        let beforeRequest = fixture.state.directory
        let outcome = fixture.send(row.method, row.target, body: row.body, token: token, contentType: row.contentType)
        #expect(outcome.response.status == row.status, "\(outcome.bodyText)")
        if let error = row.error {
            #expect(outcome.errorName == error)
            #expect(outcome.json.objectValue?.map(\.key) == ["error", "exception", "timestamp", "duration", "error_description"])
            #expect(outcome.json["timestamp"] == .int(fixture.nowMs))
            if let description = row.errorDescription {
                #expect(outcome.json["error_description"]?.stringValue == description)
            }
        }
        if row.status != 200 {
            // Bad input never changes stored state.
            #expect(fixture.state.directory == beforeRequest)
            #expect(outcome.effects.isEmpty)
        }
    }
}
