// One Easemob-style SDK instance speaking the imock WebSocket protocol (docs/PROTOCOL.md), written
// from docs/FIXTURES.md § Adapters and docs/CLIENT.md § The state model / § Profiles only.
'use strict';

const { accountCallback, clientError, wsURL } = require('./profile.js');

/** A device: the SDK's state machine, its socket and the frames it received (for the barrier). */
class Device {
  /**
   * @param {string} name the fixture device name
   * @param {object} setup the `init` command's `setup`
   * @param {(device: string, name: string, args: object, frames: number) => void} report writes a callback line
   */
  constructor(name, setup, report) {
    this.name = name;
    this.setup = setup;
    this.report = report;
    this.delegate = false;
    this.status = 'Logout'; // Logout | Logging | Logged
    this.connected = false;
    this.user = null; // the user of the current or running login
    this.token = null;
    this.socket = null;
    this.generation = 0; // events of an older socket are ignored
    this.frames = 0; // server frames received since init, a server close counting as one
    this.received = []; // ops of those frames, in order ("closed" for a close)
    this.barrierCursor = 0; // received[..< cursor] were matched by earlier barriers
    this.nextID = 1;
    this.waiting = new Map(); // request id → {resolve, kind}
    this.login = null; // the running explicit login: {user, resolve, timer}
    this.timers = new Set();
    this.attempt = 0;
    this.closed = false;
  }

  // MARK: - calls (each resolves with the command's result)

  emit(name, args) {
    if (this.delegate && !this.closed) this.report(this.name, name, args, this.frames);
  }

  startLogin(user, token) {
    if (!user) return this.refuseLogin(user, clientError(101, 'invalid username'));
    if (this.status === 'Logging') return this.refuseLogin(user, clientError(200, 'a login is already running'));
    if (this.status === 'Logged') {
      return this.refuseLogin(user, this.user === user ? clientError(200, 'already logged in') : clientError(218, 'another user is logged in'));
    }
    this.status = 'Logging';
    this.user = user;
    this.token = token;
    this.emit('onDatabaseOpened', { error: null, username: user });
    return new Promise((resolve) => {
      this.login = { user, resolve, timer: this.after(this.setup.loginTimeoutMs ?? 30000, () => this.failLogin(clientError(301, 'login timed out'))) };
      this.open(false);
    });
  }

  refuseLogin(user, error) {
    this.emit('loginCompletion', { username: user ?? '', error });
    return Promise.resolve({ error });
  }

  /** The running login fails with `error`; `serverCloses`: the server closes the socket itself. */
  failLogin(error, serverCloses = false) {
    const login = this.login;
    if (!login) return;
    this.login = null;
    clearTimeout(login.timer);
    this.dropSocket(!serverCloses);
    this.status = 'Logout';
    this.user = null;
    this.emit('loginCompletion', { username: login.user, error });
    login.resolve({ error });
  }

  logout(unbind) {
    if (this.status === 'Logging') {
      this.failLogin(clientError(201, 'logged out'));
      return this.completeLogout(null);
    }
    if (this.status !== 'Logged') return this.completeLogout(null);
    if (!this.connected) {
      if (unbind) return this.completeLogout(clientError(300, 'not connected'), false);
      this.endLocally();
      return this.completeLogout(null);
    }
    return this.request({ op: 'logout', unbindDeviceToken: !!unbind }, 'logout');
  }

  completeLogout(error) {
    this.emit('logoutCompletion', { error });
    return Promise.resolve({ error });
  }

  renewToken(token) {
    if (this.status !== 'Logged') return this.completeRenewal(clientError(201, 'not logged in'));
    if (!this.connected) {
      this.token = token;
      return this.completeRenewal(null);
    }
    return this.request({ op: 'renewToken', token }, 'renewToken', token);
  }

  completeRenewal(error) {
    this.emit('renewTokenCompletion', { error });
    return Promise.resolve({ error });
  }

  send(to, text) {
    if (this.status !== 'Logged') return this.completeSend(null, clientError(201, 'not logged in'));
    if (!this.connected) return this.completeSend(null, clientError(300, 'not connected'));
    return this.request({ op: 'send', to, text }, 'send');
  }

  completeSend(messageId, error) {
    this.emit('sendMessageCompletion', { messageId, error });
    return Promise.resolve({ error, messageId });
  }

  state() {
    return {
      loggedIn: this.status === 'Logged',
      connected: this.connected,
      currentUser: this.status === 'Logged' ? this.user : null,
      loginStatus: this.status,
    };
  }

  /** Resolves once every frame sent to this device so far was handled: a ping round trip. */
  settle() {
    const socket = this.socket;
    if (!socket || this.closed || socket.readyState > WebSocket.OPEN) return Promise.resolve();
    const id = 'settle-' + this.nextID++;
    return new Promise((resolve) => {
      this.waiting.set(id, { kind: 'ping', resolve, socket });
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ op: 'ping', id }));
    });
  }

  /** Sends the pings of settles that came while `socket` was opening (after the login frame). */
  sendWaitingPings(socket) {
    for (const [id, waiter] of this.waiting) if (waiter.kind === 'ping' && waiter.socket === socket) socket.send(JSON.stringify({ op: 'ping', id }));
  }

  /** Settles waiting on `socket` (or on every socket) end: nothing more will come on it. */
  resolvePings(socket) {
    for (const [id, waiter] of this.waiting) {
      if (waiter.kind !== 'ping' || (socket && waiter.socket !== socket)) continue;
      this.waiting.delete(id);
      waiter.resolve();
    }
  }

  /** This device's own number of each listed frame (FIXTURES.md § Ordering across devices). */
  numberFrames(entries) {
    const numbers = {};
    for (const entry of entries) {
      const event = entry.event ?? {};
      const op = event.type === 'frame' ? event.frame?.op : 'closed';
      const at = this.received.findIndex((seen, index) => index >= this.barrierCursor && seen === op);
      if (at < 0) continue;
      this.barrierCursor = at + 1;
      numbers[String(entry.sequence)] = at + 1;
    }
    return numbers;
  }

  shutdown() {
    this.closed = true;
    this.dropSocket();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.login) this.login.resolve({ error: clientError(201, 'shut down') });
    this.login = null;
  }

  // MARK: - the connection

  open(autoLogin) {
    const generation = ++this.generation;
    let socket;
    try {
      socket = new WebSocket(wsURL(this.setup.serverURL));
    } catch (error) {
      return this.after(0, () => this.socketClosed(generation, 1006));
    }
    this.socket = socket;
    socket.addEventListener('open', () => {
      if (generation !== this.generation) return;
      socket.send(JSON.stringify(this.loginFrame(autoLogin)));
      this.sendWaitingPings(socket);
    });
    socket.addEventListener('message', (event) => {
      if (generation !== this.generation || typeof event.data !== 'string') return;
      let frame;
      try { frame = JSON.parse(event.data); } catch { return; }
      this.frames += 1;
      this.received.push(frame.op);
      this.handle(frame);
    });
    socket.addEventListener('close', (event) => {
      this.resolvePings(socket);
      if (event.code !== 1006 && !socket.closedHere) {
        this.frames += 1;
        this.received.push('closed');
      }
      this.socketClosed(generation, event.code);
    });
    socket.addEventListener('error', () => {});
  }

  loginFrame(autoLogin) {
    const d = this.setup.device ?? {};
    const device = { uuid: d.uuid, name: d.name ?? '', extension: d.extension ?? '' };
    for (const key of ['os', 'customOSType', 'platformId', 'resource']) if (d[key] != null) device[key] = d[key];
    // As the Easemob Web SDK does, name the resource ourselves, once per instance.
    if (process.env.IMOCK_NODE_OWN_RESOURCE) device.resource = this.ownResource ??= 'webim_random_' + Date.now() + '_' + this.name;
    return {
      op: 'login', id: 'login-' + this.nextID++, appKey: this.setup.appKey, user: this.user, token: this.token,
      device, autoLogin, sync: this.setup.syncTypes ?? [],
    };
  }

  /**
   * Forgets the socket: its later events are ignored but for the server's close, which still
   * counts as a frame. `close` false: the server closes it (after `logout.ok`, `login.error`,
   * `kicked`, `token.expired`).
   */
  dropSocket(close = true) {
    this.generation += 1;
    const socket = this.socket;
    this.socket = null;
    this.connected = false;
    clearInterval(this.keepAlive);
    this.resolvePings(null);
    if (close && socket && socket.readyState <= WebSocket.OPEN) {
      socket.closedHere = true;
      socket.close(1000);
    }
  }

  request(frame, kind, token) {
    const id = kind + '-' + this.nextID++;
    return new Promise((resolve) => {
      this.waiting.set(id, { kind, resolve, token });
      this.socket.send(JSON.stringify({ ...frame, id }));
    });
  }

  handle(frame) {
    const waiter = frame.id != null ? this.waiting.get(frame.id) : undefined;
    if (waiter) this.waiting.delete(frame.id);
    switch (frame.op) {
      case 'login.ok': return this.loggedIn();
      case 'login.error': return this.refused(frame.code, frame.message);
      case 'pong': return waiter?.resolve();
      case 'kicked': return this.ended(frame.code, frame.by);
      case 'token.expired': return this.ended(108);
      case 'token.willExpire': return this.emit('tokenWillExpire', { errorCode: 109 });
      case 'offline.start': this.offline = true; return this.emit('onOfflineMessageSyncStart', {});
      case 'offline.finish': this.offline = false; return this.emit('onOfflineMessageSyncFinish', {});
      case 'message': return this.received_(frame);
      case 'sync.start': return this.emit('syncDataStart', { type: frame.type });
      case 'sync.finish': return this.emit('syncDataFinished', { error: frame.error ?? null, type: frame.type });
      case 'renewToken.ok':
        this.token = waiter?.token ?? this.token;
        this.emit('renewTokenCompletion', { error: null });
        return waiter?.resolve({ error: null });
      case 'logout.ok':
        this.endLocally(undefined, true);
        this.emit('logoutCompletion', { error: null });
        return waiter?.resolve({ error: null });
      case 'send.ok':
        this.emit('sendMessageCompletion', { messageId: frame.messageId, error: null });
        return waiter?.resolve({ error: null, messageId: frame.messageId });
      case 'error': return this.refusedRequest(waiter, { code: frame.code, message: frame.message });
      default: return undefined;
    }
  }

  received_(frame) {
    this.emit('messagesDidReceive', { messageId: frame.messageId, from: frame.from, text: frame.text });
    if (this.offline) this.socket?.send(JSON.stringify({ op: 'ack', id: 'ack-' + this.nextID++, messageId: frame.messageId }));
  }

  refusedRequest(waiter, error) {
    if (!waiter) {
      if (this.login) this.failLogin(error);
      return;
    }
    switch (waiter.kind) {
      case 'logout': this.emit('logoutCompletion', { error }); break;
      case 'renewToken': this.emit('renewTokenCompletion', { error }); break;
      case 'send': this.emit('sendMessageCompletion', { messageId: null, error }); break;
      default: break;
    }
    waiter.resolve(waiter.kind === 'send' ? { error, messageId: null } : { error });
  }

  loggedIn() {
    const login = this.login;
    this.status = 'Logged';
    this.connected = true;
    this.attempt = 0;
    this.keepAlive = setInterval(() => this.socket?.send(JSON.stringify({ op: 'ping' })), this.setup.keepAliveMs ?? 10000);
    if (login) {
      this.login = null;
      clearTimeout(login.timer);
      this.emit('loginCompletion', { username: login.user, error: null });
      this.emit('connectionStateDidChange', { state: 'connected' });
      login.resolve({ error: null });
    } else {
      this.emit('connectionStateDidChange', { state: 'connected' });
    }
  }

  refused(code, message) {
    if (this.login) return this.failLogin({ code, message }, true);
    if (this.status === 'Logged') return this.ended(code);
    return undefined;
  }

  socketClosed(generation, code) {
    if (generation !== this.generation) return;
    const serverCode = code >= 4000 && code <= 4999 ? (code === 4999 ? 2002 : code - 4000) : null;
    if (this.login) return this.failLogin(serverCode != null ? clientError(serverCode, 'closed') : clientError(300, 'connection closed'));
    if (this.status !== 'Logged') return undefined;
    if (serverCode != null) return this.ended(serverCode);
    this.lost();
    return undefined;
  }

  /** A recoverable drop: still logged in; reconnect with the back-off. */
  lost() {
    const wasConnected = this.connected;
    this.dropSocket();
    this.failWaiting(clientError(300, 'connection lost'));
    if (wasConnected) this.emit('connectionStateDidChange', { state: 'disconnected' });
    this.attempt += 1;
    const policy = this.setup.reconnect ?? { minMs: 1000, maxMs: 2000, maxAttempts: null };
    if (policy.maxAttempts != null && this.attempt > policy.maxAttempts) return this.endSession(null);
    const wait = policy.minMs + Math.floor((policy.maxMs - policy.minMs) * Math.random());
    this.after(wait, () => {
      if (this.status === 'Logged' && !this.connected && !this.closed) this.open(true);
    });
    return undefined;
  }

  /** The session ends with a server code (a kick, expiry or a refused reconnect). */
  ended(code, by) {
    if (this.login) return this.failLogin({ code, message: 'session ended' }, true);
    if (this.status !== 'Logged') return undefined;
    return this.endSession(accountCallback(code, by));
  }

  endSession(callback) {
    const wasConnected = this.connected;
    const logouts = [...this.waiting.values()].filter((w) => w.kind === 'logout');
    this.endLocally(clientError(201, 'not logged in'), true);
    if (wasConnected) this.emit('connectionStateDidChange', { state: 'disconnected' });
    if (callback) this.emit(callback.name, callback.args);
    this.waiting.clear();
    for (const waiter of logouts) {
      this.emit('logoutCompletion', { error: null });
      waiter.resolve({ error: null });
    }
  }

  /** Logout: socket and waiting calls are dropped; sends and renewals fail with `error`. */
  endLocally(error = clientError(201, 'not logged in'), serverCloses = false) {
    this.dropSocket(!serverCloses);
    this.status = 'Logout';
    this.user = null;
    this.offline = false;
    this.failWaiting(error);
  }

  failWaiting(error) {
    for (const [id, waiter] of this.waiting) {
      if (waiter.kind === 'logout' || waiter.kind === 'ping') continue;
      this.waiting.delete(id);
      this.refusedRequest(waiter, error);
    }
  }

  after(ms, action) {
    const timer = setTimeout(() => { this.timers.delete(timer); action(); }, ms);
    this.timers.add(timer);
    return timer;
  }
}

module.exports = { Device };
