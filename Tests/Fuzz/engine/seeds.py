#!/usr/bin/env python3
"""Writes the seed corpus of fuzz target `engine` (Tests/Fuzz/engine/corpus/): small programs
in the input format EngineProgram.swift reads (a header: warning percent, offline-queue bound,
start time as 8 little-endian bytes; then one byte per operation, `byte % 24`, each followed by
its choices). Run from Tests/Fuzz/engine/ after changing that format."""
import struct, os
def i64(v): return list(struct.pack('<q', v))
def header(pct=80, maxoff=3, start=1_700_000_000_000): return [pct, maxoff] + i64(start)
OPEN=[0]
def close(idx): return [2, 1, idx]
def issue(app, user, hours=1): return [13, app, user, 3, hours, 0, 0]
def login(platform, uuid, app, user, token, conn_idx, sync=(1,0,0), auto=0, resource=0, fault=0, extra=()):
    return [3, platform, *extra, 1, uuid, resource, 0, *sync, app, user, token, auto, 1, conn_idx, fault]
def send(to, conn_idx): return [10, to, 0, 1, conn_idx, 0]
def advance_minutes(m): return [15, 0, m]
def advance_max(): return [15, 1] + i64(2**63-1)
def renew(token, conn_idx): return [7, token, 1, conn_idx, 0]
def kick(app, user, code_idx=0): return [18, app, user, 1, 0, code_idx, 1]
def ack(msg_idx, conn_idx): return [12, 0, msg_idx, 1, conn_idx, 0]
def logout(conn_idx, unbind=0): return [8, unbind, 1, conn_idx, 0]
def settings_policy(app, policy): return [20, app, 1, policy]
def expire(app, user): return [19, app, user, 1]
def overflow(conn_idx): return [23, 1, conn_idx, 1]

def easemob():
    s = header()
    s += issue(0,0) + issue(0,1) + OPEN + OPEN
    s += login(0, 0, 0, 0, 6, 0) + login(1, 1, 0, 1, 7, 1, sync=(0,0,0))
    s += send(1, 0) + advance_minutes(50) + renew(6, 0) + kick(0, 1) + close(1)
    s += send(1, 0) + issue(0,1) + OPEN + login(1, 1, 0, 1, 8, 1) + ack(1, 1)
    s += advance_max()
    return s

def openim():
    s = header(50, 2)
    s += issue(1,0) + issue(1,0) + OPEN + OPEN + OPEN
    # OpenIM platform ids: platform byte 7 -> default branch reads one more byte (id-1).
    s += login(7, 0, 1, 0, 6, 0, extra=(0,)) + login(7, 1, 1, 0, 7, 1, extra=(0,))
    s += settings_policy(1, 10) + login(8, 2, 1, 0, 6, 2, extra=(2,))
    s += expire(1, 0) + advance_max()
    return s

def single_device():
    s = header(80, 1)
    s += settings_policy(0, 4) + issue(0,2) + issue(0,2) + OPEN + OPEN
    s += login(0, 0, 0, 2, 6, 0) + login(1, 1, 0, 2, 7, 1, auto=1)
    s += send(2, 1) + logout(1, 1) + overflow(0) + advance_max()
    return s

def edges():
    s = header(99, 5, 253402300799999 - 3_600_000)
    s += issue(0,0) + OPEN + login(0, 0, 0, 0, 6, 0)
    s += [18, 0, 0, 1, 1] + i64(-2**63) + [0]
    s += [15, 1] + i64(2**63 - 1)
    return s

for name, data in [("easemob_login_send_kick_offline.bin", easemob()), ("openim_policies_expire.bin", openim()),
                   ("single_device_logout_overflow.bin", single_device()), ("int64_edges_end_of_time.bin", edges())]:
    open(os.path.join("corpus", name), "wb").write(bytes(data))
