// The connection-check app on the frame: ready answered with state, a request, a draft that survives a reload,
// notifications, and no CSP violation.
import assert from 'node:assert/strict';
import { withWebviewApps, type OpenApp } from './harness';

const connection = { endpoint: 'http://127.0.0.1:1984', signedIn: true, source: 'environment' as const };
const ready = () => ({ restore: 'hello', connection: { signedIn: true, endpoint: connection.endpoint }, state: connection });

describe('webview: connection check', () => {
  const open = withWebviewApps();
  let app: OpenApp;

  it('renders the state the host answers to ready, and keeps how to restore it', async () => {
    app = await open('hello', { handlers: { 'hello/ready': ready } });
    await app.page.getByTestId('endpoint').waitFor();
    assert.equal(await app.page.getByTestId('endpoint').textContent(), connection.endpoint);
    assert.equal(await app.page.getByTestId('signed-in').textContent(), 'signed in (environment)');
    assert.deepEqual(app.requests('hello/ready'), [{}]);
    assert.equal(((await app.savedState()) as { restore: unknown }).restore, 'hello');
    assert.deepEqual(app.problems, []);
  });

  it('checks params before sending, and shows the host answer', async () => {
    app = await open('hello', {
      handlers: { 'hello/ready': ready, 'hello/ping': (p) => ({ reply: `got ${(p as { message: string }).message}`, connection, receivedAt: 'now' }) },
    });
    const field = app.page.getByTestId('message').locator('input');
    await field.fill('   ');
    await app.page.getByTestId('send').click();
    await app.page.getByTestId('error').waitFor();
    assert.equal(await app.page.getByTestId('error').textContent(), 'Type a message first.');
    assert.deepEqual(app.requests('hello/ping'), []);
    await field.fill('hi');
    await app.page.getByTestId('send').click();
    await app.page.getByTestId('reply').waitFor();
    assert.equal(await app.page.getByTestId('reply').textContent(), 'got hi');
  });

  it('keeps the draft across a reload and asks for the state again', async () => {
    app = await open('hello', { handlers: { 'hello/ready': ready } });
    const field = app.page.getByTestId('message').locator('input');
    await field.fill('typed before the reload');
    await app.reload();
    await app.page.getByTestId('endpoint').waitFor();
    assert.equal(await app.page.getByTestId('message').locator('input').inputValue(), 'typed before the reload');
    assert.equal(app.requests('hello/ready').length, 2);
  });

  it('shows a retry when ready fails, and the content after a retry', async () => {
    let calls = 0;
    app = await open('hello', {
      handlers: {
        'hello/ready': () => {
          if (calls++ === 0) throw Object.assign(new Error('Sign in to LangSmith first.'), { code: 'notSignedIn' });
          return ready();
        },
      },
    });
    await app.page.getByRole('alert').waitFor();
    assert.match((await app.page.getByRole('alert').textContent()) ?? '', /Sign in to LangSmith first/);
    await app.page.getByRole('button', { name: 'Retry' }).click();
    await app.page.getByTestId('endpoint').waitFor();
  });

  it('applies notifications, also one that arrives before the app listens to it', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    app = await open('hello', { handlers: { 'hello/ready': async () => (await held, ready()) } });
    // The app is still waiting for its state: nobody listens to this yet.
    await app.page.waitForFunction(() => document.querySelector('[aria-busy="true"]'));
    await app.notify('hello/connectionChanged', { ...connection, signedIn: false, source: 'none' });
    release();
    await app.page.getByTestId('endpoint').waitFor();
    await app.page.waitForFunction(() => document.querySelector('[data-testid="signed-in"]')?.textContent === 'not signed in');
    await app.notify('webview/connection', { signedIn: false, endpoint: connection.endpoint });
    await app.page.getByText('Signed out of LangSmith').waitFor();
  });
});
