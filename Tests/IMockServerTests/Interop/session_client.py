"""A device written against docs/PROTOCOL.md with the third-party `websockets` client.

Usage: python3 session_client.py PORT ADMIN_SECRET
Registers two users over REST, logs a device in, sends a message to an offline user, lets a
second device take over with the kick it causes, and prints one line per observation; the Swift
test compares them exactly.
"""
import json
import sys
import urllib.request

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

port, secret = sys.argv[1], sys.argv[2]
base = f"http://127.0.0.1:{port}/acme/chat"


def post(path, body):
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request) as response:
        return json.load(response)


for name in ("pyuser", "pyfriend"):
    post("/users", {"username": name, "password": "pw"})
token = post("/token", {"grant_type": "password", "username": "pyuser", "password": "pw"})["access_token"]
friend_token = post("/token", {"grant_type": "password", "username": "pyfriend", "password": "pw"})["access_token"]


def login(ws, device, token, user="pyuser", extension=""):
    ws.send(json.dumps({"op": "login", "id": "1", "appKey": "acme#chat", "user": user, "token": token,
                        "device": {"os": "android", "name": device, "uuid": device, "extension": extension}}))
    return json.loads(ws.recv())


with connect(f"ws://127.0.0.1:{port}/ws") as first:
    reply = login(first, "phone-1", token)
    print("login", reply["op"], reply["resource"])
    first.send(json.dumps({"op": "ping", "id": "p"}))
    print("ping", json.loads(first.recv())["op"])
    first.send(json.dumps({"op": "send", "id": "s", "to": "pyfriend", "text": "hello"}))
    print("send", json.loads(first.recv())["op"])

    # Single-device takeover is not the default policy; a kick through the control API stands in.
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/_imock/apps/acme/chat/kick",
        data=json.dumps({"user": "pyuser", "code": 206, "byDeviceName": "tablet", "byExtension": "hi"}).encode(),
        headers={"Content-Type": "application/json", "Authorization": "Bearer " + secret}, method="POST")
    urllib.request.urlopen(request).read()
    kicked = json.loads(first.recv())
    print("kicked", kicked["code"], kicked["by"]["deviceName"], kicked["by"]["extension"])
    try:
        first.recv()
    except ConnectionClosed as closed:
        print("closed", closed.rcvd.code)

with connect(f"ws://127.0.0.1:{port}/ws") as friend:
    print("friend", login(friend, "friend-phone", friend_token, user="pyfriend")["op"])
    frames = [json.loads(friend.recv()) for _ in range(3)]
    print("offline", [frame["op"] for frame in frames], frames[1]["text"])
