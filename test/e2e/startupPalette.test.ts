// The command palette right at startup agrees with the status bar: in ten fresh windows, each opened with a
// connection already there (the local server's endpoint and key in the environment), the palette opened as soon as
// the workbench is up, and again until the extension has activated, never offers Sign In; whenever the status bar
// shows the connection the palette offers Sign Out and Switch Endpoint, and it does without the LangSmith view ever
// being opened.
//
// One code-server serves the ten windows; each is fresh: a new browser context (empty browser storage, where the
// web workbench keeps its state and its in-memory secret storage) and a new extension host that code-server
// starts for each window, so the extension activates from nothing each time.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startLocalServer, type LocalServer } from '../harness/localServer';
import { openWindow, paletteEntries, screenshot, startWindowServer } from './workbench';

const WINDOWS = 10;

/** What the palette offers of the three connection commands. */
async function connectionCommands(page: Page): Promise<string[]> {
  const offered = [...(await paletteEntries(page, 'LangSmith: Sign')), ...(await paletteEntries(page, 'LangSmith: Switch Endpoint'))];
  return ['Sign In', 'Sign Out', 'Switch Endpoint'].filter((c) => offered.some((o) => o.startsWith(`LangSmith: ${c}`)));
}

describe('the palette right at startup', function () {
  this.timeout(15 * 60_000);
  let api: LocalServer;
  let windows: Awaited<ReturnType<typeof startWindowServer>>;

  before(async () => {
    api = await startLocalServer({ seed: 'demo' });
    windows = await startWindowServer({ LANGSMITH_ENDPOINT: api.url, LANGSMITH_API_KEY: api.apiKey });
  });
  after(async () => {
    await windows?.close();
    await api?.close();
  });

  it(`never offers Sign In, and offers Sign Out and Switch Endpoint once the status bar shows, in ${WINDOWS} fresh windows`, async () => {
    const results: string[] = [];
    const wrong: string[] = [];
    for (let i = 1; i <= WINDOWS; i++) {
      const w = await openWindow(windows.server, windows.browser);
      try {
        const t0 = Date.now();
        const looks: string[] = [];
        const item = w.page.locator('.part.statusbar [aria-label^="LangSmith: "]').first();
        for (;;) {
          // What the status bar says before the palette opens: the palette must agree with it.
          const status = (await item.isVisible()) ? ((await item.getAttribute('aria-label')) ?? '') : '';
          const offered = await connectionCommands(w.page);
          looks.push(`${offered.join('+') || 'none'}${status ? ' [status bar shown]' : ''}`);
          if (offered.includes('Sign In')) wrong.push(`window ${i}: Sign In offered (${looks.join(' → ')})`);
          if (status.includes('not signed in')) wrong.push(`window ${i}: the status bar says ${status}`);
          const settled = offered.join(',') === 'Sign Out,Switch Endpoint';
          if (status && !settled) wrong.push(`window ${i}: the status bar shows "${status}" but the palette offers ${offered.join(', ') || 'none'}`);
          if (settled) {
            if (i === 1) {
              // The picture: Sign Out offered and not Sign In, with the status bar's connection below.
              await paletteEntries(w.page, 'LangSmith: Sign');
              await screenshot(w.page, 'startup-palette');
            }
            break;
          }
          if (Date.now() - t0 > 30_000) {
            wrong.push(`window ${i}: Sign Out and Switch Endpoint not offered within 30 s (${looks.join(' → ')})`);
            await screenshot(w.page, `startup-palette-failed-${i}`);
            break;
          }
          await w.page.keyboard.press('Escape');
          await w.page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
        }
        results.push(`window ${i}: ${looks.join(' → ')} (${Date.now() - t0} ms)`);
        await w.page.keyboard.press('Escape');
        // Never opened: the sidebar still shows the Explorer.
        assert.equal(await w.page.locator('.part.sidebar .pane-header', { hasText: 'Projects' }).count(), 0);
      } finally {
        await w.close();
      }
    }
    console.log(`      ${results.join('\n      ')}`);
    assert.deepEqual(wrong, [], results.join('\n'));
  });
});
