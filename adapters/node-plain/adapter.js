// imock adapter (JSON lines, docs/FIXTURES.md § Adapters) for a plain WebSocket client speaking the
// imock protocol (docs/PROTOCOL.md). Node 20, no packages:
//   node --experimental-websocket adapters/node-plain/adapter.js
// Written from the documents only, to prove they are enough to write an adapter.
'use strict';

const readline = require('node:readline');
const { Device } = require('./device.js');
const { clientError, httpURL } = require('./profile.js');

const COMMANDS = ['init', 'addDelegate', 'removeDelegate', 'login', 'logout', 'renewToken', 'send',
  'queryDevices', 'state', 'settle', 'barrier', 'reset', 'shutdown'];

/** @type {Map<string, Device>} */
const devices = new Map();

function write(object) {
  process.stdout.write(JSON.stringify(object) + '\n');
}

function report(device, name, args, frames) {
  write({ type: 'callback', device, name, args, frames });
}

/** `getLoggedInDevicesFromServer`: `GET /{org}/{app}/users/{user}/resources` with the given token. */
async function queryDevices(setup, user, token) {
  const [org, app] = String(setup.appKey ?? '').split('#');
  if (!org || !app || !user) return { error: clientError(101, 'invalid app key or username'), resources: [] };
  const path = [org, app, 'users', user, 'resources'].map(encodeURIComponent).join('/');
  let response;
  try {
    response = await fetch(httpURL(setup.serverURL) + '/' + path, { headers: { Authorization: 'Bearer ' + token } });
  } catch (error) {
    return { error: clientError(300, String(error)), resources: [] };
  }
  const body = await response.json().catch(() => null);
  if (!response.ok) return { error: clientError(response.status, body?.error_description ?? body?.error ?? 'HTTP ' + response.status), resources: [] };
  return { error: null, resources: (body?.data ?? []).map((entry) => entry.res) };
}

async function deviceCommand(device, message) {
  switch (message.command) {
    case 'addDelegate': device.delegate = true; return { error: null };
    case 'removeDelegate': device.delegate = false; return { error: null };
    case 'login': return device.startLogin(message.user, message.token);
    case 'logout': return device.logout(message.unbind);
    case 'renewToken': return device.renewToken(message.token);
    case 'send': return device.send(message.to, message.text);
    case 'queryDevices': return queryDevices(device.setup, message.user, message.token);
    case 'state': return device.state();
    case 'shutdown': device.shutdown(); return { error: null };
    default: return { refused: 'unknown command ' + message.command };
  }
}

async function command(message) {
  const name = message.device;
  switch (message.command) {
    case 'init': {
      devices.get(name)?.shutdown();
      devices.set(name, new Device(name, message.setup ?? {}, report));
      return { error: null };
    }
    case 'settle': {
      const skip = new Set(message.skip ?? []);
      await Promise.all([...devices.values()].filter((d) => !skip.has(d.name)).map((d) => d.settle()));
      return { error: null };
    }
    case 'barrier': {
      const frames = {};
      for (const [deviceName, entries] of Object.entries(message.devices ?? {})) {
        Object.assign(frames, devices.get(deviceName)?.numberFrames(entries) ?? {});
      }
      return { error: null, frames };
    }
    case 'reset':
      for (const device of devices.values()) device.shutdown();
      devices.clear();
      return { error: null };
    case 'shutdown':
      if (name == null) {
        for (const device of devices.values()) device.shutdown();
        return { error: null };
      }
      break;
    default:
      break;
  }
  const device = devices.get(name);
  if (!device) return { refused: `no device ${name} (no init)` };
  return deviceCommand(device, message);
}

const input = readline.createInterface({ input: process.stdin });
input.on('line', (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  if (message.type === 'hello') {
    write({ type: 'hello', protocol: 1, name: 'node-plain', version: '0.1', clock: 'realtime', profiles: ['easemob'], commands: COMMANDS });
    return;
  }
  if (message.type !== 'command') return;
  command(message).then(
    (result) => write(result.refused ? { type: 'result', id: message.id, refused: result.refused } : { type: 'result', id: message.id, result }),
    (error) => write({ type: 'result', id: message.id, refused: String(error?.stack ?? error) }),
  );
});
input.on('close', () => {
  for (const device of devices.values()) device.shutdown();
  process.exit(0);
});
