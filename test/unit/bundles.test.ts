// The extension ships small and loads little at activation: the production bundles against their goals, and
// what activation loads (extension.js and what it requires at its top level) stays apart from what is loaded
// on first use. Sizes are bytes of minified output, so this is exact, not a timing.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const KB = 1000;

describe('production bundles', function () {
  this.timeout(60_000);
  let out: string;
  const size = (f: string) => fs.statSync(path.join(out, f)).size;

  before(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-bundles-'));
    execFileSync(process.execPath, ['esbuild.mjs', '--production', '--only=extension,undici,client,clientErrors,csv,promptFile,experiments,promptReferences,agent,panels,webviews', `--out=${out}`], { cwd: root, stdio: 'pipe' });
  });
  after(() => fs.rmSync(out, { recursive: true, force: true }));

  it('dist/extension.js is at most 300 KB', () => {
    assert.ok(size('extension.js') <= 300 * KB, `extension.js is ${size('extension.js')} bytes`);
  });

  it('each webview bundle is at most 350 KB', () => {
    const apps = fs.readdirSync(path.join(out, 'webviews')).filter((f) => f.endsWith('.js'));
    assert.ok(apps.length > 0);
    for (const f of apps) assert.ok(size(`webviews/${f}`) <= 350 * KB, `${f} is ${size(`webviews/${f}`)} bytes`);
  });

  it('activation requires only vscode, Node built-ins and the client errors; the rest loads on first use', () => {
    const code = fs.readFileSync(path.join(out, 'extension.js'), 'utf8');
    const required = new Set([...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!));
    for (const r of required) assert.ok(r === 'vscode' || r.startsWith('node:') || builtinModules.includes(r) || ['./clientErrors.js', './client.js', './undici.js', './csv.js', './promptFile.js', './experiments.js', './promptReferences.js', './agent.js', './panels.js'].includes(r), `extension.js requires ${r}`);
    // The lazily loaded bundles are loaded by import() only, never by a require at load time.
    for (const lazy of ['./client.js', './undici.js', './csv.js', './promptFile.js', './experiments.js', './promptReferences.js', './agent.js', './panels.js']) {
      assert.ok(code.includes(`import("${lazy}")`), `extension.js never loads ${lazy}`);
      assert.ok(!required.has(lazy), `extension.js requires ${lazy} when it loads`);
    }
  });
});
