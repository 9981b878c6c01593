"""The imock server the OpenIM interop scripts talk to: its REST API under the app's OpenIM base
path (`acme#chat`) and its control API. Shared by openim_gateway.py and openim_sdk_client.py."""
import json
import urllib.request


class Server:
    def __init__(self, port, admin_secret, client_secret):
        self.port = port
        self.admin_secret = admin_secret
        self.api_addr = f"http://127.0.0.1:{port}/openim/acme/chat"
        self.ws_addr = f"ws://127.0.0.1:{port}/openim/acme/chat"
        self.admin = self.post("/auth/get_admin_token", {"secret": client_secret, "userID": "imAdmin"})["data"]["token"]

    def post(self, route, body, token=None):
        """An OpenIM REST call (always HTTP 200): its envelope."""
        headers = {"Content-Type": "application/json", "operationID": "op-test"}
        if token:
            headers["token"] = token
        request = urllib.request.Request(self.api_addr + route, data=json.dumps(body).encode(), headers=headers,
                                         method="POST")
        with urllib.request.urlopen(request) as response:
            assert response.status == 200
            return json.load(response)

    def control(self, path, body):
        """A control-API call."""
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/_imock/{path}", data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Authorization": "Bearer " + self.admin_secret}, method="POST")
        with urllib.request.urlopen(request) as response:
            return json.load(response)

    def register(self, *users):
        self.post("/user/user_register", {"users": [{"userID": user} for user in users]}, self.admin)

    def user_token(self, user, platform):
        return self.post("/auth/get_user_token", {"platformID": platform, "userID": user}, self.admin)["data"]["token"]
