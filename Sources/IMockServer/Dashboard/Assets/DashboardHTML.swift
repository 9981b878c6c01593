/// `/_imock/ui`: the page shell. It holds no data: `app.js` asks for the admin secret and
/// fills the cards through the control API.
enum DashboardHTML {
    static let text = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>imock dashboard</title>
        <link rel="icon" href="/_imock/ui/icon.svg" type="image/svg+xml">
        <link rel="stylesheet" href="/_imock/ui/style.css">
        <script type="module" src="/_imock/ui/app.js"></script>
        </head>
        <body>
        <header class="bar">
          <h1><img src="/_imock/ui/icon.svg" alt="" width="22" height="22"> imock</h1>
          <span id="version" class="muted"></span>
          <label id="app-pick" class="pick" hidden>App <select id="app-select"></select></label>
          <span class="spacer"></span>
          <span id="stream-state" class="pill" hidden>stream: closed</span>
          <button id="sign-out" type="button" hidden>Forget secret</button>
        </header>

        <noscript><p class="card">The dashboard needs JavaScript.</p></noscript>

        <section id="login" class="card login" hidden>
          <h2>Admin secret</h2>
          <p>The dashboard calls the control API, which needs the server's admin secret
          (<code>--admin-secret</code>, <code>IMOCK_ADMIN_SECRET</code>, or the one logged at start-up).
          It is kept in this tab only (<code>sessionStorage</code>). You can also open
          <code>/_imock/ui#secret=…</code>: the part after <code>#</code> never leaves the browser.</p>
          <form id="login-form">
            <input id="secret" type="password" autocomplete="off" placeholder="admin secret" aria-label="admin secret" required>
            <button type="submit">Open dashboard</button>
          </form>
          <p id="login-error" class="error" role="alert"></p>
        </section>

        <main id="board" hidden>
          <section id="result" class="result" aria-live="polite" data-state="idle">
            <span class="result-title">Last action</span> <span id="result-text">none yet</span>
            <p id="refresh-error" class="error" role="alert" hidden></p>
          </section>

          <div class="grid">
            <section class="card" id="clock-card">
              <h2>Clock</h2>
              <p class="big"><span id="clock-now">…</span> <span id="clock-mode" class="pill"></span></p>
              <form id="advance-form" class="row">
                <label>Advance by
                  <select id="advance-amount">
                    <option value="1000">1 second</option>
                    <option value="60000">1 minute</option>
                    <option value="600000" selected>10 minutes</option>
                    <option value="3600000">1 hour</option>
                    <option value="86400000">1 day</option>
                  </select>
                </label>
                <button type="submit" id="advance">Advance</button>
                <button type="button" id="clock-toggle">Freeze</button>
              </form>
            </section>

            <section class="card" id="settings-card">
              <h2>App <span id="settings-app" class="muted"></span></h2>
              <dl id="settings" class="pairs"></dl>
              <div class="row">
                <button type="button" id="reset-app" class="danger">Reset app</button>
                <span class="muted">back to its start-up state; kicks its sessions with 207</span>
              </div>
            </section>

            <section class="card" id="faults-card">
              <h2>Faults <span id="faults-count" class="count"></span></h2>
              <div class="scroll"><table id="faults" class="stack">
                <thead><tr><th>fault</th><th>target</th><th>applied / ends</th><th></th></tr></thead>
                <tbody></tbody>
              </table></div>
              <div class="row"><button type="button" id="clear-faults">Clear all faults</button></div>
            </section>

            <section class="card wide" id="sessions-card">
              <h2>Live sessions <span id="sessions-count" class="count"></span></h2>
              <div class="row">
                <label>Kick code
                  <select id="kick-code">
                    <option value="206">206 logged in on another device</option>
                    <option value="217" selected>217 forced offline</option>
                    <option value="207">207 user removed</option>
                    <option value="216">216 password changed</option>
                    <option value="305">305 service forbidden</option>
                    <option value="202">202 authentication failed</option>
                    <option value="214">214 too many devices</option>
                    <option value="220">220 device changed</option>
                    <option value="213">213 bound to another device</option>
                    <option value="104">104 invalid token</option>
                    <option value="108">108 token expired</option>
                    <option value="8">8 active-user limit</option>
                    <option value="2002">2002 OpenIM kicked offline</option>
                  </select>
                </label>
              </div>
              <div class="scroll"><table id="sessions" class="stack">
                <thead><tr><th>user</th><th>resource</th><th>group</th><th>dialect</th><th>device</th><th>login</th><th>token expires</th><th>actions</th></tr></thead>
                <tbody></tbody>
              </table></div>
            </section>

            <section class="card" id="users-card">
              <h2>Users <span id="users-count" class="count"></span></h2>
              <div class="scroll"><table id="users">
                <thead><tr><th>user</th><th>devices</th><th>activated</th><th>actions</th></tr></thead>
                <tbody></tbody>
              </table></div>
            </section>

            <section class="card" id="kicks-card">
              <h2>Recent kicks <span id="kicks-count" class="count"></span></h2>
              <div class="scroll"><table id="kicks" class="stack">
                <thead><tr><th>time</th><th>code</th><th>user</th><th>resource</th><th>reason</th></tr></thead>
                <tbody></tbody>
              </table></div>
            </section>

            <section class="card wide" id="tokens-card">
              <h2>Tokens <span id="tokens-count" class="count"></span></h2>
              <div class="row">
                <label>State
                  <select id="token-state">
                    <option value="">all</option>
                    <option value="live">live</option>
                    <option value="expired">expired</option>
                    <option value="revoked">revoked</option>
                    <option value="kicked">kicked</option>
                  </select>
                </label>
              </div>
              <div class="scroll"><table id="tokens" class="stack">
                <thead><tr><th>id</th><th>kind</th><th>user</th><th>token</th><th>issued</th><th>expires</th><th>state</th></tr></thead>
                <tbody></tbody>
              </table></div>
            </section>


            <section class="card wide" id="events-card">
              <h2>Event stream <span id="events-count" class="count"></span></h2>
              <div class="row">
                <button type="button" id="events-clear">Clear list</button>
                <span class="muted">kicks, token events, logins and closes as the server sends them</span>
              </div>
              <ol id="events" class="events" reversed></ol>
            </section>
          </div>
        </main>
        </body>
        </html>

        """#
}
