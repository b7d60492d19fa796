// What the sidebar rows say at the default width: a compact age, and a trace labelled by enough of its question
// that similar questions differ.
import assert from 'node:assert/strict';
import '../harness/vscodeStub';
import { fenced, fitDescription, formatAgo, formatWhen, rowChars } from '../../src/text/format';
import { RUN_PREVIEW_CHARS, runLabel } from '../../src/views/projectsView';

describe('sidebar row text', () => {
  const now = Date.parse('2026-11-27T12:00:00Z');

  it('says how long ago in at most three characters within a month, else the date', () => {
    const ago = (ms: number) => formatAgo(now - ms, now);
    assert.equal(ago(20_000), 'now');
    assert.equal(ago(5 * 60_000), '5m');
    assert.equal(ago(59 * 60_000), '59m');
    assert.equal(ago(3 * 3600_000), '3h');
    assert.equal(ago(2 * 86_400_000), '2d');
    assert.equal(ago(40 * 86_400_000), '2026-10-18');
    assert.equal(formatAgo(null, now), undefined);
    assert.equal(formatAgo('not a time', now), undefined);
    // The same ages in words where a row has room.
    assert.deepEqual([20_000, 5 * 60_000, 3 * 3600_000, 2 * 86_400_000, 40 * 86_400_000].map((ms) => formatWhen(now - ms, now)), ['just now', '5 min ago', '3 h ago', '2 d ago', '2026-10-18']);
  });

  it('labels traces by a question long enough to tell similar ones apart, with the age beside it', () => {
    const run = (question: string) => ({ id: 'r', name: 'SupportPipeline', inputs: { question } }) as never;
    const a = runLabel(run('Can I export my data to CSV?'), true);
    const b = runLabel(run('Can I export my invoices?'), true);
    assert.notEqual(a, b);
    assert.ok(a.length <= RUN_PREVIEW_CHARS + 2, a);
    // Under a project (depth 2) the age still fits beside the longest label.
    const description = fitDescription(a, [undefined, formatAgo(now - 5 * 60_000, now), '1.20 s'], 2);
    assert.equal(description, '5m');
    assert.ok(a.length + 1 + description!.length <= rowChars(2));
    assert.equal(runLabel(run('x'), false), 'SupportPipeline');
  });

  it('fences text in markdown so that no run of backticks in it can end the block', () => {
    assert.equal(fenced('plain'), '```text\nplain\n```');
    const hostile = 'a ``` b\n`````\nc';
    const block = fenced(hostile);
    assert.ok(block.startsWith('``````text\n') && block.endsWith('\n``````'), block);
    assert.equal(block.slice('``````text\n'.length, -'\n``````'.length), hostile);
  });
});
