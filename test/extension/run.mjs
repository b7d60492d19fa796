// Runs test/extension/suite inside the real VS Code extension host through @vscode/test-electron's runTests.
// Here the "executable" is test/harness/code-shim.mjs (code-server + Chromium); on a desktop, point
// LSW_VSCODE_EXECUTABLE at a VS Code binary (or unset it to let test-electron download one) and the same
// suite runs unchanged.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const reportFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-ext-')), 'report.json');
const executable = process.env.LSW_VSCODE_EXECUTABLE || path.join(root, 'test/harness/code-shim.mjs');

// The suite talks to a real local LangSmith server with demo data (built by esbuild.mjs as dist/server.js).
// Everything the server prints goes to a log file too, which the suite's last test looks through for the key.
const serverLog = path.join(path.dirname(reportFile), 'server.log');
const serverLogStream = fs.createWriteStream(serverLog);
const server = spawn(process.execPath, [path.join(root, 'dist/server.js'), '--port', '0', '--db', ':memory:', '--seed', 'demo', '--seed-production'], {
  stdio: ['ignore', 'pipe', 'pipe'],
});
server.stderr.on('data', (chunk) => {
  serverLogStream.write(chunk);
  process.stderr.write(chunk);
});
const serverUrl = await new Promise((resolve, reject) => {
  readline.createInterface({ input: server.stdout }).on('line', (line) => {
    serverLogStream.write(`${line}\n`);
    const m = /listening on (http:\/\/\S+)/.exec(line);
    if (m) resolve(m[1].replace(/\/$/, ''));
  });
  server.once('exit', (code) => reject(new Error(`the local server exited (${code}) before it was ready`)));
});

let failed = false;
try {
  await runTests({
    vscodeExecutablePath: executable,
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(root, 'out/test/extension/index'),
    extensionTestsEnv: {
      LSW_TEST_REPORT: reportFile,
      LANGSMITH_ENDPOINT: serverUrl,
      LANGSMITH_API_KEY: 'local-dev-key',
      LANGSMITH_WORKSPACE_ID: '',
      LSW_SERVER_LOG: serverLog,
      ...(process.env.LSW_TEST_GREP ? { LSW_TEST_GREP: process.env.LSW_TEST_GREP } : {}),
    },
  });
} catch (err) {
  failed = true;
  console.error(`Extension tests failed: ${err instanceof Error ? err.message : err}`);
} finally {
  server.kill('SIGTERM');
}
if (fs.existsSync(reportFile)) {
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  console.log(`extension host: VS Code ${report.vscodeVersion}, Node ${report.node}`);
  console.log(`${report.passed} passed, ${report.failed} failed`);
  if (report.passed === 0) failed = true;
} else {
  console.error('The extension test suite wrote no report: it did not run.');
  failed = true;
}
process.exit(failed ? 1 : 0);
