/**
 * The console's stylesheet, served as a file (assets.ts) because the CSP forbids inline styles. Kept in a
 * module so `tsc` carries it into dist/ with the code. System fonts only: nothing from another host.
 */
export const CONSOLE_CSS = `
:root { color-scheme: light; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --bg: #f6f8fa; --accent: #0550ae; --bad: #a40e26; --good: #116329; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: #fff; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
header.top { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem 1rem; padding: .5rem 1rem; background: var(--bg); border-bottom: 1px solid var(--line); }
header.top .brand { font-weight: 700; margin-right: .5rem; }
nav.main ul { display: flex; flex-wrap: wrap; gap: .25rem .75rem; list-style: none; margin: 0; padding: 0; }
nav.main a { text-decoration: none; padding: .2rem .35rem; border-radius: 4px; }
nav.main a[aria-current="page"] { background: #ddf4ff; color: #0a3069; font-weight: 600; }
header.top .who { margin-left: auto; color: var(--muted); }
main { padding: 1rem 1.25rem 3rem; max-width: 1200px; }
h1 { font-size: 1.5rem; margin: .25rem 0 1rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--bg); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
pre.json { background: var(--bg); border: 1px solid var(--line); padding: .75rem; overflow: auto; max-height: 32rem; font-size: 13px; }
form.inline { display: inline; }
form.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; margin-bottom: 1rem; }
label.inline { display: inline-block; font-weight: 400; margin-right: .75rem; }
fieldset { border: 1px solid var(--line); margin: .5rem 0; }
label { display: block; font-weight: 600; margin-bottom: .15rem; }
input, select, button { font: inherit; padding: .35rem .5rem; border: 1px solid #8c959f; border-radius: 4px; background: #fff; color: var(--fg); }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
.login { max-width: 22rem; margin: 4rem auto; padding: 1.5rem; border: 1px solid var(--line); border-radius: 8px; }
.login .field { margin-bottom: .75rem; }
.login input { width: 100%; }
.error { color: var(--bad); font-weight: 600; }
.ok { color: var(--good); font-weight: 600; }
.muted { color: var(--muted); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(10rem, 1fr)); gap: .75rem; margin-bottom: 1rem; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .6rem .8rem; }
.card .value { font-size: 1.4rem; font-weight: 700; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
form.stack > div { margin-bottom: .6rem; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: .75rem 0; }
pre.body { margin: 0; max-width: 40rem; max-height: 12rem; overflow: auto; white-space: pre-wrap; word-break: break-all; font-size: 12px; }
.pager { display: flex; gap: 1rem; margin: .5rem 0; }
table:has(#events-body tr) + #events-none { display: none; }
#live { margin: .5rem 0; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;
