// The prompt commit panel in real Chromium with a fake host: what a push changes, the commit form (description,
// environment toggles, other tags), the push and its answers (pushed, nothing to commit, stale, a host error), a
// prompt that does not exist yet, the reasons a push is refused, live updates, drafts across reloads, server text
// as text, and the keyboard.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { PromptCommitState, type ChangeInfo, type RemoteInfo } from '../../src/protocol/promptCommit';
import { HostError, screenshot, withWebviewApps, type OpenApp } from './harness';

const LATEST = '3f9a1c7e2b4d6f80a1c3e5f70912b4d6e8fa0c21';
const OLDER = '8c27e0d5b19f4a63c7d2e8f1a0b3c5d7e9f1a2b4';
const NEWER = 'd41e7b2a9c0f3e6d5b8a7c4f1e2d3c0b9a8f7e6d';
const PUSHED = '0b5c9e1f7a3d2c4b6e8f0a1b3c5d7e9f2a4c6e8b';
const REFUSAL = 'Cannot create a commit for another tenant.\nCurrent tenant: local\nRequested tenant: other';

const messageChange: ChangeInfo = {
  section: 'messages[0] (system)',
  kind: 'changed',
  attribute: false,
  lines: [
    { type: 'same', text: 'You summarize documents for {audience}.' },
    { type: 'del', text: 'Keep it under 100 words.' },
    { type: 'add', text: 'Keep it under 80 words and use plain language.' },
    { type: 'add', text: 'End with one open question.' },
  ],
};
const descriptionChange: ChangeInfo = {
  section: 'description',
  kind: 'changed',
  attribute: true,
  lines: [
    { type: 'del', text: 'Summarizes a document.' },
    { type: 'add', text: 'Summarizes a document for a given audience.' },
  ],
};

const remote = (over: Partial<RemoteInfo> = {}): RemoteInfo => ({
  displayName: 'local/demo-summarizer',
  exists: true,
  own: true,
  refusal: null,
  isPublic: false,
  description: 'Summarizes a document.',
  latest: { hash: LATEST, createdAt: '2026-11-20T10:00:00.000Z', tags: ['staging'] },
  environments: { production: OLDER, staging: LATEST },
  tags: ['production', 'staging'],
  ...over,
});

/** A prompt file pushing to `local/demo-summarizer`; every fixture is checked against the protocol. */
function state(over: { local?: Partial<PromptCommitState['local']>; remote?: RemoteInfo | null; remoteError?: string | null; changes?: ChangeInfo[] } = {}): PromptCommitState {
  return PromptCommitState.parse({
    local: {
      fileName: 'demo-summarizer.prompt.yaml',
      dirty: false,
      identifier: 'demo-summarizer',
      templateFormat: 'f-string',
      variables: ['audience', 'text'],
      problems: [],
      description: 'Summarizes a document for a given audience.',
      visibility: 'private',
      ...over.local,
    },
    remote: over.remote === undefined ? remote() : over.remote,
    remoteError: over.remoteError ?? null,
    changes: over.changes ?? [messageChange, descriptionChange],
  });
}

const NEW_PROMPT = state({
  local: { fileName: 'ticket-triage.prompt.yaml', identifier: 'ticket-triage', variables: ['ticket'], description: 'Sorts support tickets by urgency.', visibility: 'public' },
  remote: remote({ displayName: 'local/ticket-triage', exists: false, isPublic: null, description: null, latest: null, environments: { production: null, staging: null }, tags: [] }),
  changes: [{ section: 'messages[0] (system)', kind: 'added', attribute: false, lines: [{ type: 'add', text: 'Sort the ticket: urgent, normal or low.' }] }],
});

const OTHER_TENANT = state({ remote: remote({ displayName: 'other/demo-summarizer', own: false, refusal: REFUSAL }) });

const WITH_PROBLEMS = state({
  local: {
    problems: [
      { message: 'Unknown key “temprature”: did you mean “temperature”?', severity: 'error', line: 4, column: 3 },
      { message: '{topic} is not an input variable of this prompt.', severity: 'error', line: 12, column: 21 },
      { message: 'The description is empty.', severity: 'warning', line: 2, column: 1 },
    ],
  },
});

const ready = (s: PromptCommitState) => () => ({ restore: { uri: 'file:///work/prompts/demo-summarizer.prompt.yaml' }, connection: { signedIn: true, endpoint: 'http://127.0.0.1:1984' }, state: s });

interface PushParams {
  parent: string | null;
  description: string;
  tags: string[];
  create: { description: string; isPublic: boolean } | null;
}

const pushes = (app: OpenApp) => app.requests('promptCommit/push') as PushParams[];
const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).textContent()) ?? '').replace(/\s+/g, ' ').trim();
/** Whether the Push button is disabled, once the toolkit element has reflected its state (it does so a tick later). */
async function pushDisabled(page: Page): Promise<boolean> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r))));
  return (await page.getByTestId('push').getAttribute('disabled')) !== null;
}

/** Waits until the host has seen `count` requests of `method`. */
async function sent(app: OpenApp, method: string, count = 1) {
  for (const end = Date.now() + 5000; Date.now() < end && app.requests(method).length < count; ) await app.page.waitForTimeout(20);
  assert.equal(app.requests(method).length, count, `${method} sent ${app.requests(method).length} times, not ${count}`);
}

describe('webview: prompt commit', () => {
  const open = withWebviewApps();
  let app: OpenApp;

  it('shows the prompt, its latest commit, variables and what the push changes; screenshots in both themes', async () => {
    for (const theme of ['dark', 'light'] as const) {
      app = await open('promptCommit', { theme, width: 900, height: 1000, handlers: { 'promptCommit/ready': ready(state()) } });
      const page = app.page;
      await page.getByTestId('prompt-commit').waitFor();
      assert.equal(await page.getByTestId('repo-name').textContent(), 'local/demo-summarizer');
      assert.match(await text(page, 'prompt-commit'), /local\/demo-summarizer private/);
      assert.equal(await page.getByRole('heading', { level: 2 }).textContent(), 'Push demo-summarizer.prompt.yaml');
      // The latest commit: its short hash (a button that opens it) and its tags.
      const latest = page.getByTestId('latest');
      assert.equal(await latest.getByRole('button').textContent(), LATEST.slice(0, 8));
      assert.deepEqual(await latest.locator('.lsw-badge').allTextContents(), ['staging']);
      assert.deepEqual(await page.getByTestId('variables').locator('.lsw-badge').allTextContents(), ['audience', 'text']);
      assert.match(await text(page, 'variables'), /f-string templates/);
      // Styled from the app's stylesheet: the hash in the editor font, secondary text muted, chips apart.
      const style = (l: ReturnType<Page['locator']>, prop: string) => l.evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), prop);
      assert.equal(await style(latest.getByRole('button'), 'font-family'), 'monospace');
      assert.equal(await style(latest.locator('.lsw-muted'), 'color'), theme === 'dark' ? 'rgb(157, 157, 157)' : 'rgb(113, 113, 113)');
      const [a, b] = await page.getByTestId('variables').locator('.lsw-badge').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
      assert.ok(b!.left - a!.right >= 4, `the variable chips touch (${b!.left - a!.right}px apart)`);
      // The environments say where they point now: production on the older commit.
      assert.equal(await page.getByTestId('env-production').textContent(), `production (now ${OLDER.slice(0, 8)})`);
      assert.equal(await page.getByTestId('env-staging').textContent(), `staging (now ${LATEST.slice(0, 8)})`);
      // Each change, with its lines marked + and −.
      const changes = page.getByTestId('change');
      assert.equal(await changes.count(), 2);
      assert.equal(await changes.nth(0).locator('.pc-change-title strong').textContent(), 'messages[0] (system)');
      assert.equal(await changes.nth(0).locator('.lsw-kind-modified').textContent(), 'changed');
      assert.deepEqual(await changes.nth(0).locator('.pc-line').allTextContents(), [
        '  You summarize documents for {audience}.',
        '− Keep it under 100 words.',
        '+ Keep it under 80 words and use plain language.',
        '+ End with one open question.',
      ]);
      assert.equal(await changes.nth(0).locator('.pc-line-del').count(), 1);
      assert.equal(await changes.nth(0).locator('.pc-line-add').count(), 2);
      assert.equal(await changes.nth(1).locator('.pc-change-title strong').textContent(), 'description');
      assert.match((await changes.nth(1).locator('.pc-change-title').textContent())!, /prompt attribute, updated on push \(not part of the commit\)/);
      assert.deepEqual(await changes.nth(1).locator('.pc-line').allTextContents(), ['− Summarizes a document.', '+ Summarizes a document for a given audience.']);
      assert.equal(await page.getByTestId('push').textContent(), 'Push');
      assert.equal(await pushDisabled(page), false);
      assert.equal(await page.getByTestId('why-disabled').count(), 0);
      assert.equal(await page.getByTestId('new-prompt').count(), 0);
      await screenshot(page, `prompt-commit-${theme}`);
      assert.deepEqual(app.problems, [], 'console errors or CSP violations');
      if (theme === 'dark') await app.close();
    }
  });

  it('reads well at 400 px: nothing wider than the panel', async () => {
    app = await open('promptCommit', { width: 400, height: 1100, handlers: { 'promptCommit/ready': ready(state()) } });
    await app.page.getByTestId('changes').waitFor();
    const overflow = await app.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at 400px`);
    // A long line wraps under its own text, not under its + mark.
    const [first, second] = await app.page.locator('.pc-line-add').first().evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el.lastChild!);
      // The leftmost box of each line the text is on (a wrap point leaves an empty box at a line's end).
      const lines = new Map<number, number>();
      for (const r of range.getClientRects()) if (r.width > 0) lines.set(Math.round(r.top), Math.min(lines.get(Math.round(r.top)) ?? Infinity, r.left));
      return [...lines.values()];
    });
    assert.ok(second !== undefined, 'the line wraps at 400px');
    assert.ok(Math.abs(first! - second) < 1, `the wrapped part starts at ${second}px, its line's text at ${first}px`);
    await screenshot(app.page, 'prompt-commit-400px');
  });

  it('pushes on the latest commit with the description and tags, says what it did, and clears the draft', async () => {
    app = await open('promptCommit', {
      height: 1000,
      handlers: {
        'promptCommit/ready': ready(state()),
        'promptCommit/push': (p) => ({
          status: 'pushed',
          hash: PUSHED,
          created: false,
          updated: [],
          tags: (p as PushParams).tags,
          state: state({
            remote: remote({ latest: { hash: PUSHED, createdAt: '2026-11-21T09:00:00.000Z', tags: ['production', 'staging', 'v2'] }, environments: { production: PUSHED, staging: PUSHED } }),
            changes: [],
          }),
        }),
        'promptCommit/openCommit': () => ({}),
      },
    });
    const page = app.page;
    await page.getByTestId('changes').waitFor();
    await page.getByTestId('commit-description').fill('Shorter summaries in plain language');
    await page.getByTestId('env-production').click();
    await page.getByTestId('env-staging').click();
    assert.equal(await page.getByTestId('env-production').getAttribute('aria-pressed'), 'true');
    assert.equal(await page.getByTestId('env-staging').getAttribute('aria-pressed'), 'true');
    await page.getByLabel(/Other tags/).fill(' v2, staging ,v2,, ');
    await page.getByTestId('push').click();
    await page.getByTestId('result').waitFor();
    assert.deepEqual(pushes(app), [{ parent: LATEST, description: 'Shorter summaries in plain language', tags: ['production', 'staging', 'v2'], create: null }]);
    const result = page.getByTestId('result');
    assert.equal(await result.getAttribute('role'), 'status');
    assert.match((await result.textContent())!, new RegExp(`^Pushed commit ${PUSHED.slice(0, 8)}\\. Tagged production, staging, v2\\.`));
    // The new state: the pushed commit is the latest, nothing left to commit.
    assert.equal(await page.getByTestId('latest').getByRole('button').textContent(), PUSHED.slice(0, 8));
    assert.equal(await page.getByTestId('no-changes').textContent(), 'Nothing to commit: the file is the same as the latest commit.');
    // The draft is cleared, here and in the saved state.
    assert.equal(await page.getByTestId('commit-description').inputValue(), '');
    assert.equal(await page.getByLabel(/Other tags/).inputValue(), '');
    assert.equal(await page.getByTestId('env-production').getAttribute('aria-pressed'), 'false');
    const saved = (await app.savedState()) as { drafts: { commit: { description: string; tags: string } } };
    assert.equal(saved.drafts.commit.description, '');
    assert.equal(saved.drafts.commit.tags, '');
    await screenshot(page, 'prompt-commit-pushed');
    await result.getByRole('button', { name: 'Open commit' }).click();
    await sent(app, 'promptCommit/openCommit');
    assert.deepEqual(app.requests('promptCommit/openCommit'), [{ hash: PUSHED }]);
  });

  it('says "Tagged production" when only production is toggled, and sends no tags when none are chosen', async () => {
    app = await open('promptCommit', {
      handlers: {
        'promptCommit/ready': ready(state()),
        // The file still differs after this push (edited meanwhile), so a second push has something to send.
        'promptCommit/push': (p) => ({ status: 'pushed', hash: PUSHED, created: false, updated: ['description'], tags: (p as PushParams).tags, state: state() }),
      },
    });
    const page = app.page;
    await page.getByTestId('changes').waitFor();
    await page.getByTestId('env-production').click();
    await page.getByTestId('push').click();
    await page.getByTestId('result').waitFor();
    assert.equal(
      await text(page, 'result'),
      `Pushed commit ${PUSHED.slice(0, 8)}. Updated the prompt’s description. Tagged production. Open commit`,
    );
    await page.getByTestId('push').click();
    await sent(app, 'promptCommit/push', 2);
    assert.deepEqual(pushes(app).map((p) => p.tags), [['production'], []]);
    assert.deepEqual(pushes(app)[1], { parent: LATEST, description: '', tags: [], create: null });
  });

  it('shows "Nothing to commit" when the host found nothing to commit', async () => {
    app = await open('promptCommit', {
      handlers: {
        'promptCommit/ready': ready(state()),
        'promptCommit/push': () => ({ status: 'nothingToCommit', hash: LATEST, updated: [], tags: [], state: state({ changes: [] }) }),
      },
    });
    const page = app.page;
    await page.getByTestId('changes').waitFor();
    await page.getByTestId('push').click();
    await page.getByTestId('result').waitFor();
    assert.match(await text(page, 'result'), /^Nothing to commit: the file is the same as the latest commit\. Open commit$/);
    assert.equal(await page.getByTestId('change').count(), 0);
    assert.equal(await page.getByTestId('no-changes').count(), 1);
  });

  it('after a push that leaves nothing to commit, Push is disabled and says why; a chosen tag enables it again', async () => {
    app = await open('promptCommit', {
      width: 900,
      height: 900,
      handlers: {
        'promptCommit/ready': ready(state()),
        'promptCommit/push': (p) => ({
          status: 'pushed',
          hash: PUSHED,
          created: false,
          updated: [],
          tags: (p as PushParams).tags,
          state: state({ remote: remote({ latest: { hash: PUSHED, createdAt: '2026-11-21T09:00:00.000Z', tags: [] } }), changes: [] }),
        }),
      },
    });
    const page = app.page;
    await page.getByTestId('changes').waitFor();
    assert.equal(await pushDisabled(page), false);
    assert.equal(await page.getByTestId('why-disabled').count(), 0);
    await page.getByTestId('push').click();
    await page.getByTestId('result').waitFor();
    // What the panel says and what its button does agree.
    assert.equal(await page.getByTestId('no-changes').textContent(), 'Nothing to commit: the file is the same as the latest commit.');
    assert.equal(await pushDisabled(page), true);
    assert.equal(await text(page, 'why-disabled'), 'Nothing to push: edit the file, or choose a tag to move to the latest commit.');
    await screenshot(page, 'prompt-commit-nothing-to-push');
    await page.getByTestId('push').click({ force: true });
    await page.waitForTimeout(100);
    assert.equal(pushes(app).length, 1, 'a disabled Push sends nothing');
    // Moving a tag to the latest commit is something to push.
    await page.getByTestId('env-production').click();
    assert.equal(await pushDisabled(page), false);
    assert.equal(await page.getByTestId('why-disabled').count(), 0);
    await page.getByTestId('push').click();
    await sent(app, 'promptCommit/push', 2);
    assert.deepEqual(pushes(app)[1], { parent: PUSHED, description: '', tags: ['production'], create: null });
    // The file edited again: changes to push, Push enabled.
    await app.notify('promptCommit/changed', state({ remote: remote({ latest: { hash: PUSHED, createdAt: '2026-11-21T09:00:00.000Z', tags: [] } }) }));
    await page.getByTestId('changes').waitFor();
    assert.equal(await pushDisabled(page), false);
  });

  it('on a stale parent pushes nothing, warns, shows the new latest commit and pushes on it next', async () => {
    const newer = state({
      remote: remote({ latest: { hash: NEWER, createdAt: '2026-11-21T08:00:00.000Z', tags: [] }, environments: { production: OLDER, staging: LATEST } }),
      changes: [{ ...messageChange, lines: [{ type: 'del', text: 'Keep it under 60 words.' }, { type: 'add', text: 'Keep it under 80 words and use plain language.' }] }],
    });
    let calls = 0;
    app = await open('promptCommit', {
      handlers: {
        'promptCommit/ready': ready(state()),
        'promptCommit/push': () => (calls++ === 0 ? { status: 'stale', state: newer } : { status: 'pushed', hash: PUSHED, created: false, updated: [], tags: [], state: state({ changes: [] }) }),
      },
    });
    const page = app.page;
    await page.getByTestId('changes').waitFor();
    await page.getByTestId('commit-description').fill('Plain language');
    await page.getByTestId('push').click();
    await page.getByTestId('result').waitFor();
    const result = page.getByTestId('result');
    assert.equal(await result.getAttribute('role'), 'alert');
    assert.match((await result.textContent())!, /Someone committed to this prompt since this panel showed it: nothing was pushed\./);
    assert.equal(await result.getByRole('button', { name: 'Open commit' }).count(), 0);
    assert.equal(await page.getByTestId('latest').getByRole('button').textContent(), NEWER.slice(0, 8));
    assert.deepEqual(await page.getByTestId('change').locator('.pc-line').allTextContents(), ['− Keep it under 60 words.', '+ Keep it under 80 words and use plain language.']);
    // The draft is kept for the push on the new commit.
    assert.equal(await page.getByTestId('commit-description').inputValue(), 'Plain language');
    await screenshot(page, 'prompt-commit-stale');
    await page.getByTestId('push').click();
    await page.getByText(/^Pushed commit /).waitFor();
    assert.deepEqual(pushes(app).map((p) => p.parent), [LATEST, NEWER]);
    assert.deepEqual(pushes(app).map((p) => p.description), ['Plain language', 'Plain language']);
  });

  it('creates a prompt that does not exist yet: description prefilled, private or public, "Create and Push"', async () => {
    app = await open('promptCommit', {
      height: 1000,
      handlers: {
        'promptCommit/ready': ready(NEW_PROMPT),
        'promptCommit/push': () => ({ status: 'pushed', hash: PUSHED, created: true, updated: [], tags: [], state: state({ changes: [] }) }),
      },
    });
    const page = app.page;
    await page.getByTestId('new-prompt').waitFor();
    assert.match(await text(page, 'prompt-commit'), /to local\/ticket-triage new prompt/);
    assert.equal(await page.getByTestId('latest').textContent(), 'The prompt does not exist yet: the push creates it.');
    assert.equal(await page.getByTestId('show-diff').count(), 0);
    const description = page.getByTestId('new-prompt').getByLabel('Description');
    assert.equal(await description.inputValue(), 'Sorts support tickets by urgency.');
    // The file says `visibility: public`: so does the panel until the user picks otherwise.
    const priv = page.getByRole('radio', { name: 'Private' });
    const pub = page.getByRole('radio', { name: /Public/ });
    assert.equal(await pub.isChecked(), true);
    assert.equal(await priv.isChecked(), false);
    assert.equal(await page.getByTestId('push').textContent(), 'Create and Push');
    assert.equal(await pushDisabled(page), false);
    await screenshot(page, 'prompt-commit-new');
    await description.fill('Sorts support tickets by urgency and team.');
    await priv.check();
    assert.equal(await pub.isChecked(), false);
    await page.getByTestId('commit-description').fill('First version');
    await page.getByTestId('push').click();
    await page.getByTestId('result').waitFor();
    assert.deepEqual(pushes(app), [{ parent: null, description: 'First version', tags: [], create: { description: 'Sorts support tickets by urgency and team.', isPublic: false } }]);
    assert.match(await text(page, 'result'), new RegExp(`^Created the prompt and pushed commit ${PUSHED.slice(0, 8)}\\.`));
  });

  it('creates a new prompt as the file says when the form is left alone (private when it says nothing)', async () => {
    for (const visibility of ['public', null] as const) {
      app = await open('promptCommit', {
        handlers: {
          'promptCommit/ready': ready({ ...NEW_PROMPT, local: { ...NEW_PROMPT.local, visibility } }),
          'promptCommit/push': () => ({ status: 'pushed', hash: PUSHED, created: true, updated: [], tags: [], state: state({ changes: [] }) }),
        },
      });
      await app.page.getByTestId('new-prompt').waitFor();
      assert.equal(await app.page.getByRole('radio', { name: 'Private' }).isChecked(), visibility !== 'public');
      await app.page.getByTestId('push').click();
      await app.page.getByTestId('result').waitFor();
      assert.deepEqual(pushes(app)[0]!.create, { description: 'Sorts support tickets by urgency.', isPublic: visibility === 'public' });
      await app.close();
    }
  });

  it('refuses while the file has errors: lists them with places that reveal the file there', async () => {
    app = await open('promptCommit', {
      handlers: { 'promptCommit/ready': ready(WITH_PROBLEMS), 'promptCommit/revealFile': () => ({}), 'promptCommit/push': () => assert.fail('pushed a file with errors') },
    });
    const page = app.page;
    await page.getByTestId('problems').waitFor();
    const items = page.getByTestId('problems').locator('li');
    assert.deepEqual((await items.allTextContents()).map((t) => t.replace(/\s+/g, ' ')), [
      'Line 4:3 Unknown key “temprature”: did you mean “temperature”?',
      'Line 12:21 {topic} is not an input variable of this prompt.',
      'Line 2:1 The description is empty.',
    ]);
    assert.equal(await pushDisabled(page), true);
    assert.equal(await page.getByTestId('why-disabled').textContent(), 'Fix the 2 problems in the file first.');
    assert.equal(await page.getByTestId('changes').count(), 0, 'no changes shown for a file that does not read');
    await screenshot(page, 'prompt-commit-problems');
    await page.getByRole('button', { name: 'Line 12:21' }).click();
    await page.getByRole('button', { name: 'Line 4:3' }).click();
    await sent(app, 'promptCommit/revealFile', 2);
    assert.deepEqual(app.requests('promptCommit/revealFile'), [{ line: 12, column: 21 }, { line: 4, column: 3 }]);
    await page.getByTestId('push').click({ force: true });
    await page.waitForTimeout(100);
    assert.deepEqual(pushes(app), []);
  });

  it('says "the problem" for one error', async () => {
    app = await open('promptCommit', { handlers: { 'promptCommit/ready': ready(state({ local: { problems: [WITH_PROBLEMS.local.problems[0]!] } })) } });
    await app.page.getByTestId('problems').waitFor();
    assert.equal(await app.page.getByTestId('why-disabled').textContent(), 'Fix the problem in the file first.');
    assert.equal(await pushDisabled(app.page), true);
  });

  it('refuses another workspace’s prompt with the spec’s message', async () => {
    app = await open('promptCommit', { handlers: { 'promptCommit/ready': ready(OTHER_TENANT), 'promptCommit/push': () => assert.fail('pushed to another tenant') } });
    const page = app.page;
    await page.getByTestId('refusal').waitFor();
    const refusal = page.getByTestId('refusal');
    assert.equal(await refusal.getAttribute('role'), 'alert');
    assert.equal(await refusal.textContent(), REFUSAL);
    assert.equal(await refusal.innerText(), REFUSAL, 'the message is shown on its three lines');
    assert.equal(await page.getByTestId('repo-name').textContent(), 'other/demo-summarizer');
    assert.equal(await pushDisabled(page), true);
    assert.equal(await page.getByTestId('why-disabled').textContent(), REFUSAL);
    assert.equal(await page.getByTestId('changes').count(), 0);
    assert.equal(await page.getByTestId('new-prompt').count(), 0);
    await screenshot(page, 'prompt-commit-other-tenant');
    await page.getByTestId('push').click({ force: true });
    await page.waitForTimeout(100);
    assert.deepEqual(pushes(app), []);
  });

  it('refuses a file that names no prompt, and a remote it could not read', async () => {
    app = await open('promptCommit', { handlers: { 'promptCommit/ready': ready(state({ local: { identifier: null }, remote: null, changes: [] })) } });
    await app.page.getByTestId('push').waitFor();
    assert.equal(await app.page.getByTestId('why-disabled').textContent(), 'The file names no prompt: add “prompt: <name>” at its top.');
    assert.match(await text(app.page, 'prompt-commit'), /to a prompt the file does not name yet/);
    assert.equal(await pushDisabled(app.page), true);
    await app.close();

    app = await open('promptCommit', { handlers: { 'promptCommit/ready': ready(state({ remote: null, remoteError: 'LangSmith did not answer (ECONNREFUSED).', changes: [] })) } });
    await app.page.getByTestId('push').waitFor();
    assert.match((await app.page.getByRole('alert').first().textContent())!, /Could not read the prompt on LangSmith: LangSmith did not answer \(ECONNREFUSED\)\./);
    assert.equal(await app.page.getByTestId('why-disabled').textContent(), 'The prompt on LangSmith could not be read.');
    assert.equal(await pushDisabled(app.page), true);
  });

  it('refuses tags that are not tag names, with the reason, until they are fixed', async () => {
    app = await open('promptCommit', { handlers: { 'promptCommit/ready': ready(state()), 'promptCommit/push': () => ({ status: 'nothingToCommit', hash: LATEST, updated: [], tags: ['v3'], state: state() }) } });
    const page = app.page;
    await page.getByTestId('changes').waitFor();
    const tags = page.getByLabel(/Other tags/);
    const tagError = page.locator('.lsw-error-text');
    await tags.fill('latest');
    assert.deepEqual(await tagError.allTextContents(), ['“latest” would be read as a commit reference.']);
    // Said once, under the field, not again beside Push.
    assert.equal(await page.getByTestId('why-disabled').count(), 0);
    assert.equal(await pushDisabled(page), true);
    await tags.fill('v3, a b');
    assert.deepEqual(await tagError.allTextContents(), ['“a b” is not a tag name: use letters, digits, -, _ and .']);
    assert.equal(await pushDisabled(page), true);
    await tags.fill('deadbeef');
    assert.deepEqual(await tagError.allTextContents(), ['“deadbeef” would be read as a commit reference.']);
    await screenshot(page, 'prompt-commit-bad-tag');
    await page.getByTestId('push').click({ force: true });
    await page.waitForTimeout(100);
    assert.deepEqual(pushes(app), []);
    await tags.fill('v3');
    assert.equal(await page.getByTestId('why-disabled').count(), 0);
    assert.equal(await pushDisabled(page), false);
    await page.getByTestId('push').click();
    await page.getByTestId('result').waitFor();
    assert.deepEqual(pushes(app).map((p) => p.tags), [['v3']]);
  });

  it('shows a host error as "Not pushed" and keeps what was typed', async () => {
    app = await open('promptCommit', {
      handlers: {
        'promptCommit/ready': ready(state()),
        'promptCommit/push': () => {
          throw new HostError('requestFailed', 'boom');
        },
      },
    });
    const page = app.page;
    await page.getByTestId('changes').waitFor();
    await page.getByTestId('commit-description').fill('Plain language, shorter');
    await page.getByTestId('env-staging').click();
    await page.getByTestId('push').click();
    await page.getByTestId('error').waitFor();
    assert.equal(await page.getByTestId('error').textContent(), 'Not pushed: boom');
    assert.equal(await page.getByTestId('error').getAttribute('role'), 'alert');
    assert.equal(await page.getByTestId('result').count(), 0);
    assert.equal(await page.getByTestId('commit-description').inputValue(), 'Plain language, shorter');
    assert.equal(await page.getByTestId('env-staging').getAttribute('aria-pressed'), 'true');
    assert.equal(await pushDisabled(page), false, 'the push can be tried again');
    await screenshot(page, 'prompt-commit-error');
    // Typing again clears the error.
    await page.getByTestId('commit-description').fill('Plain language, shorter.');
    assert.equal(await page.getByTestId('error').count(), 0);
  });

  it('holds the button while a push is in flight', async () => {
    let answer: (v: unknown) => void = () => undefined;
    app = await open('promptCommit', {
      handlers: {
        'promptCommit/ready': ready(state()),
        'promptCommit/push': () => new Promise((resolve) => (answer = resolve)),
      },
    });
    const page = app.page;
    await page.getByTestId('changes').waitFor();
    await page.getByTestId('push').click();
    await page.locator('vscode-progress-ring').waitFor();
    assert.equal(await pushDisabled(page), true);
    await page.getByTestId('push').click({ force: true });
    await page.waitForTimeout(100);
    assert.equal(pushes(app).length, 1, 'a second click while pending sends nothing');
    answer({ status: 'nothingToCommit', hash: null, updated: [], tags: [], state: state({ changes: [] }) });
    await page.getByTestId('result').waitFor();
    assert.equal(await page.locator('vscode-progress-ring').count(), 0);
    // No longer pending, and with nothing left to push the button stays disabled, saying why.
    assert.equal(await pushDisabled(page), true);
    assert.match(await text(page, 'why-disabled'), /^Nothing to push/);
    assert.equal(await page.getByTestId('result').getByRole('button').count(), 0, 'no commit to open without a hash');
  });

  it('updates the changes live when the host says the file changed', async () => {
    app = await open('promptCommit', {
      handlers: { 'promptCommit/ready': ready(state()), 'promptCommit/push': () => ({ status: 'nothingToCommit', hash: LATEST, updated: [], tags: [], state: state() }) },
    });
    const page = app.page;
    await page.getByTestId('changes').waitFor();
    await page.getByTestId('push').click();
    await page.getByTestId('result').waitFor();
    const edited: ChangeInfo = {
      section: 'messages[1] (human)',
      kind: 'added',
      attribute: false,
      lines: [{ type: 'add', text: 'Summarize this for {audience}: {text}' }],
    };
    await app.notify('promptCommit/changed', state({ local: { dirty: true }, changes: [messageChange, edited] }));
    await page.getByText('messages[1] (human)').waitFor();
    const changes = page.getByTestId('change');
    assert.equal(await changes.count(), 2);
    assert.deepEqual(await changes.locator('.pc-change-title strong').allTextContents(), ['messages[0] (system)', 'messages[1] (human)']);
    assert.deepEqual(await changes.nth(1).locator('.pc-line').allTextContents(), ['+ Summarize this for {audience}: {text}']);
    assert.equal(await changes.nth(1).locator('.lsw-kind-added').textContent(), 'added');
    assert.match((await page.getByRole('heading', { level: 2 }).textContent())!, /\(unsaved changes included\)/);
    assert.equal(await page.getByTestId('result').count(), 0, 'an old result no longer applies');
    // A file that now reads the same as the latest commit.
    await app.notify('promptCommit/changed', state({ changes: [] }));
    await page.getByTestId('no-changes').waitFor();
    assert.equal(await page.getByTestId('change').count(), 0);
    // A notification that does not fit the protocol is dropped.
    await app.notify('promptCommit/changed', { local: { fileName: 'x' } });
    await page.waitForTimeout(100);
    assert.equal(await page.getByTestId('no-changes').count(), 1);
  });

  it('keeps the draft across a reload and asks for the state again', async () => {
    app = await open('promptCommit', { handlers: { 'promptCommit/ready': ready(state()) } });
    const page = app.page;
    await page.getByTestId('changes').waitFor();
    await page.getByTestId('commit-description').fill('Typed before the reload');
    await page.getByTestId('env-production').click();
    await page.getByLabel(/Other tags/).fill('v2');
    await app.reload();
    await page.getByTestId('changes').waitFor();
    assert.equal(await page.getByTestId('commit-description').inputValue(), 'Typed before the reload');
    assert.equal(await page.getByTestId('env-production').getAttribute('aria-pressed'), 'true');
    assert.equal(await page.getByLabel(/Other tags/).inputValue(), 'v2');
    assert.equal(app.requests('promptCommit/ready').length, 2);
  });

  it('renders server text as text', async () => {
    const img = '<img src=x onerror="window.__pwned=1">';
    const script = '<script>window.__pwned=2</script>messages[0]';
    app = await open('promptCommit', {
      handlers: {
        'promptCommit/ready': ready(
          state({
            local: { variables: [img], problems: [] },
            remote: remote({ displayName: `local/${img}`, latest: { hash: LATEST, createdAt: null, tags: [img] } }),
            changes: [{ section: script, kind: 'changed', attribute: false, lines: [{ type: 'add', text: img }, { type: 'del', text: script }] }],
          }),
        ),
      },
    });
    const page = app.page;
    await page.getByTestId('changes').waitFor();
    assert.equal(await page.locator('img').count(), 0);
    assert.equal(await page.locator('#root script').count(), 0);
    assert.equal(await page.locator('.pc-change-title strong').textContent(), script);
    assert.deepEqual(await page.locator('.pc-line').allTextContents(), [`+ ${img}`, `− ${script}`]);
    assert.equal(await page.getByTestId('repo-name').textContent(), `local/${img}`);
    assert.deepEqual(await page.getByTestId('variables').locator('.lsw-badge').allTextContents(), [img]);
    await page.waitForTimeout(100);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  });

  it('is operable from the keyboard: Tab reaches Push, Enter and Space push', async () => {
    app = await open('promptCommit', {
      handlers: {
        'promptCommit/ready': ready(state()),
        'promptCommit/push': () => ({ status: 'nothingToCommit', hash: LATEST, updated: [], tags: [], state: state() }),
      },
    });
    const page = app.page;
    await page.getByTestId('changes').waitFor();
    await page.getByTestId('commit-description').focus();
    await page.keyboard.type('From the keyboard');
    const order: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      order.push(await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.id ?? document.activeElement?.tagName ?? ''));
    }
    assert.deepEqual(order, ['env-production', 'env-staging', 'commit-tags', 'push']);
    // Space on a toggle presses it.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Space');
    assert.equal(await page.getByTestId('env-staging').getAttribute('aria-pressed'), 'true');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByTestId('result').waitFor();
    assert.deepEqual(pushes(app), [{ parent: LATEST, description: 'From the keyboard', tags: ['staging'], create: null }]);
    // The button is enabled again once the page has shown the result (a tick later under load): then Space pushes.
    await page.waitForFunction(() => !document.querySelector('[data-testid="push"]')?.hasAttribute('disabled'));
    await page.getByTestId('push').focus();
    await page.keyboard.press('Space');
    await sent(app, 'promptCommit/push', 2);
  });
});
