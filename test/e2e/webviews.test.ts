// The webview apps through the real host, in the workbench with the packaged .vsix, against a local server with
// demo data: edit and save an example and see it on the server, a conflicting save offers VS Code's diff, a
// reloaded window brings the draft back; compare two tagged versions of a dataset, see the right rows and open
// a row in the diff editor. Screenshots in a dark and a light theme. Last, the API key the workbench was signed
// in with is nowhere in code-server's data or the browser's storage (webview state included).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { getJson } from '../harness/http';
import type { LocalServer } from '../harness/localServer';
import { recordFigures } from '../harness/report';
import { LangSmithClient } from '../../src/client';
import { eventually, openLangSmithContainer, pickQuick, runCommand, screenshot, setTheme, setViewOpen, treeRow, webviewFrame, withWorkbench, type Workbench } from './workbench';


interface ExampleJson {
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  modified_at: string;
}

describe('webview apps in the workbench', function () {
  let wb: Workbench;
  let server: LocalServer;
  const key = 'local-dev-key';
  const api = <T>(path: string): Promise<T> => getJson<T>(server, path);
  const row = treeRow;
  let datasetId: string;
  let northwind: ExampleJson;

  const demo = withWorkbench();
  before(async () => {
    ({ wb, server } = demo());
    [{ id: datasetId }] = await api<{ id: string }[]>('/datasets?name=demo-invoices');
    northwind = (await api<ExampleJson[]>(`/examples?dataset=${datasetId}`)).find((e) => JSON.stringify(e.inputs).includes('Northwind'))!;
  });

  async function openNorthwind(page: Page): Promise<Frame> {
    await openLangSmithContainer(page);
    // The tree only renders rows in view: give the Datasets view the whole sidebar, so all of the dataset's
    // examples (in server order, which differs from run to run) are there.
    for (const view of ['Projects', 'Prompts', 'Annotation Queues']) await setViewOpen(page, view, false);
    const dataset = row(page, /^demo-invoices/);
    await dataset.waitFor({ timeout: 30_000 });
    const example = row(page, /Northwind/);
    // The row may redraw while the tree loads: expand until the example shows.
    await eventually(async () => {
      if (await example.isVisible()) return true;
      if ((await dataset.getAttribute('aria-expanded')) !== 'true') await dataset.click();
      return (await example.waitFor({ timeout: 3_000 }).then(() => true, () => null));
    }, 30_000).catch(async (err) => {
      await screenshot(page, 'failed-open-example');
      throw err;
    });
    await example.click(); // an example opens in the editor
    const frame = await webviewFrame(page);
    await frame.getByTestId('outputs').waitFor();
    await outputsAsJson(frame);
    return frame;
  }

  /** Outputs open (and come back after a save) field by field; these tests write them as one JSON text. */
  async function outputsAsJson(frame: Frame) {
    await frame.getByTestId('outputs-view').filter({ hasText: 'Edit as JSON' }).click();
  }

  it('opens an example from the tree, saves a change, and the server has it', async () => {
    const { page } = wb;
    const frame = await openNorthwind(page);
    const outputs = frame.getByTestId('outputs').locator('textarea');
    const edited = { ...northwind.outputs, total: 321.5 };
    await outputs.fill(JSON.stringify(edited, null, 2));
    await frame.getByTestId('status').filter({ hasText: 'Unsaved changes' }).waitFor();
    await screenshot(page, 'example-editor-workbench-dark');
    await frame.getByTestId('save').click();
    await frame.getByText(/^Saved at /).waitFor({ timeout: 15_000 });
    const [now] = await api<ExampleJson[]>(`/examples?id=${northwind.id}`);
    assert.deepEqual(now!.outputs, edited);
    northwind = now!;
  });

  it('does not overwrite a change made elsewhere: the save offers the diff editor', async () => {
    const { page } = wb;
    const frame = await webviewFrame(page);
    // Someone else changes the example on the server.
    const other = new LangSmithClient({ apiUrl: server.url, apiKey: key });
    await other.examples.update({ datasetId, updates: [{ id: northwind.id, outputs: { ...northwind.outputs, total: 999 } }] });
    await outputsAsJson(frame);
    await frame.getByTestId('outputs').locator('textarea').fill(JSON.stringify({ ...northwind.outputs, total: 322 }, null, 2));
    await frame.getByTestId('save').click();
    await frame.getByTestId('conflict').waitFor({ timeout: 15_000 });
    const [server1] = await api<ExampleJson[]>(`/examples?id=${northwind.id}`);
    assert.equal(server1!.outputs['total'], 999, 'the conflicting save wrote nothing');
    await frame.getByRole('button', { name: 'Show Diff' }).click();
    const diffTab = page.locator('.tabs-container .tab', { hasText: 'on the server ↔ yours' });
    await diffTab.waitFor({ timeout: 15_000 });
    // Server (999) on the left, the draft (322) on the right.
    await page.locator('.monaco-diff-editor .editor.original .view-lines', { hasText: '999' }).waitFor();
    await page.locator('.monaco-diff-editor .editor.modified .view-lines', { hasText: '322' }).waitFor();
    await screenshot(page, 'example-editor-conflict-diff');
    await diffTab.hover();
    await diffTab.locator('.tab-actions .action-label').click();
    await diffTab.waitFor({ state: 'detached' });
    await page.locator('.tabs-container .tab', { hasText: 'Northwind' }).waitFor();
    // The editor was hidden behind the diff: shown again, its page loads anew, asks for the state, and sees the
    // server's newer version while keeping the draft.
    const shownAgain = await eventually(async () => {
      const f = await webviewFrame(page).catch(() => null);
      return f && (await f.getByTestId('changed-on-server').count().catch(() => 0)) ? f : null;
    }, 30_000);
    assert.match(await shownAgain.getByTestId('outputs').locator('textarea').inputValue(), /"total": 322/);
  });

  it('brings the unsaved draft back after the window reloads', async () => {
    const { page } = wb;
    // As a person reloads: the workbench saves its state (the open panel, the webview's own state) first.
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.fill('>Developer: Reload Window');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Developer: Reload Window' }).first().waitFor();
    await Promise.all([page.waitForEvent('load', { timeout: 60_000 }), input.press('Enter')]);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const frame = await webviewFrame(page);
    await frame.getByTestId('outputs').waitFor({ timeout: 30_000 });
    assert.match(await frame.getByTestId('outputs').locator('textarea').inputValue(), /"total": 322/);
    await frame.getByTestId('changed-on-server').or(frame.getByTestId('status').filter({ hasText: 'Unsaved changes' })).first().waitFor();
  });

  it('looks right in a light theme', async () => {
    const { page } = wb;
    await setTheme(page, 'light');
    const frame = await webviewFrame(page);
    await frame.getByTestId('outputs').waitFor();
    await page.waitForTimeout(500);
    await screenshot(page, 'example-editor-workbench-light');
    await setTheme(page, 'dark');
  });

  it('compares two tagged versions of a dataset: the right rows, and a row in the diff editor', async () => {
    const { page } = wb;
    await runCommand(page, 'LangSmith: Compare Versions…');
    await pickQuick(page, 'demo-support-qa', /Compare versions of a dataset/);
    await pickQuick(page, 'v1', /\(1\/2\): from/);
    await pickQuick(page, 'prod', /\(2\/2\)/);
    const frame = await eventually(async () => {
      // The editor area switches from the example editor to the diff panel: look until it is there.
      const f = await webviewFrame(page).catch(() => null);
      return f && (await f.getByTestId('diff-list').count().catch(() => 0)) ? f : null;
    }, 30_000);
    await frame.locator('[data-testid="diff-row"]').first().waitFor({ timeout: 15_000 });
    const count = (kind: string) => frame.locator(`[data-testid="diff-row"][data-kind="${kind}"]`).count();
    // v1 → prod in the demo: three answers reviewed, one question replaced by another.
    assert.deepEqual({ added: await count('added'), removed: await count('removed'), modified: await count('modified') }, { added: 1, removed: 1, modified: 3 });
    const modified = frame.locator('[data-testid="diff-row"][data-kind="modified"]').first();
    assert.match((await modified.locator('[data-testid="after"]').first().textContent()) ?? '', /\(reviewed\)/);
    await screenshot(page, 'dataset-diff-workbench-dark');
    await modified.locator('[data-testid="compare"]').click();
    await page.locator('.monaco-diff-editor .editor.modified .view-lines', { hasText: '(reviewed)' }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'dataset-diff-row-in-diff-editor');
    await setTheme(page, 'light');
    await page.locator('.tabs-container .tab', { hasText: 'v1 → prod' }).click();
    const light = await webviewFrame(page);
    await light.locator('[data-testid="diff-row"]').first().waitFor();
    await page.waitForTimeout(500);
    await screenshot(page, 'dataset-diff-workbench-light');
    await setTheme(page, 'dark');
  });

  it('leaves the API key nowhere: code-server’s files and logs, the browser’s storage with the webview state, the console', async () => {
    const { page } = wb;
    // The forms the key could be written in.
    const forms = [key, Buffer.from(key).toString('base64').replace(/=+$/, ''), Buffer.from(key).toString('hex')];
    const found: string[] = [];
    const search = (where: string, text: string) => {
      for (const form of forms) if (text.includes(form)) found.push(where);
    };
    // 1. Every file code-server keeps for this run: settings, logs (the LangSmith output channel's among them),
    //    global and workspace storage, its own log and config, the XDG folders, the workspace. Not the installed
    //    extension itself (the .vsix as shipped, not written by the run): its walkthrough and sign-in hint name the
    //    local server's development key on purpose.
    const installed = path.join(wb.server.runDir, 'extensions');
    const files: string[] = [];
    const stack = [wb.server.runDir];
    while (stack.length) {
      const dir = stack.pop()!;
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory() && path.join(dir, e.name) !== installed) stack.push(path.join(dir, e.name));
        else if (e.isFile()) files.push(path.join(dir, e.name));
      }
    }
    assert.ok(files.some((f) => f.endsWith(path.join('User', 'settings.json'))), 'settings.json is among the files');
    assert.ok(files.some((f) => /LangSmith\.log$/.test(f)), 'the output channel’s log is among the files');
    for (const file of files) {
      const data = fs.readFileSync(file);
      for (const form of forms) if (data.includes(Buffer.from(form)) || data.includes(Buffer.from(form, 'utf16le'))) found.push(file);
    }
    // 2. The browser's storage for the workbench: IndexedDB (global and workspace state, the editors and the
    //    webviews' saved state), localStorage and sessionStorage. A string, not a function: the test runner's
    //    transpiler would add helpers the page does not have.
    const storage = (await page.evaluate(`(async () => {
      const done = (r) => new Promise((resolve, reject) => { r.onsuccess = () => resolve(r.result); r.onerror = () => reject(r.error); });
      const text = (v) => typeof v === 'string' ? v : v instanceof Uint8Array ? new TextDecoder().decode(v) : v instanceof ArrayBuffer ? new TextDecoder().decode(new Uint8Array(v)) : JSON.stringify(v);
      const entries = [];
      for (const info of await indexedDB.databases()) {
        const db = await done(indexedDB.open(info.name));
        for (const name of Array.from(db.objectStoreNames)) {
          const store = db.transaction(name, 'readonly').objectStore(name);
          const [keys, values] = await Promise.all([done(store.getAllKeys()), done(store.getAll())]);
          keys.forEach((k, i) => entries.push({ where: 'indexedDB ' + info.name + '/' + name + '/' + String(k), value: String(k) + '\\n' + text(values[i]) }));
        }
        db.close();
      }
      for (const [label, area] of [['localStorage', localStorage], ['sessionStorage', sessionStorage]]) {
        for (let i = 0; i < area.length; i++) entries.push({ where: label + ' ' + area.key(i), value: area.key(i) + '\\n' + area.getItem(area.key(i)) });
      }
      return entries;
    })()`)) as { where: string; value: string }[];
    assert.ok(storage.some((e) => e.where.startsWith('indexedDB ')), 'the workbench keeps its state in IndexedDB');
    // The webview state is among what was searched: the draft the reload test brought back is in it.
    assert.ok(storage.some((e) => /total\\*"?:\s*322/.test(e.value)), 'the example editor’s saved draft is in the storage searched');
    // SecretStorage is the one place meant to hold a key: in code-server, localStorage "secrets.provider", sealed
    // with AES-GCM under a key half of which the server keeps. It is left out of the search, and checked sealed.
    const sealed = storage.find((e) => e.where === 'localStorage secrets.provider');
    if (sealed) assert.ok(!forms.some((f) => sealed.value.includes(f)), 'SecretStorage holds the key readably');
    for (const entry of storage) if (entry !== sealed) search(entry.where, entry.value);
    // 3. What the workbench and its webviews logged to the browser console.
    wb.console.forEach((line, i) => search(`console line ${i}`, line));
    recordFigures('e2eSecrets', {
      secretOccurrences: found.length,
      filesSearched: files.length,
      storageEntriesSearched: storage.length - (sealed ? 1 : 0),
      consoleLines: wb.console.length,
      secretStorageEntry: sealed ? 'sealed' : 'absent',
    });
    assert.deepEqual(found, [], 'the API key is written there');
  });
});
