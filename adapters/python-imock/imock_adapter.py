#!/usr/bin/env python3
"""A device adapter for `imock run` written in Python: a tiny Easemob-style SDK over the imock
WebSocket protocol (docs/PROTOCOL.md), driven by the harness's JSON-lines contract
(docs/FIXTURES.md § Adapters). Standard library plus `websockets`.

It keeps its own timers in real time (it declares "clock": "realtime"), renders the `easemob`
profile, and passes the fixtures listed in subset.txt. One process serves a whole run (`reset`
between fixtures); its callbacks carry the device's frame count and it answers the ordering
`barrier`, so a cross-device `order` through it is exact. A real vendor SDK is put under the same
fixtures by replacing the `Device` class with a few lines that call that SDK.

Run:  imock run --adapter python="python3 adapters/python-imock/imock_adapter.py" \\
                --all-devices python $(cat adapters/python-imock/subset.txt)
"""
import asyncio
import itertools
import json
import random
import sys
import urllib.error
import urllib.request

PROTOCOL = 1
COMMANDS = ["init", "addDelegate", "removeDelegate", "login", "logout", "renewToken", "send",
            "queryDevices", "restart", "state", "shutdown", "settle", "reset", "barrier"]


def emit(message):
    sys.stdout.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def error(code, message):
    return {"code": code, "message": message}


class Device:
    """One SDK instance: logged in and connected kept apart, Easemob callback names."""

    def __init__(self, name, setup):
        self.name = name
        self.setup = setup
        self.delegate = False
        self.ws = None
        self.reader = None
        self.user = None
        self.token = None
        self.status = "Logout"          # Logout / Logging / Logged
        self.connected = False
        self.ids = itertools.count(1)
        self.waiting = {}               # request id -> future of the reply frame
        self.in_offline_sync = False
        self.frames = 0                 # server frames received since init (closes count too)
        self.received = []              # (frame number, op or "closed"), for the ordering barrier
        self.matched = 0                # how much of `received` the barrier has matched

    # -- callbacks -------------------------------------------------------------------------
    def callback(self, name, **args):
        if self.delegate:
            emit({"type": "callback", "device": self.name, "name": name, "args": args, "frames": self.frames})

    def count(self, op):
        """A server frame (or the server's close) reached this device."""
        self.frames += 1
        self.received.append((self.frames, op))

    async def barrier(self, listed):
        """The device's frame number of each listed server frame, in order, once it came (it waits
        up to 1 s in all for those not here yet: settle came first, so all should be; one that
        never comes is left out)."""
        numbers = {}
        patience = 100
        for frame in listed:
            event = frame["event"]
            op = "closed" if event.get("type") == "closed" else event.get("frame", {}).get("op")
            while True:
                found = next((i for i in range(self.matched, len(self.received)) if self.received[i][1] == op), None)
                if found is not None:
                    numbers[str(frame["sequence"])] = self.received[found][0]
                    self.matched = found + 1
                    break
                if patience == 0:
                    break
                patience -= 1
                await asyncio.sleep(0.01)
        return numbers

    # -- wire ------------------------------------------------------------------------------
    async def request(self, frame):
        request_id = str(next(self.ids))
        frame["id"] = request_id
        future = asyncio.get_running_loop().create_future()
        self.waiting[request_id] = future
        await self.ws.send(json.dumps(frame))
        return await future

    def login_frame(self, auto):
        return {"op": "login", "appKey": self.setup["appKey"], "user": self.user, "token": self.token,
                "device": self.setup["device"], "autoLogin": auto, "sync": self.setup.get("syncTypes", [])}

    async def open(self, auto):
        """Opens a connection and logs in; the reply frame (login.ok or login.error)."""
        # Imported here, not at the top: the hello goes out before the SDK loads (the contract's
        # handshake); without websockets the first login is refused saying so.
        from websockets.asyncio.client import connect
        self.ws = await connect(self.setup["serverURL"], open_timeout=10, ping_interval=None)
        request_id = str(next(self.ids))
        frame = self.login_frame(auto)
        frame["id"] = request_id
        await self.ws.send(json.dumps(frame))
        reply = json.loads(await self.ws.recv())
        self.count(reply.get("op"))
        if reply.get("op") == "login.ok":
            self.reader = asyncio.create_task(self.read(self.ws))
        else:
            await self.ws.close()
            self.ws = None
            self.count("closed")
        return reply

    async def read(self, ws):
        try:
            async for text in ws:
                frame = json.loads(text)
                self.count(frame.get("op"))
                self.frame(frame)
        except Exception:
            pass
        self.count("closed")
        if ws is self.ws and self.status == "Logged":
            await self.dropped(ws)

    def frame(self, frame):
        op = frame.get("op")
        pending = self.waiting.pop(frame.get("id"), None) if "id" in frame else None
        if pending is not None and not pending.done():
            pending.set_result(frame)
            return
        if op == "kicked":
            self.end(kick=frame)
        elif op == "token.willExpire":
            self.callback("tokenWillExpire", errorCode=109)
        elif op == "token.expired":
            self.end(expired=True)
        elif op == "offline.start":
            self.in_offline_sync = True
            self.callback("onOfflineMessageSyncStart")
        elif op == "message":
            self.callback("messagesDidReceive", messageId=frame["messageId"], **{"from": frame["from"]}, text=frame["text"])
            if self.in_offline_sync:
                asyncio.create_task(self.ws.send(json.dumps({"op": "ack", "id": "ack-" + frame["messageId"], "messageId": frame["messageId"]})))
        elif op == "offline.finish":
            self.in_offline_sync = False
            self.callback("onOfflineMessageSyncFinish")
        elif op == "sync.start":
            self.callback("syncDataStart", type=frame["type"])
        elif op == "sync.finish":
            self.callback("syncDataFinished", error=frame.get("error"), type=frame["type"])

    def end(self, kick=None, expired=False):
        """The session is over: logged out, no reconnect (kick or token expiry)."""
        was_connected = self.connected
        self.status, self.connected = "Logout", False
        ws, self.ws = self.ws, None
        if ws is not None:
            asyncio.create_task(ws.close())
        if was_connected:
            self.callback("connectionStateDidChange", state="disconnected")
        if expired:
            self.callback("tokenDidExpire", errorCode=108)
            return
        code = kick["code"]
        by = kick.get("by")
        if code in (206, 220):
            info = {"deviceName": by["deviceName"], "extensionInfo": by["extension"]} if by else None
            self.callback("userAccountDidLoginFromOtherDevice", info=info)
        elif code == 207:
            self.callback("userAccountDidRemoveFromServer")
        elif code == 305:
            self.callback("userDidForbidByServer")
        else:
            self.callback("userAccountDidForcedToLogout", code=code)

    async def dropped(self, ws):
        """A recoverable drop: still logged in; reconnect by itself (real time)."""
        self.connected = False
        self.callback("connectionStateDidChange", state="disconnected")
        policy = self.setup.get("reconnect") or {"minMs": 1000, "maxMs": 2000}
        while self.status == "Logged" and not self.connected:
            await asyncio.sleep(random.uniform(policy["minMs"], policy["maxMs"]) / 1000)
            try:
                reply = await self.open(auto=True)
            except Exception:
                continue
            if reply.get("op") == "login.ok":
                self.connected = True
                self.callback("connectionStateDidChange", state="connected")
            else:
                self.end(kick={"code": reply.get("code", 0)})

    # -- SDK calls -------------------------------------------------------------------------
    async def login(self, user, token):
        if self.status != "Logout":
            same = self.user == user
            result = error(200 if same else 218, "already logged in" if same else "another account is logged in")
            self.callback("loginCompletion", username=user, error=result)
            return {"error": result}
        self.user, self.token, self.status = user, token, "Logging"
        self.callback("onDatabaseOpened", error=None, username=user)
        try:
            reply = await self.open(auto=False)
        except Exception as failure:
            reply = {"op": "login.error", "code": 300, "message": str(failure)}
        if reply.get("op") == "login.ok":
            self.status, self.connected = "Logged", True
            self.callback("loginCompletion", username=user, error=None)
            self.callback("connectionStateDidChange", state="connected")
            return {"error": None}
        self.status = "Logout"
        result = error(reply.get("code", 300), reply.get("message", ""))
        self.callback("loginCompletion", username=user, error=result)
        return {"error": result}

    async def logout(self, unbind):
        if self.status != "Logged":
            self.callback("logoutCompletion", error=None)
            return {"error": None}
        reply = await self.request({"op": "logout", "unbindDeviceToken": unbind})
        if reply.get("op") == "error":
            result = error(reply["code"], reply["message"])
            self.callback("logoutCompletion", error=result)
            return {"error": result}
        self.status, self.connected = "Logout", False
        ws, self.ws = self.ws, None
        await ws.close()
        self.callback("logoutCompletion", error=None)
        return {"error": None}

    async def renew(self, token):
        if not self.connected:
            result = error(201, "not logged in")
            self.callback("renewTokenCompletion", error=result)
            return {"error": result}
        reply = await self.request({"op": "renewToken", "token": token})
        result = None if reply.get("op") == "renewToken.ok" else error(reply["code"], reply["message"])
        if result is None:
            self.token = token
        self.callback("renewTokenCompletion", error=result)
        return {"error": result}

    async def send(self, to, text):
        if not self.connected:
            result = error(201 if self.status != "Logged" else 300, "not connected")
            self.callback("sendMessageCompletion", messageId=None, error=result)
            return {"error": result}
        reply = await self.request({"op": "send", "to": to, "text": text})
        if reply.get("op") == "send.ok":
            self.callback("sendMessageCompletion", messageId=reply["messageId"], error=None)
            return {"error": None, "messageId": reply["messageId"]}
        result = error(reply["code"], reply["message"])
        self.callback("sendMessageCompletion", messageId=None, error=result)
        return {"error": result}

    async def devices(self, user, token):
        org, app = self.setup["appKey"].split("#")
        base = self.setup["serverURL"].replace("ws://", "http://").rsplit("/ws", 1)[0]
        request = urllib.request.Request(f"{base}/{org}/{app}/users/{user}/resources",
                                         headers={"Authorization": f"Bearer {token}"})

        def fetch():
            try:
                with urllib.request.urlopen(request, timeout=10) as answer:
                    return 200, json.load(answer)
            except urllib.error.HTTPError as failure:
                return failure.code, {}
        status, body = await asyncio.get_running_loop().run_in_executor(None, fetch)
        if status != 200:
            return {"error": error(status, f"HTTP {status}")}
        return {"error": None, "resources": [entry["res"] for entry in body.get("data", [])]}

    async def settle(self):
        """A ping round trip: every frame the server sent before is handled when its pong comes."""
        if self.connected and self.ws is not None:
            reply = await asyncio.wait_for(self.request({"op": "ping"}), timeout=5)
            assert reply.get("op") == "pong"

    def state(self):
        return {"loggedIn": self.status == "Logged", "connected": self.connected,
                "currentUser": self.user if self.status == "Logged" else None, "loginStatus": self.status}

    async def shutdown(self):
        self.status, self.connected = "Logout", False
        if self.ws is not None:
            await self.ws.close()
        self.ws = None


class Adapter:
    def __init__(self):
        self.devices = {}

    async def handle(self, message):
        command = message.get("command")
        name = message.get("device")
        if command == "settle":
            skip = set(message.get("skip", []))
            await asyncio.gather(*(d.settle() for n, d in self.devices.items() if n not in skip))
            return {"error": None}
        if command in ("shutdown", "reset") and name is None:
            for device in self.devices.values():
                device.delegate = False
                await device.shutdown()
            if command == "reset":
                self.devices = {}
            return {"error": None}
        if command == "barrier":
            frames = {}
            for device_name, listed in message.get("devices", {}).items():
                device = self.devices.get(device_name)
                if device is not None:
                    frames.update(await device.barrier(listed))
            return {"error": None, "frames": frames}
        if command == "init":
            self.devices[name] = Device(name, message["setup"])
            return {"error": None}
        device = self.devices.get(name)
        if device is None:
            raise LookupError(f"device {name} has no init before")
        if command == "addDelegate":
            device.delegate = True
            return {"error": None}
        if command == "removeDelegate":
            device.delegate = False
            return {"error": None}
        if command == "login":
            return await device.login(message["user"], message["token"])
        if command == "logout":
            return await device.logout(message.get("unbind", False))
        if command == "renewToken":
            return await device.renew(message["token"])
        if command == "send":
            return await device.send(message["to"], message["text"])
        if command == "queryDevices":
            return await device.devices(message["user"], message["token"])
        if command == "state":
            return device.state()
        if command == "restart":
            await device.shutdown()
            fresh = Device(name, device.setup)
            fresh.delegate = device.delegate
            fresh.frames, fresh.received, fresh.matched = device.frames, device.received, device.matched
            self.devices[name] = fresh
            return {"error": None}
        if command == "shutdown":
            await device.shutdown()
            return {"error": None}
        raise LookupError(f"unsupported command {command}")

    async def run_command(self, message):
        try:
            emit({"type": "result", "id": message["id"], "result": await self.handle(message)})
        except Exception as failure:
            emit({"type": "result", "id": message["id"], "refused": f"{type(failure).__name__}: {failure}"})
        if message.get("command") == "shutdown" and message.get("device") is None:
            asyncio.get_running_loop().call_soon(sys.exit, 0)


async def main():
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 20)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    adapter = Adapter()
    tasks = set()
    while line := await reader.readline():
        message = json.loads(line)
        if message.get("type") == "hello":
            if message.get("protocol") != PROTOCOL:
                emit({"type": "hello", "protocol": PROTOCOL, "error": "unsupported protocol"})
                return
            emit({"type": "hello", "protocol": PROTOCOL, "name": "python-imock", "version": "0.1",
                  "clock": "realtime", "profiles": ["easemob"], "commands": COMMANDS})
        elif message.get("type") == "command":
            task = asyncio.create_task(adapter.run_command(message))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            if message.get("command") == "shutdown" and message.get("device") is None:
                await task
                return


if __name__ == "__main__":
    asyncio.run(main())
