// The Easemob profile's words (docs/CLIENT.md § Profiles, § Kicks and token errors, § Error codes)
// and the server's addresses derived from the `init` setup's `serverURL`.
'use strict';

/** An Easemob `error` argument: `{code, message}`. */
function clientError(code, message) {
  return { code, message };
}

/** The account callback that ends a session with the server's `code` (the kick table). */
function accountCallback(code, by) {
  switch (code) {
    case 206:
    case 220:
      return { name: 'userAccountDidLoginFromOtherDevice', args: { info: by ? { deviceName: by.deviceName ?? '', extensionInfo: by.extension ?? '' } : null } };
    case 207: return { name: 'userAccountDidRemoveFromServer', args: {} };
    case 305: return { name: 'userDidForbidByServer', args: {} };
    case 108: return { name: 'tokenDidExpire', args: { errorCode: 108 } };
    default: return { name: 'userAccountDidForcedToLogout', args: { code } };
  }
}

/** The WebSocket endpoint of the imock protocol for a `serverURL` (`http(s)://…` or `ws(s)://…/ws`). */
function wsURL(serverURL) {
  const url = new URL(serverURL);
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    url.protocol = url.protocol === 'http:' ? 'ws:' : 'wss:';
    url.pathname = '/ws';
  }
  return url.toString();
}

/** The REST base (`http(s)://HOST:PORT`) for a `serverURL`. */
function httpURL(serverURL) {
  const url = new URL(serverURL);
  if (url.protocol === 'ws:' || url.protocol === 'wss:') url.protocol = url.protocol === 'ws:' ? 'http:' : 'https:';
  return url.origin;
}

module.exports = { accountCallback, clientError, httpURL, wsURL };
