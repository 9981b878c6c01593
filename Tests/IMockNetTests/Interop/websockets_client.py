"""Drives imock's WebSocket server with the strict third-party `websockets` client.

Usage: python3 websockets_client.py URL
Prints one line per check; the Swift test compares them exactly.
"""
import ssl
import sys

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

url = sys.argv[1]
context = None
if url.startswith("wss://"):
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE

with connect(url, ssl=context, max_size=2**22, compression=None) as ws:
    ws.send("héllo")
    print("text", ws.recv() == "héllo")
    for size in (0, 125, 126, 65535, 65536, 300000):
        payload = bytes(i % 251 for i in range(size))
        ws.send(payload)
        print("binary", size, ws.recv() == payload)
    ws.send(["frag", "mented ", "message"])
    print("fragmented", ws.recv() == "fragmented message")
    print("ping", ws.ping(b"abc").wait(5))
    ws.send("close 4206 kicked by another device")
    try:
        ws.recv()
        print("close none")
    except ConnectionClosed as closed:
        print("close", closed.rcvd.code, closed.rcvd.reason)

with connect(url, ssl=context, compression=None) as ws:
    ws.close(1000, "done")
    print("client close", ws.close_code)
