/// `/_imock/ui/views.js`: draws each card from the control API's answers. Buttons call the
/// handlers they are given; nothing here talks to the server.
enum DashboardViewsScript {
    static let text = #"""
        import { h, byId, fillTable, formatTime, relative } from './dom.js';

        // A row button; `run` gets the button (disabled while its call runs).
        const small = (label, action, run, extra = {}) => h('button', {
          type: 'button', class: `small ${extra.class ?? ''}`, dataset: { action }, title: extra.title,
          onclick: (event) => run(event.currentTarget),
        }, label);

        export function renderClock(clock) {
          byId('clock-now').textContent = formatTime(clock.nowMs);
          const mode = byId('clock-mode');
          mode.textContent = clock.frozen ? 'frozen' : 'flowing';
          mode.dataset.state = clock.frozen ? 'frozen' : 'flowing';
          const toggle = byId('clock-toggle');
          toggle.textContent = clock.frozen ? 'Resume' : 'Freeze';
          toggle.dataset.action = clock.frozen ? 'resume' : 'freeze';
        }

        export function renderSettings(answer) {
          byId('settings-app').textContent = answer.app;
          const rows = [];
          const show = (value) => (value === null ? 'none' : typeof value === 'object' ? JSON.stringify(value) : String(value));
          for (const [key, value] of Object.entries(answer.settings)) {
            rows.push(h('dt', {}, key), h('dd', { dataset: { setting: key } }, show(value)));
          }
          rows.push(h('dt', {}, 'activeUserCount'), h('dd', {}, String(answer.activeUserCount)));
          byId('settings').replaceChildren(...rows);
        }

        // Live sessions with their actions; `faults` marks black-holed connections.
        export function renderSessions(sessions, faults, now, act) {
          const holed = new Set(faults.filter((fault) => fault.kind === 'blackhole' && fault.target.connection !== undefined)
            .map((fault) => fault.target.connection));
          const rows = sessions.map((session) => h('tr', { dataset: { connection: session.connection, user: session.user, resource: session.resource } },
            h('td', {}, session.user),
            h('td', { class: 'mono' }, session.resource, holed.has(session.connection) ? h('span', { class: 'pill', dataset: { state: 'closed' } }, ' black-holed') : null),
            h('td', {}, `${session.group} (${session.platform})`),
            h('td', { class: 'mono' }, session.dialect || '—'),
            h('td', {}, session.deviceName || '—', h('br'), h('span', { class: 'muted mono' }, session.deviceUUID)),
            h('td', {}, relative(session.loginTimeMs, now), session.autoLogin ? ' (auto)' : ''),
            h('td', {}, relative(session.tokenExpiresAtMs, now)),
            h('td', { class: 'actions' },
              small('Kick', 'kick', (button) => act.kick(session, button), { title: 'kick with the code chosen above' }),
              small('Expire token', 'expire', (button) => act.expire(session.user, button), { class: 'quiet' }),
              small('Drop', 'drop', (button) => act.fault('drop', session, button), { class: 'quiet', title: 'close the TCP connection without a close frame' }),
              small('Black-hole', 'blackhole', (button) => act.fault('blackhole', session, button), { class: 'quiet', title: 'stop reading and writing; the socket stays open' }))));
          byId('sessions-count').textContent = `(${sessions.length})`;
          fillTable(byId('sessions'), rows, 'no device is logged in');
        }

        const userLimit = 500;

        export function renderUsers(users, sessions, act) {
          const devices = new Map();
          for (const session of sessions) devices.set(session.user, (devices.get(session.user) ?? 0) + 1);
          const rows = users.slice(0, userLimit).map((user) => h('tr', { dataset: { user: user.username } },
            h('td', {}, user.username, user.nickname ? h('span', { class: 'muted' }, ` ${user.nickname}`) : null),
            h('td', {}, String(devices.get(user.username) ?? 0)),
            h('td', {}, user.activated ? 'yes' : 'no'),
            h('td', { class: 'actions' }, small('Expire tokens', 'expire', (button) => act.expire(user.username, button), { class: 'quiet' }))));
          byId('users-count').textContent = users.length > userLimit ? `(first ${userLimit} of ${users.length})` : `(${users.length})`;
          fillTable(byId('users'), rows, 'no users');
        }

        export function renderTokens(listing, now) {
          const rows = listing.tokens.slice(0, 200).map((token) => h('tr', { dataset: { tokenId: token.id, state: token.state, subject: token.subject ?? '' } },
            h('td', {}, String(token.id)),
            h('td', {}, token.kind),
            h('td', {}, token.subject ?? '—'),
            h('td', { class: 'mono' }, token.prefix),
            h('td', {}, formatTime(token.issuedAtMs)),
            h('td', {}, relative(token.expiresAtMs, now)),
            h('td', { class: `state-${token.state}` }, token.state)));
          byId('tokens-count').textContent = `(${listing.tokens.length})`;
          fillTable(byId('tokens'), rows, 'no tokens');
        }

        // The latest 50 `kicked` frames of the journal, newest first.
        export function renderKicks(entries) {
          const kicks = entries.filter((entry) => entry.event.type === 'frame' && entry.event.frame.op === 'kicked').slice(-50).reverse();
          const rows = kicks.map((entry) => {
            const frame = entry.event.frame;
            const by = frame.by ? ` (by ${frame.by.deviceName || 'a device'})` : '';
            return h('tr', { dataset: { code: frame.code, resource: entry.resource ?? '' } },
              h('td', {}, formatTime(entry.atMs)),
              h('td', {}, h('strong', {}, String(frame.code))),
              h('td', {}, entry.user ?? '—'),
              h('td', { class: 'mono' }, entry.resource ?? '—'),
              h('td', { class: 'wrap' }, `${frame.reason ?? ''}${by}`));
          });
          byId('kicks-count').textContent = `(${kicks.length})`;
          fillTable(byId('kicks'), rows, 'no kicks yet');
        }

        export function renderFaults(faults, sessions, now, act) {
          const devices = new Map(sessions.map((session) => [session.connection, `${session.user}/${session.resource}`]));
          const describe = (target) => target.connection !== undefined
            ? [`connection ${target.connection}`, devices.has(target.connection) ? h('br') : null, devices.get(target.connection)]
            : [target.app, target.user, target.resource].filter(Boolean).join(' / ');
          const rows = faults.map((fault) => h('tr', { dataset: { faultId: fault.id, kind: fault.kind } },
            h('td', {}, `#${fault.id} `, h('strong', {}, fault.kind)),
            h('td', { class: 'wrap' }, describe(fault.target)),
            h('td', {}, `${fault.applied} / ${fault.expiresAtMs === null ? 'on clear' : relative(fault.expiresAtMs, now)}`),
            h('td', { class: 'actions' }, small('Clear', 'clear-fault', (button) => act.clearFault(fault.id, button), { class: 'quiet' }))));
          byId('faults-count').textContent = `(${faults.length}, all apps)`;
          fillTable(byId('faults'), rows, 'no active faults');
        }

        const eventLimit = 200;

        // Adds one journal entry from the stream at the top of the list.
        export function addEvent(event) {
          const entry = event.entry;
          const detail = entry.event.type === 'closed'
            ? { op: 'closed', text: `${entry.event.code} ${entry.event.reason ?? ''}` }
            : { op: entry.event.frame.op, text: describeFrame(entry.event.frame) };
          const list = byId('events');
          list.prepend(h('li', { dataset: { op: detail.op, resource: entry.resource ?? '' } },
            h('span', { class: 'muted' }, `#${event.id ?? '?'} ${formatTime(entry.atMs)} `),
            h('span', { class: `op ${detail.op.replace('.', '-')}` }, detail.op), ' ',
            `${entry.user ?? '—'}/${entry.resource ?? '—'} conn ${entry.connection} `,
            h('span', { class: 'mono' }, detail.text)));
          while (list.children.length > eventLimit) list.lastElementChild.remove();
          byId('events-count').textContent = `(${list.children.length})`;
        }

        function describeFrame(frame) {
          const { op, ...rest } = frame;
          return Object.keys(rest).length ? JSON.stringify(rest) : '';
        }

        """#
}
