/// `/_imock/ui/stream.js`: the live event stream. `EventSource` cannot send an
/// `Authorization` header, so the stream is read with `fetch` and a body reader, and parsed as
/// Server-Sent Events here; it reconnects with back-off until closed, sending the last id it
/// read as `Last-Event-ID`, as `EventSource` would, so the server replays what it missed.
enum DashboardStreamScript {
    static let text = #"""
        import { call } from './api.js';

        const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

        // Opens GET /_imock/events?app=<appKey>. onEvent gets {id, type, entry} per event;
        // onState gets 'connecting', 'open', 'retrying' (with a reason) or 'unauthorized'.
        // Returns a function that closes the stream for good.
        export function openEventStream({ appKey, onEvent, onState }) {
          const controller = new AbortController();
          let closed = false;
          (async () => {
            let delay = 500;
            let lastId;
            const read = (event) => {
              if (event.id !== undefined) lastId = event.id;
              onEvent(event);
            };
            while (!closed) {
              let reason = 'the stream ended';
              try {
                onState('connecting');
                const extraHeaders = lastId === undefined ? {} : { 'Last-Event-ID': lastId };
                const { response } = await call('events', { query: { app: appKey }, signal: controller.signal, stream: true, extraHeaders });
                onState('open');
                delay = 500;
                await readEvents(response.body, read);
              } catch (error) {
                if (closed || error.name === 'AbortError') return;
                if (error.status === 401) { onState('unauthorized'); return; }
                reason = error.message;
              }
              if (closed) return;
              onState('retrying', reason);
              await sleep(delay);
              delay = Math.min(delay * 2, 10000);
            }
          })();
          return () => { closed = true; controller.abort(); };
        }

        // Splits the body into blank-line separated blocks and hands each event with data on.
        async function readEvents(body, onEvent) {
          const reader = body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = '';
          for (;;) {
            const { value, done } = await reader.read();
            if (done) return;
            buffer = (buffer + value).replace(/\r\n/g, '\n');
            let end;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const event = parseBlock(buffer.slice(0, end));
              buffer = buffer.slice(end + 2);
              if (event) onEvent(event);
            }
          }
        }

        // One SSE block: comments (': keep-alive') are skipped; data lines are joined.
        function parseBlock(block) {
          const fields = { data: [] };
          for (const line of block.split('\n')) {
            if (line === '' || line.startsWith(':')) continue;
            const colon = line.indexOf(':');
            const name = colon < 0 ? line : line.slice(0, colon);
            let value = colon < 0 ? '' : line.slice(colon + 1);
            if (value.startsWith(' ')) value = value.slice(1);
            if (name === 'data') fields.data.push(value);
            else fields[name] = value;
          }
          if (fields.data.length === 0) return null;
          try {
            return { id: fields.id, type: fields.event ?? 'message', entry: JSON.parse(fields.data.join('\n')) };
          } catch {
            return null;
          }
        }

        """#
}
