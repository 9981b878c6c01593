/// `/_imock/ui/api.js`: the control API as the dashboard calls it, with the admin secret kept
/// in `sessionStorage` and sent as `Authorization: Bearer` on every request.
enum DashboardAPIScript {
    static let text = #"""
        // Every control-API endpoint the dashboard calls: [method, path pattern]. Nothing else in
        // the scripts names a /_imock/ path (a Swift test checks both, and each entry against the
        // server's routes).
        export const ENDPOINTS = Object.freeze({
          health: ['GET', '/_imock/health'],
          clock: ['GET', '/_imock/clock'],
          advance: ['POST', '/_imock/clock/advance'],
          freeze: ['POST', '/_imock/clock/freeze'],
          resume: ['POST', '/_imock/clock/resume'],
          exportAll: ['GET', '/_imock/export'],
          exportApp: ['GET', '/_imock/apps/{org}/{app}/export'],
          settings: ['GET', '/_imock/apps/{org}/{app}/settings'],
          sessions: ['GET', '/_imock/apps/{org}/{app}/sessions'],
          tokens: ['GET', '/_imock/apps/{org}/{app}/tokens'],
          expireTokens: ['POST', '/_imock/apps/{org}/{app}/tokens/expire'],
          kick: ['POST', '/_imock/apps/{org}/{app}/kick'],
          resetApp: ['POST', '/_imock/apps/{org}/{app}/reset'],
          journal: ['GET', '/_imock/journal'],
          events: ['GET', '/_imock/events'],
          faults: ['GET', '/_imock/faults'],
          addFault: ['POST', '/_imock/faults'],
          clearFault: ['DELETE', '/_imock/faults/{id}'],
          clearFaults: ['DELETE', '/_imock/faults'],
        });

        const SECRET_KEY = 'imock.adminSecret';

        // The admin secret, for this tab only.
        export const adminSecret = {
          get: () => sessionStorage.getItem(SECRET_KEY),
          set: (value) => sessionStorage.setItem(SECRET_KEY, value),
          clear: () => sessionStorage.removeItem(SECRET_KEY),
        };

        // A refused or failed call: `status` 0 when the server did not answer.
        export class APIError extends Error {
          constructor(method, path, status, message) {
            super(message);
            this.method = method;
            this.path = path;
            this.status = status;
          }
        }

        // {org}/{app} from an app key 'org#app'.
        export function appParams(appKey) {
          const [org, app] = appKey.split('#');
          return { org, app };
        }

        // The path of endpoint `name` with its {placeholders} filled and the query appended.
        export function pathOf(name, params = {}, query = {}) {
          const path = ENDPOINTS[name][1].replace(/\{(\w+)\}/g, (_, key) => encodeURIComponent(params[key]));
          const search = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== undefined && value !== null && value !== ''));
          const text = search.toString();
          return text ? `${path}?${text}` : path;
        }

        // Calls endpoint `name`; resolves to {method, path, status, json} for a 2xx answer (or
        // {…, response} with `stream: true`), else throws an APIError with the server's
        // error_description. `extraHeaders` are sent as well (the stream's Last-Event-ID).
        export async function call(name, { params, query, body, signal, stream = false, extraHeaders = {} } = {}) {
          const method = ENDPOINTS[name][0];
          const path = pathOf(name, params, query);
          const headers = { ...extraHeaders, Authorization: `Bearer ${adminSecret.get() ?? ''}` };
          if (body !== undefined) headers['Content-Type'] = 'application/json';
          let response;
          try {
            response = await fetch(path, {
              method, headers, signal, cache: 'no-store', credentials: 'omit',
              body: body === undefined ? undefined : JSON.stringify(body),
            });
          } catch (error) {
            if (error.name === 'AbortError') throw error;
            throw new APIError(method, path, 0, `the server did not answer (${error.message})`);
          }
          if (stream && response.ok) return { method, path, status: response.status, response };
          const text = await response.text();
          let json = null;
          try { json = text ? JSON.parse(text) : null; } catch { json = null; }
          if (!response.ok) {
            const message = json?.error_description ?? (text || response.statusText);
            throw new APIError(method, path, response.status, message);
          }
          return { method, path, status: response.status, json };
        }

        """#
}
