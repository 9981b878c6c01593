"""The PyPI openim-sdk-core 0.1.11 (`OpenIMWSSDK`, unmodified) against imock's OpenIM faces.

Usage: python3 openim_sdk_client.py PORT ADMIN_SECRET CLIENT_SECRET DATA_DIR
Tokens come from the REST API (`apiAddr`), the SDK connects to the gateway (`wsAddr`), pulls
its offline messages, exchanges messages, is kicked by policy 1 and by a force logout, and
meets an expired and an invalid token at the handshake. Prints one line per observation; the
Swift test compares them exactly. Every wait is bounded.
"""
import json
import queue
import sys

from openim_sdk.ws_client import OpenIMWSSDK, WSConfig
from openim_test_server import Server

port, admin_secret, client_secret, data_dir = sys.argv[1:5]
server = Server(port, admin_secret, client_secret)
server.register("alice", "bob")
api_addr, ws_addr, user_token, post, control = server.api_addr, server.ws_addr, server.user_token, server.post, server.control
admin = server.admin


class Device:
    """One SDK instance; its callbacks land in a queue."""

    def __init__(self, name, platform):
        self.name = name
        self.events = queue.Queue()
        config = WSConfig(ws_addr=ws_addr, api_addr=api_addr, data_dir=f"{data_dir}/{name}", platform_id=platform,
                          auto_reconnect=False, timeout_seconds=10)
        self.sdk = OpenIMWSSDK(
            config,
            on_recv_new_message=lambda m: self.events.put(("new", m.send_id, m.content_obj.content)),
            on_recv_offline_new_message=lambda m: self.events.put(("offline", m.send_id, m.content_obj.content)),
            on_connect_success=lambda: self.events.put(("connected",)),
            on_connect_failed=lambda error: self.events.put(("failed", handshake_error(error))),
            on_kicked_offline=lambda: self.events.put(("kicked",)))

    def start(self, user, token):
        self.sdk.login(user, token)
        try:
            self.sdk.start()
        except Exception:
            pass  # reported through on_connect_failed

    def next(self):
        try:
            return self.events.get(timeout=10)
        except queue.Empty:
            return ("nothing within 10 s",)


def handshake_error(error):
    """The errCode of a refused handshake (the HTTP 200 body), as the Go SDK reads it."""
    body = getattr(error, "resp_body", None)
    return json.loads(body)["errCode"] if body else repr(error)


alice, bob = Device("alice", 5), Device("bob", 1)
alice.start("alice", user_token("alice", 5))
print("alice", alice.next())
alice.sdk.send_text("hello offline", recv_id="bob")

bob.start("bob", user_token("bob", 1))
print("bob", bob.next())
bob.sdk.sync_once()
print("bob", bob.next())
bob.sdk.send_text("hi alice", recv_id="alice")
print("alice", alice.next())
alice.sdk.send_text("hi bob", recv_id="bob")
print("bob", bob.next())

# Policy 1: bob on the same platform again kicks the first bob.
bob2 = Device("bob2", 1)
bob2.start("bob", user_token("bob", 1))
print("bob2", bob2.next())
print("bob", bob.next())

# Force logout of bob's platform 1.
post("/auth/force_logout", {"platformID": 1, "userID": "bob"}, admin)
print("bob2", bob2.next())

# An invalid and an expired token at the handshake.
carol = Device("carol", 2)
carol.start("alice", user_token("alice", 5))
print("other platform", carol.next())
carol = Device("carol2", 2)
carol.start("alice", "not-a-token")
print("malformed", carol.next())
control("apps/acme/chat/settings", {"defaultTokenTTLSeconds": 60})
short = user_token("alice", 2)
control("clock/advance", {"ms": 61000})
carol = Device("carol3", 2)
carol.start("alice", short)
print("expired", carol.next())
for device in (alice, bob, bob2):
    device.sdk.stop()
