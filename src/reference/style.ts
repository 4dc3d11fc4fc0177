/**
 * The stylesheet of the documentation pages, served by the service itself (`{docs}/assets/reference.css`): system
 * fonts, no external resource, readable in print. A fixed top bar, a side navigation, and per operation the prose on
 * the left with the examples beside it on wide screens. Every text colour meets WCAG AA (4.5:1) on its background,
 * links in running text are underlined (not told apart by colour alone), and focused code blocks show a ring
 * (test/e2e/browser/accessibility.test.ts).
 */

/** The CSS text. */
export const REFERENCE_CSS = `
:root {
  --ink: #17212b; --muted: #5b6875; --line: #e3e8ee; --soft: #f5f7fa; --paper: #ffffff;
  --brand: #0b6e4f; --brand-ink: #0a5a41; --brand-soft: #e6f4ee;
  --top: #0f2233; --code-bg: #0f1b26; --code-ink: #dbe5ee;
  --get: #1d6fd6; --get-soft: #e5f0fd; --post: #087f4e; --put: #96600f; --delete: #c53030;
  --ok: #0f7443; --ok-soft: #e3f5eb; --warn: #a35a00; --warn-soft: #fdf0dc; --err: #b42318; --err-soft: #fde8e6;
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "DejaVu Sans", Arial, sans-serif;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html { scroll-padding-top: 72px; }
body { margin: 0; font: 15px/1.6 var(--sans); color: var(--ink); background: var(--paper); -webkit-font-smoothing: antialiased; }
a { color: var(--brand); text-decoration: none; }
a:hover { text-decoration: underline; }
p a { text-decoration: underline; text-decoration-thickness: 1px; text-underline-offset: 2px; }
code, pre { font-family: var(--mono); font-size: 0.86em; }
:not(pre) > code { background: var(--soft); border: 1px solid var(--line); border-radius: 4px; padding: 0.05em 0.35em; white-space: nowrap; }
p { margin: 0.5em 0 0.9em; }
h1, h2, h3, h4 { line-height: 1.25; margin: 0; }

/* Top bar */
.topbar { position: fixed; inset: 0 0 auto 0; height: 56px; z-index: 10; display: flex; align-items: center; gap: 14px;
  padding: 0 24px; background: var(--top); color: #fff; box-shadow: 0 1px 0 rgba(255,255,255,0.06); }
.brand { display: flex; align-items: center; gap: 10px; color: #fff; font-weight: 700; font-size: 17px; letter-spacing: 0.01em; }
.brand:hover { text-decoration: none; }
.brand-mark { width: 22px; height: 22px; border-radius: 6px; background: linear-gradient(135deg, #34c38f 0%, #1d9bf0 55%, #f59e0b 100%); }
.brand-sub { font-weight: 400; color: #9fb3c4; font-size: 14px; margin-left: 4px; }
.version { font: 12px var(--mono); color: #cfe3d8; background: rgba(52,195,143,0.16); border: 1px solid rgba(52,195,143,0.35);
  padding: 1px 8px; border-radius: 999px; }
.tabs { margin-left: auto; display: flex; gap: 4px; }
.tabs a { color: #c7d4df; padding: 6px 12px; border-radius: 6px; font-size: 14px; white-space: nowrap; }
.tabs a:hover { background: rgba(255,255,255,0.08); color: #fff; text-decoration: none; }
.tabs a[aria-current="page"] { color: #fff; background: rgba(255,255,255,0.12); }

/* Layout */
.layout { display: grid; grid-template-columns: 272px minmax(0, 1fr); padding-top: 56px; }
.sidebar { position: sticky; top: 56px; height: calc(100vh - 56px); overflow-y: auto; border-right: 1px solid var(--line);
  background: #fbfcfd; padding: 18px 10px 40px 14px; }
.sidebar ul { list-style: none; margin: 0; padding: 0; }
.sidebar li a { display: flex; align-items: center; gap: 8px; padding: 4px 10px; border-radius: 6px; color: var(--ink); font-size: 14px; }
.sidebar li a:hover { background: var(--brand-soft); text-decoration: none; }
.sidebar .mono { font-family: var(--mono); font-size: 12.5px; min-width: 0; overflow-wrap: anywhere; }
.nav-heading { margin: 18px 10px 6px; font-size: 11.5px; font-weight: 700; letter-spacing: 0.08em; text-transform: uppercase; color: var(--muted); }
.nav-heading:first-child { margin-top: 4px; }
.content { min-width: 0; padding: 8px 40px 80px; max-width: 1380px; }

/* Introduction */
.intro { padding: 36px 0 12px; border-bottom: 1px solid var(--line); }
.eyebrow { margin: 0 0 6px; color: var(--brand); font-weight: 600; font-size: 13px; letter-spacing: 0.04em; text-transform: uppercase; }
.intro h1 { font-size: 32px; letter-spacing: -0.01em; margin-bottom: 10px; }
.lead { font-size: 17px; color: #33414e; max-width: 62em; }
.facts { display: grid; grid-template-columns: repeat(auto-fit, minmax(230px, 1fr)); gap: 12px; margin: 22px 0 18px; }
.fact { border: 1px solid var(--line); border-radius: 10px; padding: 12px 14px; background: var(--soft); font-size: 14px; }
.fact code { background: none; border: 0; padding: 0; white-space: normal; word-break: break-all; }
.fact-label { font-size: 11.5px; font-weight: 700; letter-spacing: 0.07em; text-transform: uppercase; color: var(--muted); margin-bottom: 4px; }
.topic { padding: 28px 0 6px; border-bottom: 1px solid var(--line); max-width: 62em; }
.topic h2 { font-size: 21px; margin-bottom: 6px; }
pre.shell { background: var(--code-bg); color: var(--code-ink); border-radius: 10px; padding: 14px 16px; overflow-x: auto; line-height: 1.55; }
pre[tabindex]:focus-visible { outline: 2px solid #8cc8ff; outline-offset: -2px; }

/* Groups and operations */
.group { padding-top: 18px; }
.group-title { font-size: 24px; margin: 34px 0 2px; padding-top: 10px; }
.group-desc { color: var(--muted); margin-top: 4px; }
.op { display: grid; grid-template-columns: minmax(0, 1.05fr) minmax(0, 0.95fr); gap: 32px; padding: 30px 0 34px; border-top: 1px solid var(--line); }
.op-title { font-size: 19px; margin-bottom: 8px; }
.op-title a, h2 a.anchor { color: var(--ink); }
.op-title a:hover, h2 a.anchor:hover { color: var(--brand); text-decoration: none; }
.op-path { display: flex; align-items: center; gap: 10px; margin-bottom: 12px; }
.op-path code { font-size: 14.5px; background: none; border: 0; padding: 0; color: #22303c; font-weight: 600; min-width: 0; white-space: normal; overflow-wrap: anywhere; }
.op-id { margin: -6px 0 12px; font-size: 12.5px; color: var(--muted); }
.op-id code { font-size: 12.5px; }
.op-desc { color: #26333f; }
.op h4 { font-size: 12px; letter-spacing: 0.08em; text-transform: uppercase; color: var(--muted); margin: 22px 0 8px; }
.op-examples { min-width: 0; position: sticky; top: 72px; align-self: start; max-height: calc(100vh - 88px); overflow-y: auto; }
.access { font-size: 14px; color: #33414e; background: var(--soft); border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; }

/* Badges */
.method { display: inline-block; min-width: 46px; text-align: center; font: 700 12px/1 var(--mono); letter-spacing: 0.04em;
  padding: 5px 8px; border-radius: 5px; color: #fff; background: var(--get); }
.method.mini { min-width: 34px; font-size: 9.5px; padding: 3px 4px; }
.method-get { background: var(--get); } .method-post { background: var(--post); } .method-put, .method-patch { background: var(--put); }
.method-delete { background: var(--delete); }
.badge { display: inline-block; font-size: 11px; font-weight: 700; letter-spacing: 0.05em; text-transform: uppercase; border-radius: 4px; padding: 1px 7px; margin-right: 6px; }
.badge-key { background: #fff3d6; color: #8a5300; border: 1px solid #f3d28b; }
.badge-open { background: var(--ok-soft); color: var(--ok); border: 1px solid #b7e2c8; }
.status { display: inline-block; font: 700 12px/1 var(--mono); padding: 4px 7px; border-radius: 5px; }
.s2xx { background: var(--ok-soft); color: var(--ok); } .s3xx { background: #eef1f4; color: #4a5867; }
.s4xx { background: var(--warn-soft); color: var(--warn); } .s5xx { background: var(--err-soft); color: var(--err); }

/* Tables and fields */
table.params { width: 100%; border-collapse: collapse; font-size: 14px; margin: 4px 0 10px; }
table.params th { text-align: left; font-size: 12px; font-weight: 600; color: var(--muted); border-bottom: 1px solid var(--line); padding: 6px 8px; }
table.params td { border-bottom: 1px solid var(--line); padding: 8px; vertical-align: top; }
table.params td:first-child { white-space: nowrap; width: 1%; }
table.params.typed td:nth-child(2) { white-space: nowrap; width: 1%; }
table.headers { font-size: 13px; }
.field-name { font-family: var(--mono); font-weight: 600; color: #0f2a3d; background: none !important; border: 0 !important; padding: 0 !important; }
.field-type { font: 12.5px var(--mono); color: #6b3fa0; margin-left: 8px; }
td .field-type { margin-left: 0; }
.field-req { font-size: 11.5px; font-weight: 600; color: #c2410c; margin-left: 8px; }
.field-cons { font-size: 12.5px; color: var(--muted); margin-top: 2px; }
.field-cons code { font-size: 11.5px; white-space: normal; overflow-wrap: anywhere; }
.field-desc { font-size: 14px; color: #33414e; }
ul.fields { list-style: none; margin: 6px 0; padding: 0; border-left: 2px solid var(--line); }
ul.fields > li.field { padding: 7px 0 7px 14px; border-bottom: 1px dashed #edf0f3; }
ul.fields > li.field:last-child { border-bottom: 0; }
details.nested { margin-top: 4px; }
details.nested > summary { cursor: pointer; font-size: 12.5px; color: var(--brand-ink); user-select: none; }
.resp { margin: 10px 0 6px; }
.resp-head { display: flex; align-items: baseline; gap: 10px; }
.resp-desc { font-size: 14px; color: #33414e; }
.resp-problem { margin: 6px 0; }
.code-link code { color: var(--warn); }
.media { font-size: 12.5px; color: var(--muted); margin: 10px 0 2px; }
.schema-kind { font-size: 13.5px; color: var(--muted); }

/* Code cards */
.code-card { margin: 0 0 16px; border-radius: 10px; overflow: hidden; background: var(--code-bg); box-shadow: 0 1px 2px rgba(15,27,38,0.2); }
.code-card figcaption { display: flex; align-items: center; gap: 8px; padding: 8px 14px; font-size: 12.5px; font-weight: 600; color: #b9c7d3;
  background: #16283a; border-bottom: 1px solid rgba(255,255,255,0.06); }
.code-card .lang { margin-left: auto; font-weight: 400; color: #7f93a5; font-family: var(--mono); font-size: 11.5px; }
.code-card pre { margin: 0; padding: 14px 16px; color: var(--code-ink); overflow: auto; line-height: 1.55; max-height: 520px;
  white-space: pre-wrap; overflow-wrap: anywhere; }
.code-card pre code { font-size: 12.5px; }
.card-problem figcaption { background: #2a2418; }
.j-key { color: #8cc8ff; } .j-str { color: #a8e6a1; } .j-num { color: #ffc56d; } .j-bool, .j-null { color: #f5a3c7; }
.j-note { color: #7f93a5; font-style: italic; }

/* Errors page */
.two-col td:last-child code { white-space: normal; overflow-wrap: anywhere; }
.two-col { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 28px; align-items: start; margin: 18px 0; }
.error-entry { padding: 22px 0 18px; border-top: 1px solid var(--line); max-width: 62em; }
.error-entry:target { background: linear-gradient(90deg, var(--brand-soft), transparent 70%); margin-left: -16px; padding-left: 16px; border-radius: 6px; }
.error-entry h2 { display: flex; align-items: center; gap: 12px; font-size: 19px; margin-bottom: 4px; }
.error-entry h2 code { font-size: 17px; background: none; border: 0; padding: 0; }
.error-title { font-weight: 500; color: #33414e; }
.answered-by { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 14px; font-size: 13px; }
.answered-by .fact-label { margin: 0; }
.answered-by a { display: inline-flex; align-items: center; gap: 6px; }
.answered-by a code { background: none; border: 0; padding: 0; }
.muted { color: var(--muted); }

/* Narrow screens and print */
@media (max-width: 1180px) {
  .op, .two-col { grid-template-columns: minmax(0, 1fr); gap: 8px; }
  .op-examples { position: static; max-height: none; overflow: visible; }
}
@media (max-width: 820px) {
  .layout { grid-template-columns: minmax(0, 1fr); }
  .sidebar { position: static; height: auto; border-right: 0; border-bottom: 1px solid var(--line); }
  .content { padding: 8px 18px 60px; }
  .brand-sub { display: none; }
}
@media (max-width: 560px) {
  .topbar { padding: 0 12px; gap: 8px; }
  .version { display: none; }
  .tabs a { padding: 6px 7px; font-size: 13px; }
}
@media print {
  .topbar, .sidebar { display: none; }
  .layout { display: block; padding: 0; }
  .code-card pre { max-height: none; }
  details.nested > ul { display: block; }
}
`;
