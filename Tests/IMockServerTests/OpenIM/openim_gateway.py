"""A client of the OpenIM gateway and REST API written against docs/PROTOCOL-OPENIM.md.

Usage: python3 openim_gateway.py PORT ADMIN_SECRET CLIENT_SECRET ENCODING
ENCODING is `gob` (the Go SDK's frames; encoded and read with the PyPI openim-sdk-core's own
gob code) or `json` (`sdkType=js`). Every frame is gzip-compressed. Prints one line per
observation; the Swift test compares them exactly. The server runs a virtual clock with the
app on OpenIM policy 1.
"""
import base64
import gzip
import json
import sys
import urllib.parse

import websocket
from openim_sdk.gob_codec import encode_general_ws_req_stream
from openim_sdk.proto.msg import msg_pb2
from openim_sdk.proto.sdkws import sdkws_pb2
from openim_sdk.ws_client import OpenIMWSSDK
from openim_test_server import Server

port, admin_secret, client_secret, encoding = sys.argv[1:5]
server = Server(port, admin_secret, client_secret)
post, control, user_token, admin = server.post, server.control, server.user_token, server.admin


def connect(user, token, platform, app="acme/chat", **extra):
    """The upgraded socket, or the refusal's JSON body."""
    params = {"sendID": user, "token": token, "platformID": platform, "operationID": "op1",
              "isBackground": "false", "compression": "gzip", "sdkVersion": "test"}
    if encoding == "json":
        params["sdkType"] = "js"
    params.update(extra)
    params = {k: v for k, v in params.items() if v is not None}
    try:
        url = f"ws://127.0.0.1:{port}/openim/{app}?" + urllib.parse.urlencode(params)
        return websocket.create_connection(url, timeout=10)
    except websocket.WebSocketBadStatusException as error:
        return json.loads(error.resp_body)


def refusal(answer):
    return f"{answer['errCode']} {answer['errMsg']}" if isinstance(answer, dict) else "upgraded"


def send(ws, identifier, sender, data=b"", msg_incr="m"):
    if encoding == "gob":
        body = encode_general_ws_req_stream(
            {"ReqIdentifier": identifier, "Token": "", "SendID": sender, "OperationID": "op-" + msg_incr,
             "MsgIncr": msg_incr, "Data": data}, include_type_def=True)
    else:
        body = json.dumps({"reqIdentifier": identifier, "token": "", "sendID": sender, "operationID": "op-" + msg_incr,
                           "msgIncr": msg_incr, "data": base64.b64encode(data).decode() if data else None}).encode()
    ws.send_binary(gzip.compress(body))


def read_gob(frame):
    """Our frame through the PyPI client's own binary-frame handler."""
    sdk = object.__new__(OpenIMWSSDK)
    sdk._resp_type_ids, sdk._resp_field_orders = set(), {}
    responses = []
    sdk._dispatch_resp = responses.append
    sdk._emit_error = lambda error: responses.append({"error": repr(error)})
    OpenIMWSSDK._handle_binary_frame(sdk, frame)
    assert len(responses) == 1, responses
    return responses[0]


def receive(ws):
    """('resp', dict) | ('text', str) | ('close', code)."""
    opcode, data = ws.recv_data()
    if opcode == websocket.ABNF.OPCODE_CLOSE:
        return "close", int.from_bytes(data[:2], "big")
    if opcode == websocket.ABNF.OPCODE_TEXT:
        return "text", data.decode()
    if encoding == "gob":
        return "resp", read_gob(data)
    raw = json.loads(gzip.decompress(data))
    return "resp", {"ReqIdentifier": raw["reqIdentifier"], "MsgIncr": raw["msgIncr"],
                    "OperationID": raw["operationID"], "ErrCode": raw["errCode"], "ErrMsg": raw["errMsg"],
                    "Data": base64.b64decode(raw["data"]) if raw["data"] else b""}


def response(ws):
    kind, value = receive(ws)
    assert kind == "resp", (kind, value)
    return value


def closed(ws):
    kind, value = receive(ws)
    return f"{kind} {value}"


def text_message(sender, recipient, text, client_id):
    msg = sdkws_pb2.MsgData()
    msg.sendID, msg.recvID, msg.clientMsgID = sender, recipient, client_id
    msg.sessionType, msg.msgFrom, msg.contentType = 1, 100, 101
    msg.content = json.dumps({"content": text}).encode()
    return msg.SerializeToString()


def content(msg):
    return json.loads(msg.content)["content"]


server.register("alice", "bob")


alice_token, bob_token = user_token("alice", 5), user_token("bob", 1)

# Handshake refusals: HTTP 200 with the error, no upgrade.
print("no token", refusal(connect("alice", None, 5)))
print("platform abc", refusal(connect("alice", alice_token, "abc")))
print("platform 12", refusal(connect("alice", alice_token, 12)))
print("no operationID", refusal(connect("alice", alice_token, 5, operationID=None)))
print("sdkType rust", refusal(connect("alice", alice_token, 5, sdkType="rust")))
print("isMsgResp maybe", refusal(connect("alice", alice_token, 5, isMsgResp="maybe")))
print("no isBackground", refusal(connect("alice", alice_token, 5, isBackground=None)))
print("garbage token", refusal(connect("alice", "x.y", 5)))
print("forged token", refusal(connect("alice", alice_token[:-4] + "AAAA", 5)))
print("other user", refusal(connect("bob", alice_token, 5)))
print("other platform", refusal(connect("alice", alice_token, 1)))
print("unknown app", refusal(connect("alice", alice_token, 5, app="acme/none")))

# isMsgResp: the answer is the first text frame; a refusal then closes.
ws = connect("alice", "x.y", 5, isMsgResp="true")
print("isMsgResp refused", json.loads(receive(ws)[1])["errCode"], closed(ws))
alice = connect("alice", alice_token, 5, isMsgResp="true")
print("isMsgResp accepted", receive(alice)[1])

# 1003 to an offline user; then bob pulls it (1001, 1002).
send(alice, 1003, "alice", text_message("alice", "bob", "hello", "c1"), "a1")
sent = response(alice)
send_reply = msg_pb2.SendMsgResp.FromString(sent["Data"])
print("send", sent["ReqIdentifier"], sent["MsgIncr"], sent["OperationID"], sent["ErrCode"],
      send_reply.clientMsgID, send_reply.serverMsgID != "", send_reply.sendTime > 0)

bob = connect("bob", bob_token, 1)
send(bob, 1001, "bob", sdkws_pb2.GetMaxSeqReq(userID="bob").SerializeToString(), "b1")
newest = sdkws_pb2.GetMaxSeqResp.FromString(response(bob)["Data"])
conversation, seq = next(iter(newest.maxSeqs.items()))
print("newest", dict(newest.maxSeqs) == {conversation: seq}, conversation, seq == newest.minSeqs[conversation])
pull = sdkws_pb2.PullMessageBySeqsReq(userID="bob", order=sdkws_pb2.PullOrderAsc)
pull.seqRanges.add(conversationID=conversation, begin=1, end=seq, num=100)
send(bob, 1002, "bob", pull.SerializeToString(), "b2")
pulled = sdkws_pb2.PullMessageBySeqsResp.FromString(response(bob)["Data"]).msgs[conversation]
print("pull", [(m.sendID, m.recvID, content(m), m.seq == seq, m.sessionType, m.contentType) for m in pulled.Msgs],
      pulled.isEnd)

# A live message: 2001 to bob, the reply to alice.
send(alice, 1003, "alice", text_message("alice", "bob", "live", "c2"), "a2")
print("reply", response(alice)["MsgIncr"])
push = response(bob)
pushed = sdkws_pb2.PushMessages.FromString(push["Data"])
print("push", push["ReqIdentifier"], push["MsgIncr"] == "",
      [(cid, [content(m) for m in msgs.Msgs]) for cid, msgs in pushed.msgs.items()])

# A message imock does not serve, a request it does not serve, the background flag, a text ping.
bad = sdkws_pb2.MsgData(sendID="alice", recvID="bob", sessionType=2, contentType=101, content=b'{"content":"x"}')
send(alice, 1003, "alice", bad.SerializeToString(), "a3")
answer = response(alice)
print("group message", answer["ErrCode"], answer["ErrMsg"].split(":")[0])
send(bob, 1006, "bob", b"", "b3")
answer = response(bob)
print("1006", answer["ErrCode"], answer["MsgIncr"])
send(bob, 2004, "bob", sdkws_pb2.SetAppBackgroundStatusReq(userID="bob", isBackground=True).SerializeToString(), "b4")
print("background", response(bob)["ErrCode"],
      post("/user/get_users_online_status", {"userIDs": ["bob"]}, admin)["data"][0]["detailPlatformStatus"][0]["isBackground"])
bob.send(json.dumps({"type": "ping", "body": "hb"}))
print("heartbeat", receive(bob)[1])

# Policy 1: a second login on the same platform kicks the first (2002, then close); its token is kicked.
bob_token2 = user_token("bob", 1)
bob2 = connect("bob", bob_token2, 1)
print("kicked", response(bob)["ReqIdentifier"], closed(bob))
print("old token", refusal(connect("bob", bob_token, 1)))
bob_web = connect("bob", user_token("bob", 5), 5)
print("other platform stays", refusal(bob_web))

# Force logout of one platform.
post("/auth/force_logout", {"platformID": 1, "userID": "bob"}, admin)
print("forced", response(bob2)["ReqIdentifier"], closed(bob2))
print("forced token", refusal(connect("bob", bob_token2, 1)))
send(bob_web, 1001, "bob", b"", "w1")
print("web still", response(bob_web)["ErrCode"])

# Logout: the reply, then the close.
send(bob_web, 2003, "bob", b"", "w2")
answer = response(bob_web)
print("logout", answer["ReqIdentifier"], answer["ErrCode"], answer["MsgIncr"], closed(bob_web))

# A frame of another user, an unknown request: the connection closes.
send(alice, 1001, "bob", b"", "a4")
print("other sendID", closed(alice))
alice = connect("alice", alice_token, 5)
send(alice, 9999, "alice", b"", "a5")
print("unknown request", closed(alice))
alice = connect("alice", alice_token, 5)
alice.send_binary(b"not a frame")
print("not a frame", closed(alice))

# A revoked token (control API) is not in the store; an expired one is expired.
control("apps/acme/chat/tokens/revoke", {"user": "alice"})
print("revoked", refusal(connect("alice", alice_token, 5)))
control("apps/acme/chat/settings", {"defaultTokenTTLSeconds": 60})
short = user_token("alice", 5)
control("clock/advance", {"ms": 61000})
print("expired", refusal(connect("alice", short, 5)))

# The control API acts on gateway connections too: a kick with any code, a dropped connection.
post("/user/user_register", {"users": [{"userID": "carol"}]}, admin)
carol = connect("carol", user_token("carol", 7), 7)
control("apps/acme/chat/kick", {"user": "carol", "code": 217})
print("control kick", response(carol)["ReqIdentifier"], closed(carol))
carol = connect("carol", user_token("carol", 7), 7)
control("faults", {"kind": "drop", "app": "acme#chat", "user": "carol"})
try:
    print("fault", closed(carol))
except websocket.WebSocketConnectionClosedException:
    print("fault dropped")
