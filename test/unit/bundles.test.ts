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
    execFileSync(process.execPath, ['esbuild.mjs', '--production', '--only=extension,undici,client,clientErrors,csv,promptFile,experiments,promptReferences,agent,panels,workbench,webviews', `--out=${out}`], { cwd: root, stdio: 'pipe' });
  });
  after(() => fs.rmSync(out, { recursive: true, force: true }));

  it('dist/extension.js, the first part of activation, is at most 40 KB', () => {
    assert.ok(size('extension.js') <= 40 * KB, `extension.js is ${size('extension.js')} bytes`);
  });

  it('dist/workbench.js, the second part of activation, is at most 300 KB', () => {
    assert.ok(size('workbench.js') <= 300 * KB, `workbench.js is ${size('workbench.js')} bytes`);
  });

  it('each webview bundle is at most 350 KB', () => {
    const apps = fs.readdirSync(path.join(out, 'webviews')).filter((f) => f.endsWith('.js'));
    assert.ok(apps.length > 0);
    for (const f of apps) assert.ok(size(`webviews/${f}`) <= 350 * KB, `${f} is ${size(`webviews/${f}`)} bytes`);
  });

  it('activation requires only vscode, Node built-ins and the client errors; the rest loads on first use', () => {
    const LAZY = ['./client.js', './undici.js', './csv.js', './promptFile.js', './experiments.js', './promptReferences.js', './agent.js', './panels.js'];
    const requires = (code: string) => new Set([...code.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]!));
    const atLoad = (r: string) => r === 'vscode' || r.startsWith('node:') || builtinModules.includes(r) || r === './clientErrors.js';
    // The first part loads the second by import(), a turn after activate's synchronous part.
    const first = fs.readFileSync(path.join(out, 'extension.js'), 'utf8');
    for (const r of requires(first)) assert.ok(atLoad(r), `extension.js requires ${r} when it loads`);
    assert.ok(first.includes('import("./workbench.js")'), 'extension.js never loads ./workbench.js');
    // The second part loads the bundles of single features by import() only, never by a require at load time.
    const second = fs.readFileSync(path.join(out, 'workbench.js'), 'utf8');
    for (const r of requires(second)) assert.ok(atLoad(r), `workbench.js requires ${r} when it loads`);
    for (const lazy of LAZY) assert.ok(second.includes(`import("${lazy}")`), `workbench.js never loads ${lazy}`);
  });
});
