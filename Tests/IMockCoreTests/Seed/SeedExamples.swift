@testable import IMockCore

/// The three examples of docs/SEED.md, byte for byte.
enum SeedExamples {
    /// A hand-written seed: only the required fields and a few settings.
    static let minimal = """
        {
          "version": 1,
          "apps": [
            {
              "appKey": "acme#demo",
              "registrationMode": "open",
              "users": [
                {"username": "alice", "password": "alice-password"},
                {"username": "Bob", "password": "bob-password", "nickname": "Bob"}
              ]
            }
          ]
        }

        """

    /// A complete document in the exact form `export` writes.
    static let complete = """
        {
          "version": 1,
          "apps": [
            {
              "appKey": "acme#chat",
              "uuid": "5d0a3c1e-8f2b-4c6d-9e7a-1b2c3d4e5f60",
              "registrationMode": "authorized",
              "clientId": "YXA6acmeChatClient",
              "clientSecret": "YXA6acmeChatSecret",
              "defaultTokenTTLSeconds": 604800,
              "serviceEnabled": true,
              "activeUserLimit": null,
              "restRateLimitPerSecond": 100,
              "loginPolicy": {
                "vendor": "easemob",
                "mode": "multiDevice",
                "deviceLimits": {
                  "default": 4,
                  "desktop": 2,
                  "custom:7": 1
                },
                "keepCurrentDevice": false
              },
              "signingKey": "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
              "nextTokenId": 7,
              "revokedTokenIds": [
                3
              ],
              "users": [
                {
                  "username": "alice",
                  "uuid": "0b6f2a52-3c1d-4e8f-a9b0-c1d2e3f40516",
                  "passwordHash": {
                    "algorithm": "pbkdf2-sha256",
                    "iterations": 1000,
                    "salt": "oKGio6SlpqeoqaqrrK2urw==",
                    "hash": "BPnF8suMk8XC8DjEPOXb5bP/a63daSowWfZQ3N2pd8U="
                  },
                  "nickname": "Alice",
                  "activated": true,
                  "created": 1700000000000,
                  "modified": 1700000000000,
                  "sequence": 1,
                  "minimumTokenId": 1
                },
                {
                  "username": "bob",
                  "uuid": "7c9e1d23-4b5a-4f60-8e71-92a3b4c5d6e7",
                  "passwordHash": {
                    "algorithm": "pbkdf2-sha256",
                    "iterations": 1000,
                    "salt": "sLGys7S1tre4ubq7vL2+vw==",
                    "hash": "gg6LtVeX80HBvwYxwGkQFRnJLwZ1jJVfrwlEqBiJc08="
                  },
                  "nickname": null,
                  "activated": false,
                  "created": 1700000000000,
                  "modified": 1700000100000,
                  "sequence": 2,
                  "minimumTokenId": 5
                },
                {
                  "username": "robot-1",
                  "uuid": "e4d3c2b1-a098-4765-8432-10fedcba9876",
                  "nickname": null,
                  "activated": true,
                  "created": 1700000200000,
                  "modified": 1700000200000,
                  "sequence": 3,
                  "minimumTokenId": 6
                }
              ]
            }
          ]
        }

        """

    /// Hand-written login policies, one of each form (docs/SEED.md § Login policy).
    static let loginPolicies = """
        {
          "version": 1,
          "apps": [
            {
              "appKey": "acme#multi",
              "loginPolicy": {"vendor": "easemob", "deviceLimits": {"mobile": 2, "custom:7": 1}}
            },
            {
              "appKey": "acme#single",
              "loginPolicy": {"vendor": "easemob", "mode": "singleDevice", "rule": "firstDeviceWins", "keepCurrentDevice": true}
            },
            {
              "appKey": "acme#openim",
              "loginPolicy": {"vendor": "openim", "policy": 4}
            }
          ]
        }

        """

    static func document(_ text: String) throws -> SeedDocument {
        try SeedDocument.parse(bytes: Array(text.utf8))
    }

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
}
