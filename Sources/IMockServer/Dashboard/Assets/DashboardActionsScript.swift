/// `/_imock/ui/actions.js`: runs a control-API call for a button and shows its answer or its
/// error in the "Last action" bar.
enum DashboardActionsScript {
    static let text = #"""
        import { call, pathOf, ENDPOINTS } from './api.js';
        import { byId, brief } from './dom.js';

        // Shows `text` in the result bar; state is 'busy', 'ok' or 'error'.
        export function showResult(state, text) {
          const bar = byId('result');
          bar.dataset.state = state;
          byId('result-text').textContent = text;
        }

        // Calls endpoint `name` for a button, disabling it meanwhile; reports the answer or the
        // error, then `after()` (a refresh). Resolves to the JSON answer, or null on error.
        export async function perform(button, name, options = {}, after = () => {}) {
          const label = `${ENDPOINTS[name][0]} ${pathOf(name, options.params, options.query)}`;
          showResult('busy', `${label} …`);
          if (button) button.disabled = true;
          try {
            const answer = await call(name, options);
            showResult('ok', `${label} → ${answer.status} ${brief(answer.json)}`);
            return answer.json;
          } catch (error) {
            const status = error.status ? `${error.status}` : 'no answer';
            showResult('error', `${label} → ${status}: ${error.message}`);
            return null;
          } finally {
            if (button) button.disabled = false;
            after();
          }
        }

        // A destructive button asks for a second click within 5 s, in the page (no dialog).
        export function confirmTwice(button, question, action) {
          const label = button.textContent;
          let timer = null;
          button.addEventListener('click', () => {
            if (button.dataset.armed !== 'true') {
              button.dataset.armed = 'true';
              button.textContent = question();
              timer = setTimeout(() => { button.dataset.armed = 'false'; button.textContent = label; }, 5000);
              return;
            }
            clearTimeout(timer);
            button.dataset.armed = 'false';
            button.textContent = label;
            action(button);
          });
        }

        """#
}
