import assert from 'node:assert/strict';
import { openLangSmithContainer, runCommand, screenshot, startWorkbench, webviewFrame, type Workbench } from './workbench';

describe('the packaged extension in VS Code', function () {
  let wb: Workbench;

  before(async () => {
    wb = await startWorkbench();
  });
  after(async () => {
    await wb?.close();
  });

  it('shows the LangSmith container with its four views and a sign-in welcome', async () => {
    const { page } = wb;
    await openLangSmithContainer(page);
    const headers = await page.locator('.part.sidebar .pane-header h3.title').allInnerTexts();
    for (const view of ['PROJECTS', 'DATASETS', 'PROMPTS', 'ANNOTATION QUEUES']) {
      assert.ok(headers.map((h) => h.toUpperCase()).includes(view), `missing view ${view}; saw ${headers.join(', ')}`);
    }
    const signIn = page.locator('.part.sidebar .welcome-view-content a.monaco-button', { hasText: 'Sign In' }).first();
    await signIn.waitFor({ timeout: 30_000 });
    await screenshot(page, 'sidebar');
  });

  it('runs the connection check from the palette and round-trips a message through the webview', async () => {
    const { page } = wb;
    await runCommand(page, 'LangSmith: Open Connection Check');
    const frame = await webviewFrame(page);
    await frame.getByTestId('endpoint').waitFor();
    assert.equal(await frame.getByTestId('endpoint').innerText(), 'https://api.smith.langchain.com');
    assert.equal(await frame.getByTestId('signed-in').textContent(), 'not signed in');

    await frame.getByTestId('send').click();
    const reply = frame.getByTestId('reply');
    await reply.waitFor();
    assert.equal(await reply.innerText(), 'The extension host received: Hello from the webview');
    await screenshot(page, 'webview');
  });

  it('shows a validation message instead of sending an empty message', async () => {
    const frame = await webviewFrame(wb.page);
    const field = frame.getByTestId('message').locator('input');
    await field.fill('');
    await frame.getByTestId('send').click();
    const error = frame.getByTestId('error');
    await error.waitFor();
    assert.equal(await error.innerText(), 'Type a message first.');
  });

  it('loads the webview under its CSP without violations or script errors', () => {
    const violations = wb.console.filter((m) => /Content Security Policy|violates the following/i.test(m));
    assert.deepEqual(violations, []);
    const webviewErrors = wb.console.filter((m) => /Error/.test(m) && /webviews\/hello\.js/.test(m));
    assert.deepEqual(webviewErrors, []);
    const hostErrors = wb.console.filter((m) => /ERR/.test(m) && /langsmith-workbench/.test(m));
    assert.deepEqual(hostErrors, []);
  });
});
