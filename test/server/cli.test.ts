// The CLI as users run it: the esbuild bundle (what `npm run server` runs), as a child process.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { bundleServerCli } from '../harness/serverCli';

const ROOT = path.resolve(__dirname, '..', '..');

interface Cli {
  proc: ChildProcess;
  out: () => string;
  err: () => string;
  exit: Promise<number | null>;
}

describe('CLI (server/main.ts bundled)', function () {
  this.timeout(60_000);
  let dir: string;
  let bundle: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-cli-'));
    bundle = await bundleServerCli(dir);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  function run(args: string[], env: Record<string, string> = {}): Cli {
    const proc = spawn(process.execPath, [bundle, ...args], {
      env: { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (err += d));
    const exit = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    return { proc, out: () => out, err: () => err, exit };
  }

  async function started(cli: Cli): Promise<string> {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      // The banner's last line, so the lines before it (URL, key) have all arrived.
      const m = /listening on (http:\/\/\S+)/.exec(cli.out());
      if (m && /\n {2}use: .*\n/.test(cli.out())) return m[1];
      if (cli.proc.exitCode !== null) throw new Error(`exited: ${cli.err()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`did not start: ${cli.out()} ${cli.err()}`);
  }

  const get = async (url: string, key = 'local-dev-key') => (await fetch(url, { headers: { 'x-api-key': key } })).json() as Promise<any>;

  it('--help explains the options', async () => {
    const cli = run(['--help']);
    assert.equal(await cli.exit, 0);
    for (const opt of ['--port', '--db', '--seed demo', '--reset', '--tenant HANDLE[/USER]=KEY', '--faults', '--no-multipart-examples', '--host', '--allow-remote']) assert.ok(cli.out().includes(opt), opt);
  });

  it('--host that is not loopback: refused (exit 2) without --allow-remote; with it, a warning on stderr', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.2']) {
      const cli = run(['--host', host, '--port', '0', '--db', ':memory:']);
      assert.equal(await cli.exit, 2, host);
      assert.match(cli.err(), /error: refusing to listen on .*: it is not a loopback address .*--allow-remote/);
      assert.equal(cli.out(), '', 'nothing started');
    }
    const remote = run(['--host', '0.0.0.0', '--allow-remote', '--port', '0', '--db', ':memory:']);
    const url = await started(remote);
    assert.equal(url.startsWith('http://127.0.0.1:'), true, url);
    assert.match(remote.err(), /WARNING: listening on 0\.0\.0\.0:\d+, which is reachable from the network/);
    assert.match(remote.err(), /no TLS/);
    assert.match(remote.err(), /demo keys \(local-dev-key, local-reviewer-key, local-other-key\)/);
    remote.proc.kill('SIGTERM');
    assert.equal(await remote.exit, 0);
    // Loopback spellings need no flag and print no warning.
    const local = run(['--host', 'localhost', '--port', '0', '--db', ':memory:']);
    await started(local);
    assert.doesNotMatch(local.err(), /WARNING/);
    local.proc.kill('SIGTERM');
    assert.equal(await local.exit, 0);
  });

  it('bad arguments exit 2 with a message', async () => {
    const cli = run(['--port', 'abc']);
    assert.equal(await cli.exit, 2);
    assert.match(cli.err(), /--port/);
    const bad = run(['--faults', 'boom:1']);
    assert.equal(await bad.exit, 2);
    assert.match(bad.err(), /unknown kind/);
  });

  it('prints the URL and key; seeds demo data once; keeps data across a clean SIGTERM/SIGINT restart; --reset empties', async () => {
    const db = path.join(dir, 'data.db');
    const first = run(['--port', '0', '--db', db, '--seed', 'demo']);
    const url = await started(first);
    assert.match(first.out(), /local-dev-key/);
    const datasets = await get(`${url}/datasets`);
    assert.ok(datasets.length >= 2, 'demo datasets');
    const runs = await (await fetch(`${url}/runs/query`, { method: 'POST', headers: { 'x-api-key': 'local-dev-key', 'content-type': 'application/json' }, body: '{"limit": 100}' })).json() as any;
    assert.equal(runs.runs.length, 100);
    const repos = await get(`${url}/repos?limit=100`);
    await fetch(`${url}/datasets`, { method: 'POST', headers: { 'x-api-key': 'local-dev-key', 'content-type': 'application/json' }, body: '{"name": "kept-after-restart"}' });
    first.proc.kill('SIGTERM');
    assert.equal(await first.exit, 0);

    const second = run(['--port', '0', '--db', db, '--seed', 'demo']);
    const url2 = await started(second);
    assert.equal((await get(`${url2}/datasets?name=kept-after-restart`)).length, 1, 'nothing lost');
    assert.equal((await get(`${url2}/repos?limit=100`)).total, repos.total, 'the seed does not run twice');
    second.proc.kill('SIGINT');
    assert.equal(await second.exit, 0);

    const third = run(['--port', '0', '--db', db, '--reset']);
    const url3 = await started(third);
    assert.deepEqual(await get(`${url3}/datasets`), []);
    third.proc.kill('SIGTERM');
    assert.equal(await third.exit, 0);
  });

  it('a port in use gives a clear error', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const cli = run(['--port', String(port), '--db', ':memory:']);
      assert.equal(await cli.exit, 1);
      assert.match(cli.err(), new RegExp(`port ${port} .*already in use`));
    } finally {
      blocker.close();
    }
  });

  it('--tenant replaces the default tenants; the default DB lives under $XDG_DATA_HOME', async () => {
    const xdg = path.join(dir, 'xdg');
    const cli = run(
      ['--port', '0', '--tenant', 'acme=acme-key', '--tenant', 'beta=beta-key', '--tenant', 'acme/bob=acme-bob-key', '--no-multipart-examples'],
      { XDG_DATA_HOME: xdg },
    );
    const url = await started(cli);
    assert.ok(fs.existsSync(path.join(xdg, 'langsmith-workbench', 'local.db')));
    assert.equal((await get(`${url}/settings`, 'acme-key')).tenant_handle, 'acme');
    // A repeated handle adds a user to the same workspace.
    assert.equal((await get(`${url}/settings`, 'acme-bob-key')).tenant_handle, 'acme');
    assert.match(cli.out(), /acme-bob-key {2}\(workspace "acme", user "bob"\)/);
    const members = await get(`${url}/workspaces/current/members`, 'acme-key');
    assert.deepEqual(members.members.map((m: { full_name: string }) => m.full_name), ['you', 'bob']);
    assert.equal((await fetch(`${url}/settings`, { headers: { 'x-api-key': 'local-dev-key' } })).status, 401);
    assert.equal((await get(`${url}/info`)).instance_flags.dataset_examples_multipart_enabled, false);
    cli.proc.kill('SIGTERM');
    assert.equal(await cli.exit, 0);
  });
});
