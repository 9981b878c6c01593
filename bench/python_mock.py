#!/usr/bin/env python3
"""The Python baseline of `imock bench --compare`: what a team would hand-write instead of imock.

A small asyncio mock of the same REST subset and the login/message part of the imock JSON
protocol (docs/PROTOCOL.md), with the same HMAC-SHA256 tokens (YWMt + base64url(claims JSON)
+ "." + base64url(MAC)) and PBKDF2-HMAC-SHA256 password hashes (1000 iterations, as imock):

- aiohttp on --http-port: POST /{org}/{app}/token (client_credentials, password),
  POST /{org}/{app}/users (one object, or a batch of at most 60), GET /{org}/{app}/users/{name};
- websockets on --ws-port, path /ws: login (app key, user, token, device; a per-user device
  limit kicks the earliest device with 206), ping, send (live to every session of the
  recipient, else queued offline), offline sync at login, ack.

The apps, their credentials and signing keys and the users come from --config (written by
`imock bench`). Nothing is persisted. Plain asyncio, no uvloop, no compression.
"""

import argparse
import asyncio
import base64
import hashlib
import hmac
import json
import os
import time
import uuid
from collections import OrderedDict

from aiohttp import web
from websockets.asyncio.server import serve

ITERATIONS = 1000
OFFLINE_LIMIT = 10_000
BATCH_LIMIT = 60


def now_ms():
    return int(time.time() * 1000)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class App:
    def __init__(self, config):
        self.key = config["appKey"]
        self.org, self.name = self.key.split("#")
        self.client_id = config["clientId"]
        self.client_secret = config["clientSecret"]
        self.signing_key = base64.b64decode(config["signingKey"])
        self.device_limit = config["deviceLimit"]
        self.uuid = str(uuid.uuid4())
        self.users = {}
        for name in config["users"]:
            self.add_user(name, None)
        self.next_token_id = len(self.users) + 1
        self.offline = {}  # user -> OrderedDict(messageId -> message)
        self.sessions = {}  # user -> list of Session, earliest login first

    def add_user(self, name, password):
        salt = os.urandom(16) if password is not None else None
        digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, ITERATIONS) if password is not None else None
        created = now_ms()
        self.users[name] = {
            "uuid": str(uuid.uuid4()), "salt": salt, "hash": digest, "created": created, "activated": True,
        }

    def check_password(self, name, password):
        user = self.users.get(name)
        if user is None or user["hash"] is None:
            return False
        candidate = hashlib.pbkdf2_hmac("sha256", password.encode(), user["salt"], ITERATIONS)
        return hmac.compare_digest(candidate, user["hash"])

    def issue(self, kind, subject, ttl=604800):
        issued = now_ms()
        claims = {"app": self.key, "sub": subject, "kind": kind, "iat": issued, "exp": issued + ttl * 1000,
                  "jti": self.next_token_id}
        self.next_token_id += 1
        body = json.dumps(claims, separators=(",", ":")).encode()
        mac = hmac.new(self.signing_key, body, hashlib.sha256).digest()
        return "YWMt" + b64url(body) + "." + b64url(mac), ttl

    def verify(self, token):
        """The claims of a valid token of this app, else None."""
        if not token.startswith("YWMt"):
            return None
        try:
            body_text, mac_text = token[4:].split(".")
            body, mac = b64url_decode(body_text), b64url_decode(mac_text)
        except ValueError:
            return None
        if not hmac.compare_digest(hmac.new(self.signing_key, body, hashlib.sha256).digest(), mac):
            return None
        claims = json.loads(body)
        if claims.get("app") != self.key or claims.get("exp", 0) <= now_ms():
            return None
        return claims

    def entity(self, name):
        user = self.users[name]
        return {"uuid": user["uuid"], "type": "user", "created": user["created"], "modified": user["created"],
                "username": name, "activated": user["activated"]}


class Mock:
    def __init__(self, config):
        self.apps = {app["appKey"]: App(app) for app in config["apps"]}
        self.next_message_id = 1

    def app(self, request):
        return self.apps.get(request.match_info["org"] + "#" + request.match_info["app"])

    # REST

    @staticmethod
    def error(status, error, description):
        return web.json_response({"error": error, "exception": "BenchMockException", "timestamp": now_ms(),
                                  "duration": 0, "error_description": description}, status=status)

    def bearer_app(self, app, request):
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            return False
        claims = app.verify(header[7:])
        return claims is not None and claims["kind"] == "app"

    def envelope(self, app, action, entities, **extra):
        body = {"action": action, "application": app.uuid, "path": "/users",
                "uri": f"http://127.0.0.1/{app.org}/{app.name}/users", "entities": entities,
                "timestamp": now_ms(), "duration": 0, "organization": app.org, "applicationName": app.name}
        body.update(extra)
        return web.json_response(body)

    async def token(self, request):
        app = self.app(request)
        if app is None:
            return self.error(404, "organization_application_not_found", "no such app")
        try:
            body = await request.json()
        except ValueError:
            return self.error(400, "json_parse", "bad JSON")
        grant = body.get("grant_type")
        if grant == "client_credentials":
            if not (hmac.compare_digest(str(body.get("client_id", "")), app.client_id)
                    and hmac.compare_digest(str(body.get("client_secret", "")), app.client_secret)):
                return self.error(400, "invalid_grant", "client credentials do not match")
            token, ttl = app.issue("app", app.client_id)
            return web.json_response({"access_token": token, "expires_in": ttl, "application": app.uuid})
        if grant == "password":
            name = str(body.get("username", "")).lower()
            if not app.check_password(name, str(body.get("password", ""))):
                return self.error(400, "invalid_grant", "invalid username or password")
            token, ttl = app.issue("user", name)
            return web.json_response({"access_token": token, "expires_in": ttl, "user": app.entity(name)})
        return self.error(400, "invalid_grant", "unsupported grant_type")

    async def register(self, request):
        app = self.app(request)
        if app is None:
            return self.error(404, "organization_application_not_found", "no such app")
        if not self.bearer_app(app, request):
            return self.error(401, "unauthorized", "an app token is required")
        try:
            body = await request.json()
        except ValueError:
            return self.error(400, "json_parse", "bad JSON")
        batch = isinstance(body, list)
        items = body if batch else [body]
        if not items or len(items) > BATCH_LIMIT:
            return self.error(400, "illegal_argument", "1 to 60 users")
        created, failed = [], []
        for item in items:
            name = str(item.get("username", "")).lower()
            password = item.get("password")
            if not name or not isinstance(password, str):
                return self.error(400, "illegal_argument", "username and password are required")
            if name in app.users:
                if not batch:
                    return self.error(400, "duplicate_unique_property_exists", f"username {name} exists")
                failed.append({"username": name, "registerUserFailReason": "the user already exists"})
                continue
            app.add_user(name, password)
            created.append(app.entity(name))
        extra = {"data": failed} if batch else {}
        return self.envelope(app, "post", created, **extra)

    async def get_user(self, request):
        app = self.app(request)
        if app is None:
            return self.error(404, "organization_application_not_found", "no such app")
        if not self.bearer_app(app, request):
            return self.error(401, "unauthorized", "an app token is required")
        name = request.match_info["username"].lower()
        if name not in app.users:
            return self.error(404, "entity_not_found", f"User {name} not found")
        return self.envelope(app, "get", [app.entity(name)], count=1)

    # WebSocket

    async def session(self, websocket):
        if websocket.request.path != "/ws":
            await websocket.close(1008, "unknown path")
            return
        state = Session(self, websocket)
        try:
            async for frame in websocket:
                if isinstance(frame, bytes):
                    await websocket.close(1003, "binary messages are not part of the protocol")
                    break
                await state.handle(frame)
        except Exception:  # a dropped connection ends the session like a close
            pass
        finally:
            state.ended()


class Session:
    def __init__(self, mock, websocket):
        self.mock = mock
        self.websocket = websocket
        self.app = None
        self.user = None
        self.device = None
        self.live = False

    async def send(self, frame):
        await self.websocket.send(json.dumps(frame, separators=(",", ":")))

    async def refuse(self, request_id, code, message, op="error"):
        frame = {"op": op}
        if request_id is not None:
            frame["id"] = request_id
        frame.update({"code": code, "message": message})
        await self.send(frame)

    async def handle(self, text):
        try:
            frame = json.loads(text)
            op = frame["op"]
        except (ValueError, KeyError, TypeError):
            await self.refuse(None, 110, "malformed frame")
            return
        request_id = frame.get("id")
        if op == "ping":
            reply = {"op": "pong"}
            if request_id is not None:
                reply["id"] = request_id
            reply["serverTime"] = now_ms()
            await self.send(reply)
        elif op == "login":
            await self.login(frame, request_id)
        elif not self.live:
            await self.refuse(request_id, 201, "log in first")
        elif op == "send":
            await self.send_message(frame, request_id)
        elif op == "ack":
            await self.ack(frame, request_id)
        else:
            await self.refuse(request_id, 110, f"unknown op {op}")

    async def login(self, frame, request_id):
        if self.live:
            await self.refuse(request_id, 200, "already logged in")
            return
        app = self.mock.apps.get(frame.get("appKey"))
        if app is None:
            await self.refuse(request_id, 100, "unknown app key", "login.error")
            await self.websocket.close(4100, "unknown app key")
            return
        user = str(frame.get("user", "")).lower()
        claims = app.verify(str(frame.get("token", "")))
        if claims is None or claims["kind"] != "user" or claims["sub"] != user or user not in app.users:
            await self.refuse(request_id, 104, "invalid token", "login.error")
            await self.websocket.close(4104, "invalid token")
            return
        device = frame.get("device") or {}
        self.app, self.user, self.live = app, user, True
        self.device = {"uuid": device.get("uuid", ""), "name": device.get("name", ""),
                       "resource": f"{device.get('os', 'custom')}_{device.get('uuid', '')}"}
        sessions = app.sessions.setdefault(user, [])
        while len(sessions) >= app.device_limit:
            victim = sessions.pop(0)
            await victim.kick(206, "logged in on another device")
        sessions.append(self)
        await self.send({"op": "login.ok", "id": request_id, "resource": self.device["resource"],
                         "tokenExpiresAt": claims["exp"], "serverTime": now_ms()})
        queue = app.offline.get(user)
        if queue:
            await self.send({"op": "offline.start", "count": len(queue)})
            for message in list(queue.values()):
                await self.send(dict(op="message", **message))
            await self.send({"op": "offline.finish"})

    async def kick(self, code, reason):
        self.live = False
        await self.send({"op": "kicked", "code": code, "reason": reason})
        await self.websocket.close(4000 + code, reason)

    async def send_message(self, frame, request_id):
        recipient = str(frame.get("to", "")).lower()
        text = frame.get("text")
        if recipient not in self.app.users:
            await self.refuse(request_id, 204, "no such recipient")
            return
        if not isinstance(text, str) or not text:
            await self.refuse(request_id, 110, "field text must be a string")
            return
        sessions = self.app.sessions.get(recipient) or []
        queue = self.app.offline.setdefault(recipient, OrderedDict())
        if not sessions and len(queue) >= OFFLINE_LIMIT:
            await self.refuse(request_id, 4, "the recipient's offline queue is full")
            return
        message_id = str(self.mock.next_message_id)
        self.mock.next_message_id += 1
        timestamp = now_ms()
        message = {"messageId": message_id, "from": self.user, "to": recipient, "text": text, "timestamp": timestamp}
        if sessions:
            out = json.dumps(dict(op="message", **message), separators=(",", ":"))
            for session in sessions:
                await session.websocket.send(out)
        else:
            queue[message_id] = message
        await self.send({"op": "send.ok", "id": request_id, "messageId": message_id, "timestamp": timestamp})

    async def ack(self, frame, request_id):
        queue = self.app.offline.get(self.user)
        message_id = frame.get("messageId")
        if not queue or message_id not in queue:
            await self.refuse(request_id, 500, "no such offline message")
            return
        del queue[message_id]
        await self.send({"op": "ack.ok", "id": request_id})

    def ended(self):
        if self.app is not None and self.user is not None:
            sessions = self.app.sessions.get(self.user)
            if sessions and self in sessions:
                sessions.remove(self)
        self.live = False


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", required=True)
    parser.add_argument("--http-port", type=int, required=True)
    parser.add_argument("--ws-port", type=int, required=True)
    arguments = parser.parse_args()
    with open(arguments.config) as file:
        mock = Mock(json.load(file))
    http = web.Application()
    http.router.add_post("/{org}/{app}/token", mock.token)
    http.router.add_post("/{org}/{app}/users", mock.register)
    http.router.add_get("/{org}/{app}/users/{username}", mock.get_user)
    runner = web.AppRunner(http, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", arguments.http_port, backlog=4096).start()
    async with serve(mock.session, "127.0.0.1", arguments.ws_port, compression=None, max_size=1 << 20,
                     ping_interval=None, backlog=4096):
        await asyncio.Future()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
