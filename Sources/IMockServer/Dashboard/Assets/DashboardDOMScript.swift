/// `/_imock/ui/dom.js`: DOM and formatting helpers. Every text reaches the page through text
/// nodes, never as HTML, so nothing the server reports (user names, reasons) can inject markup.
enum DashboardDOMScript {
    static let text = #"""
        // Builds an element: h('td', {class: 'x', dataset: {id: 1}, onclick: f}, 'text', child).
        export function h(tag, props = {}, ...children) {
          const element = document.createElement(tag);
          for (const [key, value] of Object.entries(props)) {
            if (value === undefined || value === null || value === false) continue;
            if (key === 'class') element.className = value;
            else if (key === 'dataset') Object.assign(element.dataset, value);
            else if (key.startsWith('on')) element.addEventListener(key.slice(2), value);
            else element.setAttribute(key, value === true ? '' : String(value));
          }
          for (const child of children.flat()) {
            if (child === undefined || child === null || child === false) continue;
            element.append(child instanceof Node ? child : document.createTextNode(String(child)));
          }
          return element;
        }

        export const byId = (id) => document.getElementById(id);

        // Replaces a table body's rows; an empty list shows one muted row saying so. Each cell
        // gets its column heading as data-label, which the phone layout shows beside it.
        export function fillTable(table, rows, emptyText) {
          const headings = [...table.tHead.rows[0].cells].map((cell) => cell.textContent);
          for (const row of rows) [...row.cells].forEach((cell, index) => { cell.dataset.label = headings[index] ?? ''; });
          const empty = h('tr', {}, h('td', { class: 'empty', colspan: headings.length }, emptyText));
          table.tBodies[0].replaceChildren(...(rows.length ? rows : [empty]));
        }

        // Epoch milliseconds as UTC, to the second: 2026-11-01 09:30:00Z.
        export function formatTime(ms) {
          if (ms === null || ms === undefined) return 'never';
          return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
        }

        // How far `ms` is from the server clock's `now`: "in 9m 58s", "2h 1m ago".
        export function relative(ms, now) {
          if (ms === null || ms === undefined) return 'never';
          if (now === null || now === undefined) return formatTime(ms);
          const delta = Math.round((ms - now) / 1000);
          const text = duration(Math.abs(delta));
          return delta > 0 ? `in ${text}` : delta === 0 ? 'now' : `${text} ago`;
        }

        function duration(seconds) {
          const units = [['d', 86400], ['h', 3600], ['m', 60], ['s', 1]];
          const parts = [];
          for (const [name, size] of units) {
            if (seconds >= size || (name === 's' && parts.length === 0)) {
              parts.push(`${Math.floor(seconds / size)}${name}`);
              seconds %= size;
            }
            if (parts.length === 2) break;
          }
          return parts.join(' ');
        }

        // Compact JSON for the result line, cut at `limit` characters.
        export function brief(value, limit = 400) {
          const text = value === undefined || value === null ? '' : JSON.stringify(value);
          return text.length > limit ? `${text.slice(0, limit)}…` : text;
        }

        """#
}
