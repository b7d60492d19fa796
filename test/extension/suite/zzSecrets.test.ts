// Runs last (index.ts loads the suites in name order): after every other suite has signed in, browsed, saved,
// pushed, failed and recovered, the API key the run signs in with (LANGSMITH_API_KEY from test/extension/run.mjs)
// is nowhere it could leak to — as text, base64 or hex:
//   - the extension's log (the "LangSmith" output channel's file under context.logUri) and every other log of
//     this VS Code (the whole logs folder);
//   - every file of this VS Code's data: settings.json, global and workspace storage, and the whole folder the
//     harness runs code-server in (its own log, config, XDG folders, the test workspace);
//   - the extension's global and workspace state (every key and value);
//   - every notification shown during the run (recorded by support.ts from the first suite on);
//   - the local server's output (captured by run.mjs).
// Two places hold the key by design and are left out, each exactly:
//   - SecretStorage. In this setup (code-server) it is kept in the browser's localStorage entry
//     "secrets.provider", sealed with AES-GCM under a key half of which the server holds ("/mint-key"); the
//     extension host cannot read it, and the UI suite’s check (the last test of test/e2e/webviews.test.ts) looks there instead.
//   - The two lines of the local server's start-up banner that announce its own built-in development key
//     ("API key: …", "use: … LANGSMITH_API_KEY=…"): the server prints the key it was configured with, once, before
//     any request; every later line is searched.
// Webview state lives in the browser too: the UI suite searches it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorkbenchApi } from '../../../src/extension';
import { recordFigures } from '../../harness/report';
import { activateWorkbench, apiKey, shownMessages } from './support';

const EXTENSION_ID = 'langsmith-workbench.langsmith-workbench';
const REPORT = path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, '.test-output', 'reliability.json');

/** The forms the key could be written in. */
function needles(key: string): { form: string; bytes: Buffer }[] {
  const raw = Buffer.from(key, 'utf8');
  return [
    { form: 'text', bytes: raw },
    { form: 'base64', bytes: Buffer.from(raw.toString('base64').replace(/=+$/, '')) },
    { form: 'base64url', bytes: Buffer.from(raw.toString('base64url')) },
    { form: 'hex', bytes: Buffer.from(raw.toString('hex')) },
    { form: 'UTF-16', bytes: Buffer.from(key, 'utf16le') },
  ];
}

/** Every file under a folder (symbolic links not followed). */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) stack.push(p);
      else if (e.isFile()) out.push(p);
    }
  }
  return out;
}

describe('the API key is written nowhere (runs last)', function () {
  this.timeout(120_000);
  let workbench: WorkbenchApi;
  const found: string[] = [];
  const figures = { secretOccurrences: 0, filesSearched: 0, bytesSearched: 0, logFiles: 0, stateEntries: 0, notifications: 0, serverLogLines: 0, forms: 0 };

  before(async () => {
    workbench = await activateWorkbench();
    assert.ok(apiKey.length >= 8, 'the run signs in with a key from the environment');
  });

  after(() => {
    figures.secretOccurrences = found.length;
    recordFigures('extensionSecrets', figures, REPORT);
  });

  const forms = () => needles(apiKey);
  /** Records every form of the key found in `data`, as `where`. */
  function search(where: string, data: Buffer | string) {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    figures.bytesSearched += bytes.length;
    for (const { form, bytes: needle } of forms()) if (bytes.includes(needle)) found.push(`${where} (${form})`);
  }
  function searchFiles(files: string[]) {
    for (const file of files) {
      let data: Buffer;
      try {
        data = fs.readFileSync(file);
      } catch {
        continue; // gone meanwhile (a rotated log, a lock file)
      }
      figures.filesSearched++;
      search(file, data);
    }
  }

  it('is found by the search in each of its forms (the search itself works)', () => {
    figures.forms = forms().length;
    for (const { form, bytes } of forms()) {
      const canary = Buffer.concat([Buffer.from('{"before": "'), bytes, Buffer.from('", "after": 1}')]);
      assert.ok(canary.includes(bytes), `the ${form} form is found`);
      search('canary', canary);
      assert.ok(found.length > 0, `the ${form} form is reported`);
      found.length = 0;
    }
  });

  it('is in no log: not the extension’s output channel, not any other log of this VS Code', async () => {
    const logDir = workbench.storage.logUri.fsPath;
    const own = filesUnder(logDir);
    const channel = own.find((f) => /LangSmith\.log$/.test(f));
    assert.ok(channel, `the output channel writes a file under ${logDir}: ${own.join(', ')}`);
    assert.ok(fs.statSync(channel).size > 0, 'the output channel has logged during the run');
    assert.match(fs.readFileSync(channel, 'utf8'), /with the key from the environment/, 'the log says where the key came from (and only that)');
    // Up to the logs folder of this VS Code: every window's, the extension host's and the server's logs.
    let logsRoot = logDir;
    while (path.basename(logsRoot) !== 'logs' && path.dirname(logsRoot) !== logsRoot) logsRoot = path.dirname(logsRoot);
    assert.equal(path.basename(logsRoot), 'logs', `a logs folder above ${logDir}`);
    const logs = filesUnder(logsRoot);
    figures.logFiles = logs.length;
    searchFiles(logs);
    assert.deepEqual(found, [], 'the key is in a log');
  });

  it('is in no file of this VS Code’s data: settings, storage, the harness’s whole folder', async () => {
    // globalStorageUri is <user data>/User/globalStorage/<extension id>.
    const userData = path.dirname(path.dirname(path.dirname(workbench.storage.globalStorageUri.fsPath)));
    const settings = path.join(userData, 'User', 'settings.json');
    assert.ok(fs.existsSync(settings), `settings.json is at ${settings}`);
    // code-server runs in a folder of its own (its log, config, XDG folders, the test workspace) around the user data.
    const runDir = fs.existsSync(path.join(path.dirname(userData), 'code-server.log')) ? path.dirname(userData) : userData;
    const files = filesUnder(runDir);
    assert.ok(files.includes(settings));
    searchFiles(files);
    assert.deepEqual(found, [], 'the key is in a file');
  });

  it('is in no global or workspace state of the extension', async () => {
    for (const [name, memento] of [
      ['global state', workbench.storage.globalState],
      ['workspace state', workbench.storage.workspaceState],
    ] as const) {
      for (const key of memento.keys()) {
        figures.stateEntries++;
        search(`${name} key ${key}`, key);
        search(`${name} ${key}`, JSON.stringify(memento.get(key)) ?? '');
      }
    }
    assert.deepEqual(found, [], 'the key is in the extension’s state');
  });

  it('was in no notification shown during the run', async () => {
    const shown = shownMessages();
    assert.ok(shown.length > 0, 'the suites before this one showed notifications (the recorder works)');
    figures.notifications = shown.length;
    for (const [i, m] of shown.entries()) search(`notification ${i} (${m.kind}): ${m.message.slice(0, 80)}`, [m.message, ...m.items].join('\n'));
    assert.deepEqual(found, [], 'the key was shown');
  });

  it('is in none of the local server’s output but the two banner lines that announce its development key', async () => {
    const file = process.env['LSW_SERVER_LOG'];
    assert.ok(file && fs.existsSync(file), 'run.mjs captures the server’s output');
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const banner = lines.findIndex((l) => /listening on http/.test(l));
    assert.ok(banner >= 0, 'the banner is in the log');
    let announced = 0;
    for (const [i, line] of lines.entries()) {
      figures.serverLogLines++;
      const isAnnouncement = i > banner && i <= banner + 8 && (/^\s+API key:\s+\S+\s+\(workspace "/.test(line) || /^\s+use:\s+LANGSMITH_ENDPOINT=\S+ LANGSMITH_API_KEY=\S+$/.test(line));
      if (isAnnouncement) {
        announced++;
        continue;
      }
      search(`server output line ${i + 1}: ${line.slice(0, 80)}`, line);
    }
    assert.equal(announced, 2, 'exactly the two banner lines are left out');
    assert.deepEqual(found, [], 'the key is in the server’s output');
  });

  it('is held only by SecretStorage, under the endpoint it belongs to, if a sign-in stored it', async () => {
    const endpoint = (await workbench.clients.connection.current()).endpoint;
    const stored = await workbench.secrets.get(`langsmith.apiKey:${endpoint}`);
    // Either the run never stored it (signed in from the environment) or it is there, under its own endpoint.
    assert.ok(stored === undefined || stored === apiKey, 'SecretStorage holds a key for the endpoint: the one signed in with');
  });
});
