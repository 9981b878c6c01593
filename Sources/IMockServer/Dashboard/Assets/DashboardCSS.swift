/// `/_imock/ui/style.css`: one column on a phone, a grid of cards on a laptop; tables scroll
/// sideways inside their card rather than widening the page.
enum DashboardCSS {
    static let text = #"""
        :root {
          --bg: #f4f5f7; --card: #fff; --ink: #1d2330; --muted: #667085; --line: #dde1e8;
          --accent: #2f6fde; --ok: #1a7f37; --bad: #c4312b; --warn: #9a6700;
          font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; font-size: 15px;
          color: var(--ink); background: var(--bg);
        }
        * { box-sizing: border-box; }
        body { margin: 0; }
        [hidden] { display: none !important; }
        code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, monospace; font-size: 0.86em; }
        .muted { color: var(--muted); font-size: 0.9em; }
        .error { color: var(--bad); }
        .bar {
          display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem 1rem;
          padding: 0.6rem 1rem; background: var(--ink); color: #fff; position: sticky; top: 0; z-index: 2;
        }
        .bar h1 { font-size: 1.15rem; margin: 0; display: flex; align-items: center; gap: 0.4rem; }
        .bar .muted { color: #b8c0cc; }
        .bar select { max-width: 14rem; }
        .spacer { flex: 1; }
        .pick { display: flex; align-items: center; gap: 0.4rem; }
        .pill {
          display: inline-block; padding: 0.1rem 0.55rem; border-radius: 1rem; font-size: 0.8rem;
          background: var(--line); color: var(--ink);
        }
        .pill[data-state="open"] { background: #d3f3dc; color: var(--ok); }
        .pill[data-state="closed"], .pill[data-state="retrying"] { background: #fde2e1; color: var(--bad); }
        main { padding: 0.8rem; }
        .grid { display: grid; gap: 0.8rem; grid-template-columns: minmax(0, 1fr); }
        @media (min-width: 48rem) {
          .grid { grid-template-columns: repeat(2, minmax(0, 1fr)); }
          .wide, #kicks-card { grid-column: 1 / -1; }
        }
        @media (min-width: 80rem) {
          .grid { grid-template-columns: minmax(0, 0.8fr) minmax(0, 1fr) minmax(0, 1.2fr); }
          #kicks-card { grid-column: span 2; }
        }
        .card {
          background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 0.8rem 1rem;
          min-width: 0;
        }
        .card h2 { font-size: 1rem; margin: 0 0 0.6rem; }
        .login { max-width: 34rem; margin: 2rem auto; }
        .login form { display: flex; gap: 0.5rem; flex-wrap: wrap; }
        .login input { flex: 1 1 14rem; }
        .row { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; margin: 0.4rem 0; }
        .row label { display: flex; align-items: center; gap: 0.4rem; flex-wrap: wrap; }
        .big { font-size: 1.2rem; margin: 0.2rem 0 0.6rem; }
        .count { color: var(--muted); font-weight: normal; }
        input, select, button { font: inherit; padding: 0.35rem 0.6rem; border-radius: 6px; border: 1px solid #b9c0cc; }
        input, select { background: #fff; color: var(--ink); min-width: 0; }
        button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; min-height: 2.1rem; }
        button:hover { filter: brightness(1.1); }
        button:disabled { opacity: 0.5; cursor: progress; }
        button.small { padding: 0.2rem 0.5rem; font-size: 0.85rem; min-height: 1.9rem; }
        button.quiet { background: #fff; color: var(--accent); }
        button.danger { background: var(--bad); border-color: var(--bad); }
        .bar button { background: transparent; border-color: #8792a2; }
        .scroll { overflow-x: auto; max-height: 24rem; overflow-y: auto; }
        table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
        th, td { text-align: left; padding: 0.35rem 0.4rem; border-bottom: 1px solid var(--line); white-space: nowrap; vertical-align: middle; }
        th { color: var(--muted); font-weight: 600; position: sticky; top: 0; background: var(--card); }
        td.wrap { white-space: normal; min-width: 7rem; }
        td.actions { display: flex; gap: 0.3rem; flex-wrap: wrap; }
        td.empty { color: var(--muted); text-align: center; padding: 0.8rem; }
        .state-live { color: var(--ok); font-weight: 600; }
        .state-expired, .state-revoked, .state-kicked { color: var(--bad); font-weight: 600; }
        .pairs { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 0.9rem; margin: 0 0 0.6rem; }
        .pairs dt { color: var(--muted); }
        .pairs dd { margin: 0; overflow-wrap: anywhere; }
        .result {
          background: var(--card); border: 1px solid var(--line); border-left: 5px solid var(--line);
          border-radius: 8px; padding: 0.6rem 0.9rem; margin-bottom: 0.8rem; overflow-wrap: anywhere;
        }
        .result[data-state="ok"] { border-left-color: var(--ok); }
        .result[data-state="error"] { border-left-color: var(--bad); }
        .result[data-state="busy"] { border-left-color: var(--warn); }
        .result-title { font-weight: 600; margin-right: 0.4rem; }
        .events { list-style: none; margin: 0; padding: 0; max-height: 22rem; overflow-y: auto; font-size: 0.86rem; }
        .events li { padding: 0.3rem 0.2rem; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
        .events .op { font-weight: 600; }
        .events .op.kicked, .events .op.closed, .events .op.login-error, .events .op.token-expired { color: var(--bad); }
        .events .op.login-ok { color: var(--ok); }
        @media (max-width: 40rem) {
          :root { font-size: 14px; }
          main { padding: 0.5rem; }
          .bar { padding: 0.5rem 0.7rem; }
          .bar select { max-width: 10rem; }
          .card { padding: 0.7rem; }
          /* Tables with many columns become one block per row, each cell under its heading. */
          table.stack thead { display: none; }
          table.stack, table.stack tbody { display: block; }
          table.stack tr { display: block; padding: 0.45rem 0; border-bottom: 1px solid var(--line); }
          table.stack td { display: block; border: 0; padding: 0.1rem 0 0.1rem 7.5rem; position: relative; white-space: normal; overflow-wrap: anywhere; }
          table.stack td::before {
            content: attr(data-label); position: absolute; left: 0; width: 7rem; color: var(--muted);
            font-family: system-ui, sans-serif; font-size: 0.95rem;
          }
          table.stack td.actions { display: flex; padding-left: 0; margin-top: 0.3rem; }
          table.stack td.actions::before, table.stack td.empty::before { content: none; }
          table.stack td.empty { padding-left: 0; }
        }

        """#
}
