// `npm test`: installs what is missing, then runs every test layer in order and prints each layer's counts.
//   node scripts/test.mjs                  all layers
//   node scripts/test.mjs unit client      only these layers
// Layers: types (tsc), lint (ESLint: typescript-eslint and the architecture's doors), unit, server, client, webview (the built webview apps in Chromium with a fake host),
// extension (mocha inside the real VS Code extension host), e2e
// (Playwright + Chromium clicking the real workbench with the packaged .vsix).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const npx = (args) => ['npx', ['--no-install', ...args]];
const layers = [
  { name: 'types', cmd: npx(['tsc', '--noEmit', '-p', '.']), then: [npx(['tsc', '--noEmit', '-p', 'webview-ui']), npx(['tsc', '--noEmit', '-p', 'test/webview'])], counts: false },
  { name: 'lint', cmd: ['node', ['scripts/lint.mjs']], counts: 'lint' },
  { name: 'unit', cmd: npx(['mocha', '--config', 'test/unit/.mocharc.json']) },
  { name: 'server', cmd: npx(['mocha', '--config', 'test/server/.mocharc.json']) },
  { name: 'client', cmd: npx(['mocha', '--config', 'test/client/.mocharc.json']) },
  { name: 'webview', before: ['node', ['esbuild.mjs', '--production', '--only=webviews']], cmd: npx(['mocha', '--config', 'test/webview/.mocharc.json']) },
  { name: 'extension', before: ['node', ['esbuild.mjs']], cmd: ['node', ['test/extension/run.mjs']] },
  { name: 'e2e', before: ['npm', ['run', '--silent', 'package']], cmd: npx(['mocha', '--config', 'test/e2e/.mocharc.json']) },
];

const help = process.argv.includes('--help') || process.argv.includes('-h');
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !layers.some((l) => l.name === w));
if (unknown.length) {
  console.error(`Unknown layer(s): ${unknown.join(', ')}. Layers: ${layers.map((l) => l.name).join(', ')}`);
  process.exit(2);
}
if (help) {
  console.log(`npm test [-- LAYER ...]: installs what is missing, then runs the layers in order${wanted.length ? ` (here: ${wanted.join(', ')})` : ''}.
Layers: ${layers.map((l) => l.name).join(', ')} (all when none is named).`);
  process.exit(0);
}
const selected = wanted.length ? layers.filter((l) => wanted.includes(l.name)) : layers;

function ensureInstalled() {
  const lock = path.join(root, 'package-lock.json');
  const stamp = path.join(root, 'node_modules/.package-lock.json');
  if (!fs.existsSync(stamp) || fs.statSync(stamp).mtimeMs < fs.statSync(lock).mtimeMs) {
    console.log('[test] installing npm dependencies (npm ci)');
    run(['npm', ['ci', '--no-audit', '--no-fund']]);
  }
  if (selected.some((l) => ['webview', 'extension', 'e2e'].includes(l.name))) {
    run(['bash', ['scripts/setup-tools.sh']]);
  }
}

function run([cmd, args]) {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`[test] \`${cmd} ${args.join(' ')}\` failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

/** Colour codes in a layer's output (ESC [ … m), left out before the counts are read. */
const ANSI_COLOURS = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/** Runs a command, echoing its output, and reads mocha's or our runner's closing counts from it. */
function runLayer([cmd, args]) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    const echo = (stream) => (chunk) => {
      text += chunk;
      stream.write(chunk);
    };
    child.stdout.on('data', echo(process.stdout));
    child.stderr.on('data', echo(process.stderr));
    child.on('close', (code) => {
      const plain = text.replace(ANSI_COLOURS, '');
      const num = (re) => Number(re.exec(plain)?.[1] ?? 0);
      const passed = num(/(\d+) passing/) || num(/^(\d+) passed, \d+ failed/m);
      const failed = num(/(\d+) failing/) || num(/^\d+ passed, (\d+) failed/m);
      const pending = num(/(\d+) pending/);
      const lint = /^lint: (.*)$/m.exec(plain)?.[1];
      resolve({ code: code ?? 1, passed, failed, pending, lint });
    });
  });
}

ensureInstalled();
const results = [];
for (const layer of selected) {
  console.log(`\n[test] ── ${layer.name} ──`);
  const t0 = Date.now();
  if (layer.before) run(layer.before);
  let r = await runLayer(layer.cmd);
  for (const next of layer.then ?? []) if (r.code === 0) r = await runLayer(next);
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  results.push({ ...layer, ...r, seconds });
}

console.log('\n[test] summary');
let passed = 0;
let failed = 0;
let broken = false;
for (const r of results) {
  const counts =
    r.counts === false ? (r.code === 0 ? 'clean' : 'errors') : r.counts === 'lint' ? (r.lint ?? 'did not finish') : `${r.passed} passed, ${r.failed} failed${r.pending ? `, ${r.pending} pending` : ''}`;
  console.log(`  ${r.name.padEnd(10)} ${counts.padEnd(34)} ${r.seconds.padStart(6)} s${r.code === 0 ? '' : `  (exit ${r.code})`}`);
  if (r.counts === 'lint' && !r.lint) broken = true;
  if (r.counts !== false && r.counts !== 'lint') {
    passed += r.passed;
    failed += r.failed;
    // A layer that ran nothing is a failure: its tests were not found or did not load.
    if (r.passed === 0 && r.failed === 0 && r.pending === 0) broken = true;
  }
  if (r.code !== 0) broken = true;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(broken || failed > 0 ? 1 : 0);
