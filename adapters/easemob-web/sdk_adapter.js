#!/usr/bin/env node
'use strict';
// The real Easemob / Agora Chat Web SDK under `imock run` (docs/FIXTURES.md § Adapters,
// docs/SDK-COMPAT.md): a JSON-lines adapter that loads an unmodified SDK build from
// IMOCK_EASEMOB_SDK and drives one SDK `connection` per fixture device against imock's msync
// endpoints, rendering the SDK's events in the `easemob` profile's callback names.
//
//   node --experimental-websocket adapters/easemob-web/sdk_adapter.js
//
// IMOCK_EASEMOB_SDK     path of the build (Easemob-chat-4.x.js mini-program build, Agora-chat.js
//                       full build, miniCore.js); never part of this repository.
// IMOCK_EASEMOB_BUILD   mini | full | web | miniCore (default: from the file: "miniCore" in the
//                       name → miniCore, SockJS inside → full, wx's connectSocket inside → mini,
//                       else web: a browser build over a plain WebSocket, as easemob-websdk 4.11.0).
//
// What the adapter adds (the Web SDK has no such callback): `onDatabaseOpened` when a login
// starts (no local database), `loginCompletion` when the server accepts the login (onConnected,
// just before the connection state) or refuses it (the provision error), and the end of a session
// rendered as the iOS SDK's pair (`connectionStateDidChange(disconnected)`, then the account
// callback for the code the SDK reported). A token of the form `password:<pw>` logs in with
// the password (open({user, pwd})) instead of the token.

const fs = require('node:fs');
const path = require('node:path');
const platform = require('./platform.js');

const PROTOCOL = 1;
const COMMANDS = ['init', 'addDelegate', 'removeDelegate', 'login', 'logout', 'renewToken', 'send',
  'queryDevices', 'restart', 'state', 'shutdown', 'settle', 'reset'];

// The SDK logs with console.*: keep stdout for the protocol.
const toStderr = (...parts) => process.stderr.write(parts.map((p) => (typeof p === 'string' ? p : safeJSON(p))).join(' ') + '\n');
console.log = console.info = console.debug = console.warn = console.error = toStderr;
function safeJSON(value) { try { return JSON.stringify(value); } catch { return String(value); } }
function emit(message) { process.stdout.write(JSON.stringify(message) + '\n'); }
// A browser or a mini-program logs a promise rejection nobody handles; Node 20 ends the process
// (4.0.x builds leave the refusal of a password grant unhandled).
process.on('unhandledRejection', (reason) => toStderr('easemob-web adapter: unhandled rejection in the SDK:', reason));

// ---- loading the SDK ----------------------------------------------------------------------

const sdkPath = process.env.IMOCK_EASEMOB_SDK;
if (!sdkPath || !fs.existsSync(sdkPath)) {
  toStderr(`easemob-web adapter: set IMOCK_EASEMOB_SDK to an SDK build (got ${sdkPath || 'nothing'})`);
  process.exit(2);
}
const source = fs.readFileSync(sdkPath, 'utf8');
function buildOf(file, text) {
  if (/miniCore/i.test(path.basename(file))) return 'miniCore';
  if (text.includes('SockJS')) return 'full';
  return text.includes('connectSocket') ? 'mini' : 'web';
}
const build = process.env.IMOCK_EASEMOB_BUILD || buildOf(sdkPath, source);
if (build === 'mini') platform.installMiniProgram();
else platform.installBrowser();
const loaded = require(path.resolve(sdkPath));
const SDK = loaded && loaded.default ? loaded.default : loaded;
if (SDK.logger && typeof SDK.logger.setLevel === 'function') SDK.logger.setLevel(Number(process.env.IMOCK_EASEMOB_LOG_LEVEL || 5));
const sdkVersion = (source.match(/this\.version="([0-9.]+[^"]*)"/) || [])[1] || 'unknown';

// ---- Web SDK error types → Easemob (iOS) error codes ------------------------------------------

const CODES = {
  56: 108, // WEBIM_TOKEN_EXPIRED
  28: 104, // "INVALID_TOKEN"
  204: 204, // USER_NOT_FOUND
  2: 202, // WEBIM_CONNCTION_AUTH_ERROR
  1: 202, // WEBIM_CONNCTION_OPEN_ERROR (REST password login refused)
  3: 202, // WEBIM_CONNCTION_OPEN_USERGRID_ERROR
  57: 305, // WEBIM_SERVER_SERVING_DISABLED
  50: 8, // MAX_LIMIT
  '-3': 110, // REQUEST_PARAMETER_ERROR
  '-1': 301, // REQUEST_TIMEOUT
  16: 300, // WEBIM_CONNCTION_DISCONNECTED
  39: 201, // not login
  206: 206, 207: 207, 216: 216, 217: 217,
};

function nativeError(webError) {
  if (!webError) return { code: 1, message: 'unknown error' };
  const type = webError.type;
  const code = CODES[String(type)] ?? CODES[type] ?? (typeof type === 'number' && type >= 200 ? type : 1);
  const message = webError.message || (webError.data && webError.data.message) || `web error ${type}`;
  return { code, message: String(message) };
}

// ---- one SDK instance ---------------------------------------------------------------------------

/** Web error types a refused PROVISION gives (reference easemob.md §4.2). */
const PROVISION_FAILURES = new Set([56, 28, 204, 2, 57, 50, -3]);

class Device {
  constructor(name, setup) {
    this.loginOutcome = () => {};
    this.name = name;
    this.setup = setup;
    this.delegate = false;
    this.status = 'Logout'; // Logout / Logging / Logged
    this.connected = false;
    this.user = null;
    this.lastError = null;
    this.tokenExpired = false;
    this.pendingLogout = null;
    // What a settle waits for besides the round trip: a first connection under way, a session
    // ending (a kick or an expiry reported, the close still to come).
    this.awaited = new Set();
    const server = new URL(setup.serverURL.replace(/^ws/, 'http'));
    this.http = `${server.protocol}//${server.host}`;
    this.wsBase = `${server.protocol === 'https:' ? 'wss' : 'ws'}://${server.host}`;
    this.sdkConnection = null;
  }

  /**
   * The SDK instance, made when first used (every fixture device has had its `init` by then).
   * Fixture devices that share a device `uuid` are tabs of one browser: they keep the SDK's
   * default `isFixedDeviceId: true`, so they log in as one device (the id the first of them
   * stored); every other device gets an id of its own (`isFixedDeviceId: false`).
   */
  get connection() {
    if (!this.sdkConnection) this.sdkConnection = this.makeConnection();
    return this.sdkConnection;
  }

  makeConnection() {
    const setup = this.setup;
    const uuid = setup.device && setup.device.uuid;
    const tab = uuid !== undefined && [...devices.values()].some((other) => other !== this && other.setup.device && other.setup.device.uuid === uuid);
    const connection = new SDK.connection({
      appKey: setup.appKey,
      isHttpDNS: false,
      url: build === 'full' ? `${this.http}/ws` : `${this.wsBase}/websocket`,
      apiUrl: this.http,
      isFixedDeviceId: tab,
      // As the vendor's mini-program demo passes it: 4.0.x builds otherwise read `window`, which
      // a mini-program lacks. It only matters for URLs built from the DNS answer (none here).
      ...(build === 'mini' ? { https: true } : {}),
      ...(setup.device && setup.device.customOSType !== undefined ? { customOSPlatform: setup.device.customOSType } : {}),
    });
    if (setup.device && setup.device.extension && typeof connection.setLoginInfoCustomExt === 'function') {
      connection.setLoginInfoCustomExt(setup.device.extension);
    }
    connection.addEventHandler('imock', {
      onConnected: () => this.onConnected(),
      onDisconnected: (reason) => this.onDisconnected(reason),
      onReconnecting: () => this.onReconnecting(),
      onError: (error) => {
        this.lastError = error;
        if (this.status === 'Logging' && error && PROVISION_FAILURES.has(error.type)) this.loginOutcome(error);
        if (error && [206, 207, 216, 217].includes(error.type)) this.expect('ending', 'disconnected');
      },
      onTokenWillExpire: () => this.callback('tokenWillExpire', { errorCode: 109 }),
      onTokenExpired: () => { this.tokenExpired = true; this.expect('ending', 'disconnected'); },
      onOfflineMessageSyncStart: () => this.callback('onOfflineMessageSyncStart', {}),
      onOfflineMessageSyncFinish: () => this.callback('onOfflineMessageSyncFinish', {}),
      onTextMessage: (m) => this.callback('messagesDidReceive', { messageId: String(m.id), from: m.from, text: m.msg }),
    });
    return connection;
  }

  /** Something the next settles wait for until `event` ('connected' or 'disconnected') happens (at most 5 s). */
  expect(label, event) {
    if ([...this.awaited].some((w) => w.label === label)) return;
    let resolve;
    const promise = new Promise((r) => { resolve = r; });
    const waiter = { label, event, promise, resolve: () => { this.awaited.delete(waiter); resolve(); } };
    this.awaited.add(waiter);
    setTimeout(waiter.resolve, 5000);
  }

  happened(event) {
    for (const waiter of [...this.awaited]) if (waiter.event === event || event === 'disconnected') waiter.resolve();
  }

  callback(name, args) {
    if (this.delegate) emit({ type: 'callback', device: this.name, name, args });
  }

  state(value) { this.callback('connectionStateDidChange', { state: value }); }

  // -- SDK events ------------------------------------------------------------------------------

  onConnected() {
    this.happened('connected');
    if (this.status === 'Logging') {
      // The server accepted the login: that is the login's completion, then the connection
      // (one SDK event means both; 4.17.0 fires it before open() resolves, 1.2.2 after).
      this.status = 'Logged';
      this.callback('loginCompletion', { username: this.user, error: null });
      this.loginOutcome(null);
    }
    if (this.status === 'Logout' || this.connected) return;
    this.connected = true;
    this.state('connected');
  }

  onReconnecting() {
    if (!this.connected) return;
    this.connected = false;
    this.state('disconnected');
  }

  onDisconnected(reason) {
    this.happened('disconnected');
    if (this.status === 'Logging') this.loginOutcome(reason || this.lastError || { type: 16, message: 'websocket has been disconnected' });
    if (this.pendingLogout) {
      this.status = 'Logout';
      this.connected = false;
      const done = this.pendingLogout;
      this.pendingLogout = null;
      done();
      return;
    }
    if (this.status === 'Logging') return; // a failed open: its rejection reports it
    const wasConnected = this.connected;
    const wasLoggedIn = this.status === 'Logged';
    this.status = 'Logout';
    this.connected = false;
    if (!wasLoggedIn) return;
    if (wasConnected) this.state('disconnected');
    const expired = this.tokenExpired;
    this.tokenExpired = false;
    const error = reason || this.lastError;
    const type = error && error.type;
    if (expired || type === 56) return this.callback('tokenDidExpire', { errorCode: 108 });
    switch (type) {
      case 206: {
        const ext = (error.data && error.data.loginInfoCustomExt) ?? null;
        return this.callback('userAccountDidLoginFromOtherDevice', { info: ext === null ? null : { deviceName: '', extensionInfo: ext } });
      }
      case 207: return this.callback('userAccountDidRemoveFromServer', {});
      case 57: return this.callback('userDidForbidByServer', {});
      case 216: case 217: return this.callback('userAccountDidForcedToLogout', { code: type });
      default: return undefined; // 16 "reconnection failed" and the like: only the state
    }
  }

  // -- SDK calls -------------------------------------------------------------------------------

  async login(user, token) {
    if (this.status !== 'Logout') {
      const same = this.user === user;
      const error = { code: same ? 200 : 218, message: same ? 'already logged in' : 'another account is logged in' };
      this.callback('loginCompletion', { username: user, error });
      return { error };
    }
    this.user = user;
    this.status = 'Logging';
    this.lastError = null;
    this.tokenExpired = false;
    this.callback('onDatabaseOpened', { error: null, username: user });
    this.expect('first-connection', 'connected');
    const options = token.startsWith('password:') ? { user, pwd: token.slice('password:'.length) } : { user, accessToken: token };
    // The server's answer: agora-chat 1.2.2's open() resolves before it (docs/SDK-COMPAT.md),
    // so the login completes on onConnected or the provision error, whichever build.
    const outcome = new Promise((resolve) => { this.loginOutcome = (error) => { this.loginOutcome = () => {}; resolve(error); }; });
    try {
      await this.connection.open(options);
      const error = await Promise.race([outcome, new Promise((resolve) => setTimeout(() => resolve({ type: -1, message: 'no answer to the login' }), 35000))]);
      if (error) throw error;
      this.status = 'Logged';
      return { error: null };
    } catch (failure) {
      this.happened('disconnected');
      this.status = 'Logout';
      this.connected = false;
      const error = nativeError(failure && failure.type !== undefined ? failure : this.lastError || failure);
      this.callback('loginCompletion', { username: user, error });
      return { error };
    }
  }

  async logout() {
    if (this.status !== 'Logged') {
      this.callback('logoutCompletion', { error: null });
      return { error: null };
    }
    const closed = new Promise((resolve) => { this.pendingLogout = resolve; });
    this.connection.close();
    const timeout = new Promise((resolve) => setTimeout(resolve, 5000));
    await Promise.race([closed, timeout]);
    this.pendingLogout = null;
    this.status = 'Logout';
    this.connected = false;
    this.callback('logoutCompletion', { error: null });
    return { error: null };
  }

  async renew(token) {
    try {
      await this.connection.renewToken(token);
      this.callback('renewTokenCompletion', { error: null });
      return { error: null };
    } catch (failure) {
      const error = failure && failure.type !== undefined ? nativeError(failure) : { code: 104, message: 'renewToken failed' };
      this.callback('renewTokenCompletion', { error });
      return { error };
    }
  }

  async send(to, text) {
    try {
      const message = SDK.message.create({ type: 'txt', chatType: 'singleChat', to, msg: text });
      const sent = await this.connection.send(message);
      const messageId = String(sent.serverMsgId);
      this.callback('sendMessageCompletion', { messageId, error: null });
      return { error: null, messageId };
    } catch (failure) {
      const error = nativeError(failure);
      this.callback('sendMessageCompletion', { messageId: null, error });
      return { error };
    }
  }

  async devices(user, token) {
    const [org, app] = this.setup.appKey.split('#');
    const response = await fetch(`${this.http}/${org}/${app}/users/${user}/resources`, { headers: { Authorization: `Bearer ${token}` } });
    if (response.status !== 200) return { error: { code: response.status, message: `HTTP ${response.status}` } };
    const body = await response.json();
    return { error: null, resources: (body.data || []).map((entry) => entry.res) };
  }

  /** Every message the server sent before has been handled: an UNREAD round trip. */
  async settle() {
    await Promise.all([...this.awaited].map((w) => w.promise));
    const socket = platform.socketOf(this.sdkConnection);
    if (socket && socket.readyState === 1 && typeof socket.imockRoundTrip === 'function') {
      await Promise.race([socket.imockRoundTrip(), new Promise((resolve) => setTimeout(resolve, 5000))]);
    }
    // The SDK handles a message through promises and its close through a timer.
    await new Promise((resolve) => setTimeout(resolve, 10));
    await Promise.all([...this.awaited].map((w) => w.promise));
  }

  stateReply() {
    return { loggedIn: this.status === 'Logged', connected: this.connected, currentUser: this.status === 'Logged' ? this.user : null, loginStatus: this.status };
  }

  shutdown() {
    this.status = 'Logout';
    this.connected = false;
    try { if (this.sdkConnection) this.sdkConnection.close(); } catch { /* already closed */ }
  }
}

// ---- the JSON-lines loop ----------------------------------------------------------------------

const devices = new Map();

async function handle(message) {
  const { command, device: name } = message;
  if (command === 'settle') {
    const skip = new Set(message.skip || []);
    await Promise.all([...devices].filter(([n]) => !skip.has(n)).map(([, d]) => d.settle()));
    return { error: null };
  }
  if ((command === 'shutdown' || command === 'reset') && name === undefined) {
    // reset: the run hands this process on to its next fixture, which starts from no devices.
    for (const device of devices.values()) {
      device.delegate = false;
      device.shutdown();
    }
    if (command === 'reset') devices.clear();
    return { error: null };
  }
  if (command === 'init') {
    devices.set(name, new Device(name, message.setup));
    return { error: null };
  }
  const device = devices.get(name);
  if (!device) throw new Error(`device ${name} has no init before`);
  switch (command) {
    case 'addDelegate': device.delegate = true; return { error: null };
    case 'removeDelegate': device.delegate = false; return { error: null };
    case 'login': return device.login(message.user, message.token);
    case 'logout': return device.logout();
    case 'renewToken': return device.renew(message.token);
    case 'send': return device.send(message.to, message.text);
    case 'queryDevices': return device.devices(message.user, message.token);
    case 'state': return device.stateReply();
    case 'restart': {
      device.shutdown();
      const fresh = new Device(name, device.setup);
      fresh.delegate = device.delegate;
      devices.set(name, fresh);
      return { error: null };
    }
    case 'shutdown': device.shutdown(); return { error: null };
    default: throw new Error(`unsupported command ${command}`);
  }
}

async function run(message) {
  try {
    emit({ type: 'result', id: message.id, result: await handle(message) });
  } catch (failure) {
    emit({ type: 'result', id: message.id, refused: `${failure && failure.name}: ${failure && failure.message}` });
  }
  if (message.command === 'shutdown' && message.device === undefined) setTimeout(() => process.exit(0), 50);
}

let buffered = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let newline;
  while ((newline = buffered.indexOf('\n')) >= 0) {
    const line = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    if (!line.trim()) continue;
    const message = JSON.parse(line);
    if (message.type === 'hello') {
      if (message.protocol !== PROTOCOL) {
        emit({ type: 'hello', protocol: PROTOCOL, error: 'unsupported protocol' });
        process.exit(1);
      }
      emit({ type: 'hello', protocol: PROTOCOL, name: 'easemob-web', version: `${build} ${sdkVersion}`, clock: 'realtime', profiles: ['easemob'], commands: COMMANDS });
    } else if (message.type === 'command') {
      run(message);
    }
  }
});
process.stdin.on('end', () => setTimeout(() => process.exit(0), 50));
