/** The box UI's styles: phone width first, AA contrast, a visible focus ring on every control. */
export const BOX_UI_STYLE = `
*{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:100%;color:#1b1b1b;background:#f4f5f7}
body{margin:0;line-height:1.5}
.top{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;justify-content:space-between;padding:.75rem 1rem;background:#1d3557;color:#fff}
.top h1{margin:0;font-size:1.25rem}
.identity{margin:0;font-size:.95rem;overflow-wrap:anywhere}
main{max-width:60rem;margin:0 auto;padding:1rem}
h2{font-size:1.1rem;margin:0 0 .5rem}
.panel,#signin{background:#fff;border:1px solid #c5c9d0;border-radius:.5rem;padding:1rem;margin:0 0 1rem}
#app:not([hidden]){display:grid;gap:0}
@media (min-width:48rem){#app:not([hidden]){grid-template-columns:1fr 1fr;column-gap:1rem}#app .toolbar,#message{grid-column:1/-1}}
dl{display:grid;grid-template-columns:minmax(7rem,auto) 1fr;gap:.25rem .75rem;margin:0 0 .75rem}
dt{font-weight:600}
dd{margin:0;overflow-wrap:anywhere}
label{display:block;font-weight:600;margin:.5rem 0 .25rem}
input{width:100%;font:inherit;padding:.6rem;border:2px solid #595f69;border-radius:.25rem;color:#1b1b1b;background:#fff}
button{font:inherit;min-height:2.75rem;padding:.5rem 1rem;border-radius:.25rem;border:2px solid #1d3557;background:#fff;color:#1d3557;cursor:pointer}
button.primary{background:#1d5fa0;border-color:#1d5fa0;color:#fff}
button.danger{background:#a4262c;border-color:#a4262c;color:#fff}
button:disabled{opacity:.6;cursor:wait}
.lang button{min-height:2.5rem;padding:.25rem .75rem;border-color:#fff;background:transparent;color:#fff}
.lang button[aria-pressed="true"]{background:#fff;color:#1d3557;font-weight:700}
:focus-visible{outline:3px solid #c25400;outline-offset:2px}
.top :focus-visible{outline-color:#ffd166}
.actions,.toolbar{display:flex;flex-wrap:wrap;gap:.5rem;margin:.5rem 0}
.error{color:#a4262c;font-weight:600;min-height:0;margin:.25rem 0}
.error:empty{display:none}
#message{margin:0 0 1rem;padding:.5rem .75rem;border-left:4px solid #1d5fa0;background:#fff}
#message:empty{display:none}
#message.failed{border-left-color:#a4262c;color:#8a1f24}
.state-ok{color:#1e6b34;font-weight:700}
.state-bad{color:#a4262c;font-weight:700}
dialog{max-width:min(32rem,calc(100vw - 2rem));border:2px solid #1d3557;border-radius:.5rem;padding:1rem;color:#1b1b1b;background:#fff}
dialog::backdrop{background:rgba(0,0,0,.55)}
code{overflow-wrap:anywhere}
`;
