'use strict';
// The small platform an Easemob / Agora Chat Web SDK build needs in Node 20 (started with
// --experimental-websocket): the mini-program build's `wx` API, or the browser globals of the
// full build, and a watched WebSocket for the adapter's settle (an UNREAD round trip).
// Written for imock; none of it comes from the SDK.

const NativeWebSocket = globalThis.WebSocket;
if (typeof NativeWebSocket !== 'function') {
  process.stderr.write('easemob-web adapter: Node has no WebSocket; start it with node --experimental-websocket\n');
  process.exit(2);
}

// ---- a tiny protobuf reader and writer: just what the settle round trip needs ----------------

function readVarint(bytes, offset) {
  let value = 0;
  let shift = 0;
  while (offset < bytes.length) {
    const byte = bytes[offset++];
    if (shift < 53) value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) return [value, offset];
  }
  return [undefined, offset];
}

/** The fields of a protobuf message: {number: [value…]} (varints as numbers, bytes as Uint8Array); null when malformed. */
function fields(bytes) {
  const out = {};
  let offset = 0;
  while (offset < bytes.length) {
    let key;
    [key, offset] = readVarint(bytes, offset);
    if (key === undefined) return null;
    const number = Math.floor(key / 8);
    const wire = key % 8;
    let value;
    if (wire === 0) {
      [value, offset] = readVarint(bytes, offset);
      if (value === undefined) return null;
    } else if (wire === 2) {
      let length;
      [length, offset] = readVarint(bytes, offset);
      if (length === undefined || offset + length > bytes.length) return null;
      value = bytes.subarray(offset, offset + length);
      offset += length;
    } else if (wire === 1) { offset += 8; continue; } else if (wire === 5) { offset += 4; continue; } else return null;
    (out[number] = out[number] || []).push(value);
  }
  return out;
}

function varint(n) {
  const out = [];
  while (n > 0x7f) { out.push((n & 0x7f) | 0x80); n = Math.floor(n / 128); }
  out.push(n);
  return out;
}

function lengthDelimited(field, bytes) { return [...varint(field * 8 + 2), ...varint(bytes.length), ...bytes]; }

const SETTLE_PREFIX = 'imock-settle-';

/** MSync{version: V1, command: SYNC, payload: CommSyncUL{queue: JID{name}}}: a pull of a queue nobody has. */
function settlePull(name) {
  const jid = lengthDelimited(2, [...Buffer.from(name, 'utf8')]);
  const upload = lengthDelimited(3, jid);
  return Uint8Array.from([0x08, 0x00, 0x40, 0x00, ...lengthDelimited(9, upload)]);
}

/** The settle queue a server message answers (CommSyncDL.queue.name), or null. */
function settleAnswer(bytes) {
  const envelope = fields(bytes);
  if (!envelope || (envelope[8] ? envelope[8][0] : 0) !== 0 || !envelope[9]) return null;
  const page = fields(envelope[9][0]);
  const queue = page && page[6] && fields(page[6][0]);
  const name = queue && queue[2] && Buffer.from(queue[2][0]).toString('utf8');
  return name && name.startsWith(SETTLE_PREFIX) ? name : null;
}

function toBytes(data) {
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return null;
}

/** The envelopes of one server message: binary, or SockJS `a["b64",…]`; null for other frames. */
function serverEnvelopes(data, sockJS) {
  const bytes = toBytes(data);
  if (bytes) return [bytes];
  if (typeof data !== 'string' || !sockJS || !data.startsWith('a')) return null;
  try {
    return JSON.parse(data.slice(1)).map((s) => Uint8Array.from(Buffer.from(s, 'base64')));
  } catch {
    return null;
  }
}

let settleCounter = 0;

/**
 * A WebSocket with a settle round trip the SDK never sees: a pull of a queue nobody has, whose
 * answer (an empty last page of that queue) is taken out before the SDK's listeners run.
 */
class WatchedWebSocket extends NativeWebSocket {
  constructor(url, protocols) {
    super(url, protocols);
    // A SockJS session URL is {base}/{server}/{session}/websocket; msync's own is /websocket.
    const path = new URL(url).pathname;
    this.imockSockJS = path.endsWith('/websocket') && path.split('/').length >= 4;
    this.imockWaiters = new Map();
    this.addEventListener('message', (event) => {
      const envelopes = serverEnvelopes(event.data, this.imockSockJS);
      if (!envelopes || envelopes.length === 0) return;
      const answered = envelopes.map(settleAnswer);
      for (const name of answered) {
        if (name && this.imockWaiters.has(name)) {
          this.imockWaiters.get(name)(true);
          this.imockWaiters.delete(name);
        }
      }
      if (answered.every((name) => name !== null)) event.stopImmediatePropagation();
    });
    this.addEventListener('close', () => {
      for (const resolve of this.imockWaiters.values()) resolve(false);
      this.imockWaiters.clear();
    });
  }

  /** Resolves (true) once every message the server sent before this call has arrived. */
  imockRoundTrip() {
    if (this.readyState !== 1) return Promise.resolve(false);
    const name = SETTLE_PREFIX + ++settleCounter;
    const done = new Promise((resolve) => this.imockWaiters.set(name, resolve));
    const pull = settlePull(name);
    this.send(this.imockSockJS ? JSON.stringify([Buffer.from(pull).toString('base64')]) : pull);
    return done;
  }
}
globalThis.WebSocket = WatchedWebSocket;

// ---- the mini-program platform (`wx`) -------------------------------------------------------

function installMiniProgram() {
  // Builds 4.4.0 to 4.10.0 and 4.12.0 wrap their UMD module in `(self, …)`: a mini-program
  // and a browser have `self`, Node has not.
  if (globalThis.self === undefined) globalThis.self = globalThis;
  const storage = new Map();
  function connectSocket({ url }) {
    const ws = new WebSocket(url);
    ws.binaryType = 'arraybuffer';
    const task = {
      imockSocket: ws,
      readyState: 0,
      onOpen(cb) { ws.addEventListener('open', () => { task.readyState = 1; cb({}); }); },
      onMessage(cb) { ws.addEventListener('message', (e) => cb({ data: e.data })); },
      onClose(cb) { ws.addEventListener('close', (e) => { task.readyState = 3; cb({ code: e.code, reason: e.reason }); }); },
      onError(cb) { ws.addEventListener('error', (e) => cb({ errMsg: String((e && e.message) || 'websocket error') })); },
      // The SDK passes {data}; its sendLogout passes the bytes themselves (reference §1.1).
      send(arg) {
        const data = arg && arg.data !== undefined ? arg.data : arg;
        try { ws.send(data); } catch (error) { arg && arg.fail && arg.fail({ errMsg: String(error) }); }
      },
      close() { try { ws.close(); } catch { /* already closed */ } },
    };
    return task;
  }
  function request({ url, data, method, header, success, fail, complete }) {
    const verb = (method || 'GET').toUpperCase();
    fetch(url, { method: verb, headers: header, body: verb === 'GET' || verb === 'HEAD' ? undefined : data })
      .then(async (response) => {
        const text = await response.text();
        let body;
        try { body = JSON.parse(text); } catch { body = text; }
        const result = { statusCode: response.status, data: body, header: Object.fromEntries(response.headers) };
        success && success(result);
        complete && complete(result);
      })
      .catch((error) => {
        const result = { errMsg: String(error) };
        fail && fail(result);
        complete && complete(result);
      });
  }
  const noop = () => {};
  globalThis.wx = {
    connectSocket,
    request,
    canIUse: () => true,
    getSystemInfo: (o) => o && o.success && o.success({ platform: 'devtools', SDKVersion: '3.0.0' }),
    getSystemInfoSync: () => ({ platform: 'devtools', SDKVersion: '3.0.0' }),
    getStorageSync: (k) => (storage.has(k) ? storage.get(k) : ''),
    setStorageSync: (k, v) => storage.set(k, v),
    setStorage: ({ key, data, success }) => { storage.set(key, data); success && success(); },
    getStorage: ({ key, success, fail }) => (storage.has(key) ? success && success({ data: storage.get(key) }) : fail && fail({})),
    removeStorageSync: (k) => storage.delete(k),
    getNetworkType: (o) => o && o.success && o.success({ networkType: 'wifi' }),
    onNetworkStatusChange: noop, offNetworkStatusChange: noop,
    onAppShow: noop, offAppShow: noop, onAppHide: noop, offAppHide: noop,
  };
  if (!globalThis.navigator || !globalThis.navigator.userAgent) globalThis.navigator = { userAgent: 'node', onLine: true };
}

// ---- the browser platform (full build: SockJS, XMLHttpRequest) ------------------------------

class FetchXMLHttpRequest {
  constructor() {
    this.readyState = 0; this.status = 0; this.responseText = ''; this.response = '';
    this.timeout = 0; this.withCredentials = false; this.upload = {};
    this.headers = {}; this.responseHeaders = {};
  }
  open(method, url) { this.method = (method || 'GET').toUpperCase(); this.url = url; this.readyState = 1; }
  setRequestHeader(name, value) {
    // As a browser does: the same header set twice is joined with ", " (the Agora Chat build
    // sets both Content-type and Content-Type).
    const key = Object.keys(this.headers).find((k) => k.toLowerCase() === name.toLowerCase()) || name;
    this.headers[key] = this.headers[key] === undefined ? value : `${this.headers[key]}, ${value}`;
  }
  getAllResponseHeaders() { return Object.entries(this.responseHeaders).map(([k, v]) => `${k}: ${v}`).join('\r\n'); }
  getResponseHeader(name) { return this.responseHeaders[name.toLowerCase()] ?? null; }
  abort() { this.aborted = true; }
  addEventListener(type, listener) { this['on' + type] = listener; }
  send(body) {
    const hasBody = this.method !== 'GET' && this.method !== 'HEAD';
    fetch(this.url, { method: this.method, headers: this.headers, body: hasBody ? body : undefined })
      .then(async (response) => {
        if (this.aborted) return;
        response.headers.forEach((v, k) => { this.responseHeaders[k] = v; });
        this.status = response.status;
        this.responseText = await response.text();
        this.response = this.responseText;
        this.readyState = 4;
        this.onreadystatechange && this.onreadystatechange();
        this.onload && this.onload();
      })
      .catch((error) => {
        if (this.aborted) return;
        this.readyState = 4;
        this.status = 0;
        this.onreadystatechange && this.onreadystatechange();
        this.onerror && this.onerror(error);
      });
  }
}

function installBrowser() {
  const store = new Map();
  const noop = () => {};
  const element = () => ({
    style: {}, setAttribute: noop, appendChild: noop, removeChild: noop, addEventListener: noop,
    removeEventListener: noop, getElementsByTagName: () => [],
  });
  globalThis.window = globalThis;
  globalThis.self = globalThis;
  globalThis.XMLHttpRequest = FetchXMLHttpRequest;
  globalThis.localStorage = {
    getItem: (k) => (store.has(k) ? store.get(k) : null), setItem: (k, v) => store.set(k, String(v)),
    removeItem: (k) => store.delete(k), clear: () => store.clear(),
  };
  globalThis.sessionStorage = globalThis.localStorage;
  globalThis.location = { protocol: 'http:', host: '127.0.0.1', hostname: '127.0.0.1', port: '', href: 'http://127.0.0.1/', origin: 'http://127.0.0.1' };
  globalThis.document = {
    readyState: 'complete', body: element(), documentElement: element(), createElement: element,
    getElementsByTagName: () => [element()], addEventListener: noop, removeEventListener: noop, cookie: '', domain: '127.0.0.1',
  };
  globalThis.addEventListener = globalThis.addEventListener || noop;
  globalThis.removeEventListener = globalThis.removeEventListener || noop;
  if (!globalThis.navigator || !globalThis.navigator.userAgent) globalThis.navigator = { userAgent: 'Mozilla/5.0 (node)', onLine: true };
}

/** The WebSocket under an SDK connection: the wx task's, SockJS's transport's, or its own. */
function socketOf(connection) {
  const sock = connection && connection.sock;
  if (!sock) return null;
  if (sock.imockSocket) return sock.imockSocket;
  if (sock._transport && sock._transport.ws) return sock._transport.ws.ws || sock._transport.ws;
  if (typeof sock.imockRoundTrip === 'function') return sock;
  return null;
}

module.exports = { installMiniProgram, installBrowser, socketOf, settlePull, settleAnswer };
