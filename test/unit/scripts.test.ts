// Every `npm run` script of package.json works: each is run in its help or check mode where it has one, and
// every file, config and script it names exists. A new script must be added to the table below.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const scripts: Record<string, string> = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;

/** How each script is tried: the arguments given after `--` and what its output must say. */
const HELP_RUNS: Record<string, { args: string[]; says: RegExp }> = {
  build: { args: ['--help'], says: /One build for every bundle/ },
  'build:prod': { args: ['--help'], says: /One build for every bundle/ },
  watch: { args: ['--help'], says: /One build for every bundle/ },
  start: { args: ['--help'], says: /--server-port N/ },
  'setup:tools': { args: ['--help'], says: /--check/ },
  server: { args: ['--help'], says: /Usage: npm run server/ },
  cli: { args: ['--help'], says: /Usage: langsmith-workbench <command>/ },
  test: { args: ['--help'], says: /Layers: types, lint, unit, server, client, webview, extension, e2e/ },
  lint: { args: ['--help'], says: /ESLint over the whole project/ },
  'test:extension': { args: ['--help'], says: /here: extension/ },
  'test:e2e': { args: ['--help'], says: /here: e2e/ },
  bench: { args: ['--help'], says: /BENCH_ROUNDS/ },
  'bench:extension': { args: ['--help'], says: /activation/ },
  'bench:diff': { args: ['--help'], says: /10,000 modified examples/ },
  'bench:trace': { args: ['--help'], says: /a trace of 5,000 runs/ },
  'bench:review': { args: ['--help'], says: /annotation review in the real workbench/ },
  'bench:experiment': { args: ['--help'], says: /500 examples on the local model at concurrency 8/ },
  'bench:compare': { args: ['--help'], says: /1,000 examples × 3 experiments/ },
  'bench:refs': { args: ['--help'], says: /prompt references .* in a 5,000-line source file/ },
  'bench:plan': { args: ['--help'], says: /prompts plan` over 200 prompt files/ },
  'bench:agent': { args: ['--help'], says: /agent tool get_trace with a trace of 5,000 runs/ },
  'bench:runs': { args: ['--help'], says: /runs and monitoring on `demo-production`/ },
};
/** Scripts with no help mode: only what they name is checked. */
const CHECKED_BY_FILES = new Set(['typecheck', 'package', 'test:unit', 'test:server', 'test:client']);

/** The npm_* variables of the `npm test` that runs this would describe that npm, not the one started here. */
function shellEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE'));
}

describe('npm run scripts', () => {
  it('are all covered by this test', () => {
    const covered = new Set([...Object.keys(HELP_RUNS), ...CHECKED_BY_FILES]);
    assert.deepEqual(Object.keys(scripts).filter((s) => !covered.has(s)), [], 'add the new script to HELP_RUNS or CHECKED_BY_FILES');
    assert.deepEqual([...covered].filter((s) => !(s in scripts)), [], 'the table names scripts package.json no longer has');
  });

  it('name only files, configs and scripts that exist', () => {
    for (const [name, command] of Object.entries(scripts)) {
      for (const part of command.split('&&').map((p) => p.trim().split(/\s+/))) {
        const [tool, ...rest] = part;
        const files: string[] = [];
        if (tool === 'node' || tool === 'bash') files.push(...rest.filter((a) => !a.startsWith('-')).slice(0, 1));
        for (let i = 0; i < rest.length - 1; i++) if (rest[i] === '--config' || rest[i] === '-p') files.push(rest[i + 1]!);
        if (tool === 'npm' && rest[0] === 'run') assert.ok(rest[1]! in scripts, `${name}: npm run ${rest[1]} is not a script`);
        // dist/ is built by an earlier step of the same script (its help run above shows that works).
        for (const f of files.filter((x) => !x.startsWith('dist/'))) assert.ok(fs.existsSync(path.join(root, f)), `${name}: ${f} does not exist`);
        if (rest.includes('--config')) {
          const config = JSON.parse(fs.readFileSync(path.join(root, rest[rest.indexOf('--config') + 1]!), 'utf8'));
          // Each spec glob is a folder and a `**/*.test.ts` pattern: the folder must hold such a file.
          const specs = ([] as string[]).concat(config.spec).flatMap((glob) => {
            const dir = path.join(root, glob.slice(0, glob.indexOf('*')));
            return fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.test.ts')) : [];
          });
          assert.ok(specs.length > 0, `${name}: its mocha config finds no test file`);
        }
      }
    }
    // package: the production build and vsce, with the readme it names.
    assert.match(scripts.package!, /--readme-path docs\/MARKETPLACE\.md/);
    assert.ok(fs.existsSync(path.join(root, 'docs/MARKETPLACE.md')));
    assert.ok(fs.existsSync(path.join(root, 'node_modules/.bin/vsce')), 'vsce is not installed');
    assert.ok(fs.existsSync(path.join(root, 'webview-ui/tsconfig.json')));
  });

  for (const [name, run] of Object.entries(HELP_RUNS)) {
    it(`${name}: npm run ${name} -- ${run.args.join(' ')}`, function () {
      this.timeout(60_000);
      const r = spawnSync('npm', ['run', '--silent', name, '--', ...run.args], { cwd: root, encoding: 'utf8', env: shellEnv() });
      assert.equal(r.status, 0, `exit ${r.status}:\n${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, run.says);
    });
  }
});
