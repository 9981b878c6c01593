/// `/_imock/ui/app.js`: the dashboard's entry point — the secret prompt, the app picker, the
/// refresh loop, the event stream and the buttons.
enum DashboardAppScript {
    static let text = #"""
        import { adminSecret, appParams, call } from './api.js';
        import { h, byId } from './dom.js';
        import { openEventStream } from './stream.js';
        import { perform, confirmTwice } from './actions.js';
        import * as views from './views.js';

        const APP_KEY = 'imock.app';
        const state = { appKey: null, appKeys: [], appsLoadedAt: 0, closeStream: null, timer: null, refreshing: false, again: false, pending: null };

        // ---- Access: the secret comes from #secret=… or the form, and lives in sessionStorage.

        // True when the fragment held a secret (now stored).
        function takeSecretFromFragment() {
          const match = /(?:^|&)secret=([^&]*)/.exec(location.hash.slice(1));
          if (!match) return false;
          let value = match[1];
          try { value = decodeURIComponent(value); } catch { /* not %-encoded: taken as written */ }
          adminSecret.set(value);
          // Out of the address bar and the history, so it is not shared with a copied link.
          history.replaceState(null, '', location.pathname + location.search);
          return true;
        }

        function showLogin(message = '') {
          stop();
          for (const id of ['board', 'app-pick', 'sign-out', 'stream-state']) byId(id).hidden = true;
          byId('login').hidden = false;
          byId('login-error').textContent = message;
          byId('secret').focus();
        }

        async function open() {
          stop();
          if (!adminSecret.get()) return showLogin();
          try {
            await call('clock');
          } catch (error) {
            if (error.status === 401) adminSecret.clear();
            const reason = error.status === 401 ? 'The server refused this secret (401).' : `${error.status || 'No answer'}: ${error.message}`;
            return showLogin(reason);
          }
          byId('login').hidden = true;
          for (const id of ['board', 'sign-out', 'stream-state']) byId(id).hidden = false;
          call('health').then(({ json }) => { byId('version').textContent = `v${json.version}`; }).catch(() => {});
          state.timer = setInterval(refresh, 4000);
          await refresh();
        }

        function stop() {
          if (state.closeStream) state.closeStream();
          Object.assign(state, { closeStream: null, appKey: null, appKeys: [], appsLoadedAt: 0 });
          clearInterval(state.timer);
          state.timer = null;
        }

        function expired() {
          adminSecret.clear();
          showLogin('The server no longer accepts this secret (401).');
        }

        // ---- Apps: listed from the export; the choice is remembered for the tab.

        async function loadApps() {
          const { json } = await call('exportAll');
          state.appsLoadedAt = Date.now();
          const keys = json.apps.map((app) => app.appKey);
          const select = byId('app-select');
          if (keys.join('\n') !== state.appKeys.join('\n')) {
            select.replaceChildren(...keys.map((key) => h('option', { value: key }, key)));
            state.appKeys = keys;
          }
          byId('app-pick').hidden = false;
          const wanted = state.appKey ?? sessionStorage.getItem(APP_KEY);
          const chosen = keys.includes(wanted) ? wanted : keys[0] ?? null;
          if (chosen) select.value = chosen;
          if (chosen !== state.appKey) selectApp(chosen);
        }

        function selectApp(appKey) {
          if (state.closeStream) state.closeStream();
          state.closeStream = null;
          state.appKey = appKey;
          byId('events').replaceChildren();
          byId('events-count').textContent = '';
          if (!appKey) return;
          sessionStorage.setItem(APP_KEY, appKey);
          state.closeStream = openEventStream({
            appKey,
            onEvent: (event) => { views.addEvent(event); requestRefresh(); },
            onState: (streamState, reason) => {
              if (streamState === 'unauthorized') return expired();
              const pill = byId('stream-state');
              pill.dataset.state = streamState;
              pill.textContent = `stream: ${streamState}`;
              pill.title = reason ?? '';
            },
          });
          requestRefresh();
        }

        // ---- Refresh: every card from the control API, after each action and event, and every 4 s.

        function requestRefresh() {
          clearTimeout(state.pending);
          state.pending = setTimeout(refresh, 150);
        }

        async function refresh() {
          if (state.refreshing) { state.again = true; return; }
          state.refreshing = true;
          const problem = byId('refresh-error');
          try {
            if (Date.now() - state.appsLoadedAt > 15000) await loadApps();
            const appKey = state.appKey;
            if (!appKey) return;
            const params = appParams(appKey);
            const answers = await Promise.all([
              call('clock'), call('settings', { params }), call('sessions', { params }), call('exportApp', { params }),
              call('tokens', { params, query: { state: byId('token-state').value } }),
              call('journal', { query: { app: appKey } }), call('faults'),
            ]);
            if (appKey !== state.appKey) return;
            const [clock, settings, sessions, exported, tokens, journal, faults] = answers.map((answer) => answer.json);
            const now = clock.nowMs;
            views.renderClock(clock);
            views.renderSettings(settings);
            views.renderSessions(sessions.sessions, faults.faults, now, actions);
            views.renderUsers(exported.apps[0]?.users ?? [], sessions.sessions, actions);
            views.renderTokens(tokens, now);
            views.renderKicks(journal.entries);
            views.renderFaults(faults.faults, sessions.sessions, now, actions);
            problem.hidden = true;
            byId('board').dataset.refreshedAt = String(Date.now());
          } catch (error) {
            if (error.status === 401) return expired();
            if (error.status === 404) state.appsLoadedAt = 0;
            problem.textContent = `Refreshing failed: ${error.method ?? ''} ${error.path ?? ''} → ${error.status || 'no answer'}: ${error.message}`;
            problem.hidden = false;
          } finally {
            state.refreshing = false;
            if (state.again) { state.again = false; requestRefresh(); }
          }
        }

        // ---- Buttons: each calls one documented endpoint and shows its answer.

        const current = () => appParams(state.appKey);

        const actions = {
          kick: (session, button) => perform(button, 'kick', {
            params: current(), body: { user: session.user, resource: session.resource, code: Number(byId('kick-code').value) },
          }, requestRefresh),
          expire: (user, button) => perform(button, 'expireTokens', { params: current(), body: { user } }, requestRefresh),
          fault: (kind, session, button) => perform(button, 'addFault', { body: { kind, connection: session.connection } }, requestRefresh),
          clearFault: (id, button) => perform(button, 'clearFault', { params: { id } }, requestRefresh),
        };

        function wire() {
          byId('login-form').addEventListener('submit', (event) => {
            event.preventDefault();
            adminSecret.set(byId('secret').value);
            byId('secret').value = '';
            open();
          });
          byId('sign-out').addEventListener('click', () => {
            adminSecret.clear();
            showLogin('The secret was forgotten in this tab.');
          });
          byId('app-select').addEventListener('change', (event) => selectApp(event.target.value));
          byId('token-state').addEventListener('change', requestRefresh);
          byId('advance-form').addEventListener('submit', (event) => {
            event.preventDefault();
            perform(byId('advance'), 'advance', { body: { ms: Number(byId('advance-amount').value) } }, requestRefresh);
          });
          byId('clock-toggle').addEventListener('click', (event) => {
            const button = event.currentTarget;
            perform(button, button.dataset.action === 'resume' ? 'resume' : 'freeze', {}, requestRefresh);
          });
          byId('clear-faults').addEventListener('click', (event) => perform(event.currentTarget, 'clearFaults', {}, requestRefresh));
          byId('events-clear').addEventListener('click', () => {
            byId('events').replaceChildren();
            byId('events-count').textContent = '(0)';
          });
          confirmTwice(byId('reset-app'), () => `Click again to reset ${state.appKey}`,
            (button) => perform(button, 'resetApp', { params: current() }, requestRefresh));
        }

        wire();
        // A #secret=… typed into the address bar of an open dashboard does not reload the page.
        window.addEventListener('hashchange', () => { if (takeSecretFromFragment()) open(); });
        takeSecretFromFragment();
        open();

        """#
}
