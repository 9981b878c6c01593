#!/usr/bin/env python3
"""A device adapter for `imock run` that drives a real third-party OpenIM client: the PyPI
package `openim-sdk-core` 0.1.11 (`OpenIMWSSDK`, AGPL-3.0, installed with pip, used unmodified;
nothing of it is copied here), through the harness's JSON-lines contract (docs/FIXTURES.md §
Adapters) against imock's OpenIM faces (docs/PROTOCOL-OPENIM.md).

Each device is one `OpenIMWSSDK`. Its REST address (`apiAddr`) and gateway (`wsAddr`) are the
app's OpenIM base path, `/openim/{org}/{app}` on the harness's server. The SDK's events are
reported in the `openim` profile's callback names (docs/CLIENT.md § Profiles), the way the
OpenIM Go SDK reacts (reference openim-zim.md §A5): a refused handshake's 1501 is
onUserTokenExpired, 1502–1505/1507 onUserTokenInvalid(message), 1506 onKickedOffline; a 2002
push is onKickedOffline. The package has no such callbacks of its own, nor a login status, so
this adapter keeps them: `login` is the SDK's `login` + `start` (the connection), then its
`sync_once` (newest seq and pull, as the Go SDK does at login); `settle` is a `sync_once` round
trip. It keeps its own timers in real time ("clock": "realtime").

Run:  imock run --adapter openim="python3 adapters/openim-python/openim_adapter.py" \\
                --all-devices openim $(cat adapters/openim-python/subset.txt)
"""
import concurrent.futures
import json
import os
import sys
import tempfile
import threading
import urllib.error
import urllib.parse
import urllib.request

from openim_sdk.ws_client import OpenIMWSSDK, WSConfig

PROTOCOL = 1
COMMANDS = ["init", "addDelegate", "removeDelegate", "login", "logout", "send", "queryDevices", "restart",
            "state", "shutdown", "settle", "reset"]
# openim-sdk-core pkg/sdkerrs: 10102 LoginRepeatError; 10003 is this project's "not connected"
# (reference openim-zim.md §A2; docs/CLIENT.md).
LOGIN_REPEAT, NOT_CONNECTED = 10102, 10003

output = threading.Lock()


def emit(message):
    with output:
        sys.stdout.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")
        sys.stdout.flush()


def error(code, message):
    return {"code": code, "message": message}


def handshake_refusal(failure):
    """The `{errCode, errMsg, errDlt}` of a refused handshake (HTTP 200 without upgrade), or None."""
    body = getattr(failure, "resp_body", None)
    try:
        return json.loads(body) if body else None
    except ValueError:
        return None


class Device:
    """One OpenIMWSSDK with the login status and listener an OpenIM SDK keeps."""

    def __init__(self, name, setup, data_root):
        self.name = name
        self.setup = setup
        self.delegate = setup.get("profile") == "openim"  # OpenIM takes its listener at init (O1)
        url = urllib.parse.urlsplit(setup["serverURL"])
        org, app = setup["appKey"].split("#", 1)
        scheme = "https" if url.scheme == "wss" else "http"
        self.rest = f"{scheme}://{url.netloc}"
        self.api_addr = f"{self.rest}/openim/{org}/{app}"
        self.ws_addr = f"{url.scheme}://{url.netloc}/openim/{org}/{app}"
        self.platform = setup["device"].get("platformId", 0)
        self.data_dir = os.path.join(data_root, name)
        self.lock = threading.RLock()
        self.sdk = None
        self.user = None
        self.status = "Logout"          # Logout / Logging / Logged
        self.connected = False
        self.starting = False           # inside the SDK's start(): its own callbacks are the login's
        self.login_done = None          # set when a running login finished: (event, result)
        self.joined = 0                 # logins that joined the running one (O4)

    # -- listener --------------------------------------------------------------------------
    def callback(self, name, **args):
        if self.delegate:
            emit({"type": "callback", "device": self.name, "name": name, "args": args})

    def on_connecting(self):
        if not self.starting:
            self.callback("onConnecting")

    def on_connect_success(self):
        if not self.starting:
            with self.lock:
                self.connected = True
            self.callback("onConnectSuccess")

    def on_connect_failed(self, failure):
        if self.starting:
            return
        refusal = handshake_refusal(failure)
        if refusal is not None and self.end_for_token(refusal):
            return
        with self.lock:
            self.connected = False
        self.callback("onConnectFailure", code=(refusal or {}).get("errCode", NOT_CONNECTED), message=str(failure))

    def on_kicked(self):
        self.session_over("onKickedOffline")

    def on_message(self, message):
        self.callback("onRecvNewMessage", messageId=message.server_msg_id, **{"from": message.send_id},
                      text=message.content_obj.content if message.content_obj else message.content)

    def end_for_token(self, refusal):
        """The Go SDK's reaction to a token error at the handshake: True when it ended the session."""
        code = refusal.get("errCode")
        if code == 1501:
            self.session_over("onUserTokenExpired")
        elif code in (1502, 1503, 1504, 1505, 1507):
            self.session_over("onUserTokenInvalid", message=f"{refusal.get('errMsg')}: {refusal.get('errDlt')}")
        elif code == 1506:
            self.session_over("onKickedOffline")
        else:
            return False
        return True

    def session_over(self, callback, **args):
        """Logged out, no reconnect (the SDK stops from its own thread), and `callback`: both under
        the lock, so a `settle` that finds the device disconnected finds the callback sent."""
        with self.lock:
            self.status, self.connected = "Logout", False
            sdk, self.sdk = self.sdk, None
            if sdk is not None:
                threading.Thread(target=sdk.logout, daemon=True).start()
            self.callback(callback, **args)

    # -- SDK calls -------------------------------------------------------------------------
    def login(self, user, token):
        with self.lock:
            if self.status == "Logged":
                result = error(LOGIN_REPEAT, "login repeat")
                self.callback("loginFailure", **result)
                return {"error": result}
            if self.status == "Logging":        # a second login while one runs shares its result (O4)
                waiting = self.login_done
                self.joined += 1
            else:
                waiting = None
                self.status, self.user, self.joined = "Logging", user, 0
                self.login_done = (threading.Event(), {})
        if waiting is not None:
            waiting[0].wait()  # the running login reports this call's completion too
            return {"error": waiting[1].get("error")}
        self.callback("onConnecting")
        config = WSConfig(ws_addr=self.ws_addr, api_addr=self.api_addr, data_dir=self.data_dir,
                          platform_id=self.platform, timeout_seconds=10)
        sdk = OpenIMWSSDK(config, on_recv_new_message=self.on_message,
                          on_recv_offline_new_message=self.on_message, on_connecting=self.on_connecting,
                          on_connect_success=self.on_connect_success, on_connect_failed=self.on_connect_failed,
                          on_kicked_offline=self.on_kicked)
        sdk.login(user, token)
        self.starting = True
        refusal = None
        try:
            sdk.start()
            result = None
        except Exception as failure:
            refusal = handshake_refusal(failure)
            code = (refusal or {}).get("errCode", NOT_CONNECTED)
            result = error(code, f"{refusal['errMsg']}: {refusal['errDlt']}" if refusal else str(failure))
        finally:
            self.starting = False
        event, shared = self.login_done
        with self.lock:
            calls = 1 + self.joined
        if result is None:
            with self.lock:
                self.sdk, self.status, self.connected = sdk, "Logged", True
            for _ in range(calls):
                self.callback("loginSuccess")
            self.callback("onConnectSuccess")
            try:
                sdk.sync_once()
            except Exception:
                pass
        else:
            sdk.logout()
            with self.lock:
                self.status = "Logout"
            if refusal is None or not self.end_for_token(refusal):
                self.callback("onConnectFailure", **result)
            for _ in range(calls):
                self.callback("loginFailure", **result)
        shared["error"] = result
        event.set()
        return {"error": result}

    def logout(self):
        with self.lock:
            sdk, self.sdk = self.sdk, None
            self.status, self.connected = "Logout", False
        if sdk is not None:
            sdk.logout()
        self.callback("logoutSuccess")
        return {"error": None}

    def send(self, to, text):
        with self.lock:
            sdk = self.sdk if self.connected else None
        if sdk is None:
            result = error(NOT_CONNECTED, "not connected")
            self.callback("sendMessageFailure", **result)
            return {"error": result}
        try:
            sent = sdk.send_text(text, recv_id=to)  # the SDK does not wait for the server's reply
        except Exception as failure:
            result = error(NOT_CONNECTED, str(failure))
            self.callback("sendMessageFailure", **result)
            return {"error": result}
        self.callback("sendMessageSuccess", messageId=sent["clientMsgID"])
        return {"error": None, "messageId": sent["clientMsgID"]}

    def devices(self, user, token):
        org, app = self.setup["appKey"].split("#", 1)
        request = urllib.request.Request(f"{self.rest}/{org}/{app}/users/{user}/resources",
                                         headers={"Authorization": f"Bearer {token}"})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                body = json.load(answer)
        except urllib.error.HTTPError as failure:
            return {"error": error(failure.code, f"HTTP {failure.code}")}
        return {"error": None, "resources": [entry["res"] for entry in body.get("data", [])]}

    def settle(self):
        """A newest-seq round trip: every frame the gateway sent before has been handled after it."""
        with self.lock:
            sdk = self.sdk if self.connected else None
        if sdk is not None:
            try:
                sdk.sync_once()
            except Exception:
                pass

    def state(self):
        with self.lock:
            return {"loggedIn": self.status == "Logged", "connected": self.connected,
                    "currentUser": self.user if self.status == "Logged" else None, "loginStatus": self.status}

    def shutdown(self):
        with self.lock:
            sdk, self.sdk = self.sdk, None
            self.status, self.connected = "Logout", False
        if sdk is not None:
            sdk.stop()


class Adapter:
    def __init__(self):
        self.devices = {}
        self.data_root = tempfile.mkdtemp(prefix="imock-openim-adapter-")

    def handle(self, message):
        command = message.get("command")
        name = message.get("device")
        if command == "settle":
            skip = set(message.get("skip", []))
            for device_name, device in list(self.devices.items()):
                if device_name not in skip:
                    device.settle()
            return {"error": None}
        if command in ("shutdown", "reset") and name is None:
            # reset: the run hands this process on to its next fixture, which starts from no devices.
            for device in self.devices.values():
                device.delegate = False
                device.shutdown()
            if command == "reset":
                self.devices = {}
            return {"error": None}
        if command == "init":
            self.devices[name] = Device(name, message["setup"], self.data_root)
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
            return device.login(message["user"], message["token"])
        if command == "logout":
            return device.logout()
        if command == "send":
            return device.send(message["to"], message["text"])
        if command == "queryDevices":
            return device.devices(message["user"], message["token"])
        if command == "state":
            return device.state()
        if command == "restart":
            device.shutdown()
            fresh = Device(name, device.setup, self.data_root)
            fresh.delegate = device.delegate
            self.devices[name] = fresh
            return {"error": None}
        if command == "shutdown":
            device.shutdown()
            return {"error": None}
        raise LookupError(f"unsupported command {command}")

    def run_command(self, message):
        try:
            emit({"type": "result", "id": message["id"], "result": self.handle(message)})
        except Exception as failure:
            emit({"type": "result", "id": message["id"], "refused": f"{type(failure).__name__}: {failure}"})


def main():
    adapter = Adapter()
    workers = concurrent.futures.ThreadPoolExecutor(max_workers=32)
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") == "hello":
            if message.get("protocol") != PROTOCOL:
                emit({"type": "hello", "protocol": PROTOCOL, "error": "unsupported protocol"})
                return
            emit({"type": "hello", "protocol": PROTOCOL, "name": "openim-python", "version": "0.1",
                  "clock": "realtime", "profiles": ["openim"], "commands": COMMANDS})
        elif message.get("type") == "command":
            if message.get("command") == "shutdown" and message.get("device") is None:
                adapter.run_command(message)
                break
            workers.submit(adapter.run_command, message)
    workers.shutdown(wait=False, cancel_futures=True)
    os._exit(0)


if __name__ == "__main__":
    main()
