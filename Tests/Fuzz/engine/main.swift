// Fuzz target `engine`: a sequence fuzzer over the session engine behind the `Domain`.
//
// The input is read as a program (`EngineProgram`): connection opens and closes, every
// `SessionCommand` (logins with any app, user, token, device and sync wishes; pings, renewals,
// logouts, device listings, sends, acks) with command faults, token issues, control commands
// (kicks with any code, token expiry and revocation, settings and login policies, REST-side
// user changes, reset, seed, checkpoints), output overflows, and the engine's wake-ups fired at
// their deadlines as the clock moves (by any 64-bit amount, saturated at the last representable time) — the
// way `SessionHub` drives the engine. `EngineInvariants` checks every batch of outputs:
// - nothing for a connection after its end or its close, nor for one never opened;
// - exactly one answer per request (a reply with its tag, or a login refusal's end), in the
//   batch of that request, to its connection, and no reply outside a request's batch;
// - every kick journalled and followed, in the same batch, by its end with the same code;
// - token timers pending only for live sessions, at most one per session, none later than the
//   shell's one wake-up would find it; an early wake-up fires nothing;
// - the engine's connections and live sessions are the ones its outputs announced;
// - a sent message goes live to every session of its recipient, or waits in the offline queue;
// - an offline sync is `offlineStart(n)`, n messages, `offlineFinish`.
// Never a trap, never an out-of-bounds access (ASan).

import IMockCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEngine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var program = EngineProgram(fuzzBytes(data, size))
    program.run()
    return 0
}
