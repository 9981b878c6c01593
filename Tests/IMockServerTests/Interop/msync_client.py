"""An Easemob Web SDK-like device written against docs/PROTOCOL-MSYNC.md with the third-party
`websockets` client and a protobuf encoder written here by hand (field numbers from the msync
schema; nothing of imock's Swift codec).

Usage: python3 msync_client.py PORT ADMIN_SECRET
Prints one line per observation; the Swift test compares them exactly.
"""
import base64
import json
import sys
import time
import urllib.request

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

port, secret = sys.argv[1], sys.argv[2]
base = f"http://127.0.0.1:{port}/acme/chat"
APP = "acme#chat"

# --- protobuf by hand -------------------------------------------------------------------------


def varint(n):
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def field_varint(number, value):
    return varint(number << 3) + varint(value)


def field_bytes(number, data):
    if isinstance(data, str):
        data = data.encode()
    return varint(number << 3 | 2) + varint(len(data)) + data


def parse(data):
    """{field: [values]}; varints as int, length-delimited as bytes."""
    fields, i = {}, 0
    while i < len(data):
        key, i = read_varint(data, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = read_varint(data, i)
        elif wire == 2:
            length, i = read_varint(data, i)
            value, i = data[i:i + length], i + length
        else:
            raise ValueError(f"wire type {wire}")
        fields.setdefault(number, []).append(value)
    return fields


def read_varint(data, i):
    shift = result = 0
    while True:
        byte = data[i]
        i += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, i


def one(fields, number, default=None):
    return fields.get(number, [default])[0]


def jid(name, resource=None):
    out = field_bytes(1, APP) + field_bytes(2, name) + field_bytes(3, "easemob.com")
    return out + (field_bytes(4, resource) if resource else b"")


def msync(command, payload=b"", extra=b""):
    return field_varint(1, 0) + extra + field_varint(8, command) + field_bytes(9, payload)


SYNC, UNREAD, NOTICE, PROVISION, LOGOUT = 0, 1, 2, 3, 4


def provision(user, token, resource, extension=None):
    body = (field_varint(1, 16) + field_bytes(2, "4.17.0") + field_varint(5, 0) + field_varint(6, 0)
            + field_bytes(9, "wx_" + resource) + field_bytes(12, "webim") + field_bytes(13, resource)
            + field_bytes(18, json.dumps({"token": "$t$" + token})) + field_bytes(20, "1700000000000:")
            + (field_bytes(21, extension) if extension else b"") + field_bytes(17, "v5.1"))
    extra = field_bytes(2, jid(user, resource)) + field_bytes(3, "$t$" + token)
    return msync(PROVISION, body, extra + field_varint(10, 0) + field_varint(11, 0))


def text_meta(meta_id, sender, to, text):
    content = field_bytes(2, text)
    body = field_varint(1, 1) + field_bytes(2, jid(sender)) + field_bytes(3, jid(to)) + field_bytes(4, content)
    return field_varint(1, meta_id) + field_bytes(2, jid(sender)) + field_bytes(3, jid(to)) + field_varint(5, 1) + field_bytes(6, body)


def pull(queue, key=None):
    return msync(SYNC, field_bytes(3, jid(queue)) + (field_varint(2, key) if key is not None else b""))


class Device:
    def __init__(self, ws, text=False):
        self.ws, self.text = ws, text

    def send(self, frame):
        self.ws.send(base64.b64encode(frame).decode() if self.text else frame)

    def recv(self):
        data = self.ws.recv()
        if self.text:
            assert isinstance(data, str), "a text request must get text"
            data = base64.b64decode(data)
        else:
            assert isinstance(data, bytes), "a binary request must get binary"
        envelope = parse(data)
        return one(envelope, 8, 0), parse(one(envelope, 9, b""))


def print_close(ws):
    """Waits for the server's close and prints its code."""
    try:
        ws.recv()
    except ConnectionClosed as closed:
        print("closed", closed.rcvd.code)


# --- REST -------------------------------------------------------------------------------------


def call(method, url, body=None, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None,
                                     headers=headers, method=method)
    with urllib.request.urlopen(request) as response:
        return json.load(response)


for name in ("alice", "bob"):
    call("POST", base + "/users", {"username": name, "password": "pw"})


def password_login(name):
    # As the Web SDK posts it: with a timestamp.
    return call("POST", base + "/token",
                {"grant_type": "password", "username": name, "password": "pw", "timestamp": 1700000000000})["access_token"]


alice_token, bob_token = password_login("alice"), password_login("bob")


def status(fields, number=1):
    """A Status (field 1 of CommSyncDL and CommUnreadDL, 8 of Provision, 3 of Logout)."""
    st = parse(one(fields, number, b""))
    return f"{one(st, 1, 0)}:{one(st, 2, b'').decode()}"


def show_page(fields):
    metas = []
    for raw in fields.get(4, []):
        meta = parse(raw)
        body = parse(one(meta, 6))
        content = parse(one(body, 4))
        metas.append(f"{parse(one(meta, 2))[2][0].decode()}:{one(content, 2).decode()}")
    queue = parse(one(fields, 6, b"")).get(2, [b"-"])[0].decode()
    return f"queue={queue} metas={metas} isLast={one(fields, 7, 0)} nextKey={'yes' if 5 in fields else 'no'}"


def pull_and_confirm(device, queue):
    """Pulls `queue`, prints the page, confirms it with its key and prints the answer."""
    device.send(pull(queue))
    command, page = device.recv()
    print("page", command, show_page(page))
    device.send(pull(queue, one(page, 5)))
    command, page = device.recv()
    print("page", command, show_page(page))


# 1. alice logs in over binary frames, sends to bob (offline), heartbeat, logs out.
with connect(f"ws://127.0.0.1:{port}/websocket") as ws:
    alice = Device(ws)
    alice.send(provision("alice", alice_token, "webim_wx_1"))
    command, reply = alice.recv()
    expires = json.loads(one(reply, 18).decode())["expires_in"]
    print("provision", command, status(reply, 8), one(reply, 13).decode(), "expires_in>0" if expires > 0 else expires)
    alice.send(msync(UNREAD))
    command, reply = alice.recv()
    print("unread", command, status(reply), "queues", len(reply.get(2, [])), "timestamp>0", one(reply, 3, 0) > 0)
    # The login statistic needs no answer; the send that follows gets its ack.
    alice.send(msync(SYNC, field_bytes(1, field_varint(1, 7) + field_varint(5, 0))))
    alice.send(msync(SYNC, field_bytes(1, text_meta(42, "alice", "bob", "hi bob 1"))))
    command, reply = alice.recv()
    print("ack", command, status(reply), "metaId", one(reply, 2), "serverId>0", one(reply, 3, 0) > 0)
    alice.send(msync(SYNC, field_bytes(1, text_meta(43, "alice", "bob", "hi bob 2"))))
    alice.recv()
    alice.send(msync(SYNC, field_bytes(1, text_meta(44, "alice", "nobody", "lost"))))
    command, reply = alice.recv()
    print("ack", command, status(reply), "metaId", one(reply, 2))
    alice.send(msync(LOGOUT, field_bytes(1, "1700000000000:") + field_bytes(2, "inner:logout")))
    command, reply = alice.recv()
    print("logout", command, status(reply, 3))
    print_close(ws)

# 2. bob logs in over base64 text frames: the unread list names alice's queue; the pull gets a
#    page (isLast false, nextKey), the key confirms it and gets the empty last page.
with connect(f"ws://127.0.0.1:{port}/websocket") as ws:
    bob = Device(ws, text=True)
    bob.send(provision("bob", bob_token, "webim_wx_2"))
    print("provision", bob.recv()[0])
    bob.send(msync(UNREAD))
    command, reply = bob.recv()
    queues = [(parse(one(parse(q), 1))[2][0].decode(), one(parse(q), 2)) for q in reply.get(2, [])]
    print("unread", command, queues)
    pull_and_confirm(bob, "alice")
    # A live message: NOTICE, pull, page, confirm.
    with connect(f"ws://127.0.0.1:{port}/websocket") as ws2:
        alice = Device(ws2)
        alice.send(provision("alice", alice_token, "webim_wx_3"))
        alice.recv()
        alice.send(msync(SYNC, field_bytes(1, text_meta(45, "alice", "bob", "live"))))
        alice.recv()
        command, notice = bob.recv()
        print("notice", command, parse(one(notice, 1))[2][0].decode())
        pull_and_confirm(bob, "alice")
    # 3. a kick with the new device's extension: a STATISTIC meta (operation 2 = 206) in bob's own
    #    queue, then the close.
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/_imock/apps/acme/chat/kick",
        data=json.dumps({"user": "bob", "code": 206, "byDeviceName": "tablet", "byExtension": "ext-1"}).encode(),
        headers={"Content-Type": "application/json", "Authorization": "Bearer " + secret}, method="POST")
    urllib.request.urlopen(request).read()
    command, kick = bob.recv()
    meta = parse(one(kick, 4))
    statistic = parse(one(meta, 6))
    print("kick", command, "ns", one(meta, 5, 0), "operation", one(statistic, 1), "reason", one(statistic, 10).decode(),
          "queue", parse(one(kick, 6))[2][0].decode())
    kicked_at = time.monotonic()
    print_close(ws)
    # The close lingers behind the kick (docs/PROTOCOL-MSYNC.md: 200 ms), so the SDK has read the
    # kick before it sees the close; a lower bound, which only a late timer could exceed.
    print("linger", time.monotonic() - kicked_at >= 0.15)

# 4. a refused login: an expired-looking token that is not valid.
with connect(f"ws://127.0.0.1:{port}/websocket") as ws:
    device = Device(ws)
    device.send(provision("alice", "YWMt-forged", "webim_wx_4"))
    command, reply = device.recv()
    print("refused", command, status(reply, 8))
    print_close(ws)

# 5. SockJS, as the full browser builds use it: /ws/info, then o, a["…"], c[…].
with urllib.request.urlopen(f"http://127.0.0.1:{port}/ws/info?t=1700000000000") as response:
    info = json.load(response)
    print("info", response.status, info["websocket"], info["cookie_needed"], info["origins"], type(info["entropy"]).__name__)
with connect(f"ws://127.0.0.1:{port}/ws/123/abcdefgh/websocket") as ws:
    print("open", ws.recv())
    ws.send(json.dumps([base64.b64encode(provision("alice", alice_token, "webim_random_5")).decode()]))
    frame = ws.recv()
    envelopes = json.loads(frame[1:])
    reply = parse(base64.b64decode(envelopes[0]))
    print("sockjs", frame[0], len(envelopes), one(reply, 8), status(parse(one(reply, 9)), 8))
    ws.send(json.dumps([base64.b64encode(msync(UNREAD)).decode(), base64.b64encode(msync(UNREAD)).decode()]))
    print("sockjs", [len(json.loads(ws.recv()[1:])) for _ in range(2)])
    ws.send("not json")
    print("sockjs", ws.recv())
    print_close(ws)

# 6. A kick over SockJS: the kick in an a[…] frame, then — after the same linger as on the plain
#    transport — the c[code,"reason"] frame and the close (a c[…] read first makes the SDK
#    reconnect instead of reporting the kick).
with connect(f"ws://127.0.0.1:{port}/ws/124/ijklmnop/websocket") as ws:
    ws.recv()
    ws.send(json.dumps([base64.b64encode(provision("alice", alice_token, "webim_random_6")).decode()]))
    ws.recv()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/_imock/apps/acme/chat/kick", data=json.dumps({"user": "alice", "code": 216}).encode(),
        headers={"Content-Type": "application/json", "Authorization": "Bearer " + secret}, method="POST")
    urllib.request.urlopen(request).read()
    kick = ws.recv()
    kicked_at = time.monotonic()
    statistic = parse(one(parse(one(parse(base64.b64decode(json.loads(kick[1:])[0])), 9)), 4))
    print("sockjs kick", kick[0], "operation", one(parse(one(statistic, 6)), 1))
    farewell = ws.recv()
    print("sockjs", farewell, "linger", time.monotonic() - kicked_at >= 0.15)
    print_close(ws)

# 7. Two tabs of one browser (the same device id, isFixedDeviceId): the second takes over and the
#    first is told with a kick 206 (a STATISTIC meta, then close 4206), which the SDK reports and
#    does not retry — a silent close 1000 it took for a drop and reconnected, forever.
with connect(f"ws://127.0.0.1:{port}/websocket") as first:
    old_tab = Device(first)
    old_tab.send(provision("alice", alice_token, "webim_tab"))
    old_tab.recv()
    with connect(f"ws://127.0.0.1:{port}/websocket") as second:
        new_tab = Device(second)
        new_tab.send(provision("alice", alice_token, "webim_tab"))
        command, reply = new_tab.recv()
        print("tab 2", command, status(reply, 8))
        command, kick = old_tab.recv()
        meta = parse(one(kick, 4))
        print("tab 1 kick", command, "operation", one(parse(one(meta, 6)), 1))
        print_close(first)
