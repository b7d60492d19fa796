// The trace viewer's host-side shaping, in plain Node: payloads cut to what a page holds (and the whole value
// found again by its path), runs turned into tree rows and a header.
import assert from 'node:assert/strict';
import { Payload, RunRow, TraceHeader } from '../../src/protocol/trace';
import { cutPayload, valueAt, valueText, DEFAULT_LIMITS } from '../../src/webviews/run/payload';
import { epochMs, headerOf, rootOf, slimRows, toRow, toTurn } from '../../src/webviews/run/rows';
import type { Run } from '../../src/client';

const ROOT = '00000000-0000-4000-8000-000000000001';
const CHILD = '00000000-0000-4000-8000-000000000002';

describe('trace payloads: cut for the page, whole by path', () => {
  it('keeps a small value as it is, with no cuts, and says its size', () => {
    const value = { question: 'What is 2 + 2?', n: 4, ok: true, list: [1, 2, 3], nested: { a: null } };
    const p = cutPayload(value);
    assert.deepEqual(JSON.parse(JSON.stringify(p.value)), value);
    assert.deepEqual(p.cuts, []);
    assert.equal(p.bytes, JSON.stringify(value).length);
    assert.ok(Payload.safeParse(p).success);
  });

  it('cuts a 20 MB string to its first characters and lists where', () => {
    const big = 'x'.repeat(20_000_000);
    const p = cutPayload({ output: { text: big } });
    const text = (p.value as { output: { text: string } }).output.text;
    assert.equal(text.length, DEFAULT_LIMITS.string);
    assert.deepEqual(p.cuts, [{ path: ['output', 'text'], kind: 'string', length: 20_000_000 }]);
    assert.ok(p.bytes > 20_000_000);
    assert.ok(JSON.stringify(p).length < 100_000, 'what reaches the page is small');
  });

  it('cuts long arrays and wide objects, and spends a budget over many medium values', () => {
    const items = Array.from({ length: 5_000 }, (_, i) => ({ i, text: 'y'.repeat(1_000) }));
    const wide = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, i]));
    const p = cutPayload({ items, wide });
    const v = p.value as { items: unknown[]; wide: Record<string, unknown> };
    assert.equal(v.items.length, DEFAULT_LIMITS.array);
    assert.equal(Object.keys(v.wide).length < 2_000, true);
    assert.deepEqual(p.cuts.find((c) => c.path[0] === 'items'), { path: ['items'], kind: 'array', length: 5_000 });
    assert.equal(p.cuts.find((c) => c.path[0] === 'wide')?.kind, 'object');
    assert.ok(JSON.stringify(p.value).length < 1_500_000);
  });

  it('cuts what is nested too deep instead of recursing without end', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    // JSON of 10,000 levels is fine for V8's stringify; the cut stops at the depth limit.
    const p = cutPayload(deep);
    assert.equal(p.cuts.length, 1);
    assert.equal(p.cuts[0]!.path.length, DEFAULT_LIMITS.depth);
  });

  it('keeps a key named __proto__ as a key, and touches no prototype', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown;
    const p = cutPayload(value);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.deepEqual(Object.keys(p.value as object).sort(), ['__proto__', 'a']);
    assert.deepEqual(valueAt(value, ['__proto__']), { polluted: true });
  });

  it('finds the whole value by its path, own keys only', () => {
    const value = { messages: [{ role: 'user', content: 'hi' }], text: 'z' };
    assert.equal(valueAt(value, ['messages', 0, 'content']), 'hi');
    assert.equal(valueAt(value, ['messages', 1]), undefined);
    assert.equal(valueAt(value, ['messages', 'length']), undefined);
    assert.equal(valueAt(value, ['toString']), undefined);
    assert.equal(valueText('plain'), 'plain');
    assert.equal(valueText({ a: 1 }), '{\n  "a": 1\n}');
  });
});

describe('trace rows: runs as the tree and the header show them', () => {
  const root: Run = {
    id: ROOT, name: 'Agent', run_type: 'chain', status: 'success', start_time: '2026-11-27T10:00:00.000000', end_time: '2026-11-27T10:00:02.500000',
    trace_id: ROOT, dotted_order: '20261127T100000000000Z' + ROOT, extra: { metadata: { thread_id: 'conv-1' } },
  } as Run;
  const llm: Run = {
    id: CHILD, name: 'ChatOpenAI', run_type: 'LLM', status: 'SUCCESS', start_time: '2026-11-27T10:00:01Z', end_time: '2026-11-27T10:00:02Z',
    parent_run_ids: [ROOT], trace_id: ROOT, prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, total_cost: 0.0012, prompt_cost: 0.001, completion_cost: 0.0002,
    first_token_time: '2026-11-27T10:00:01.250000Z',
  } as unknown as Run;

  it('reads times without a zone as UTC and lower-cases run types', () => {
    assert.equal(epochMs('2026-11-27T10:00:00'), Date.UTC(2026, 10, 27, 10));
    assert.equal(epochMs('not a time'), null);
    const row = toRow(llm);
    assert.ok(RunRow.safeParse(row).success);
    assert.equal(row.runType, 'llm');
    assert.equal(row.parentId, ROOT, 'the parent is the last of v2 ancestors');
    assert.equal(row.firstToken, Date.UTC(2026, 10, 27, 10, 0, 1, 250));
    assert.deepEqual(row.tokens, { prompt: 100, completion: 20, total: 120 });
    assert.deepEqual(row.cost, { prompt: 0.001, completion: 0.0002, total: 0.0012 });
  });

  it('marks a failed run and keeps the first line of its error', () => {
    const failed = toRow({ ...llm, error: '\nTimeoutError: the tool took too long\n  at call (tool.py:3)' } as Run);
    assert.equal(failed.status, 'error');
    assert.equal(failed.errorPreview, 'TimeoutError: the tool took too long');
    assert.equal(toRow({ ...llm, end_time: null, status: 'pending' } as unknown as Run).status, 'pending');
  });

  it('builds the header from the root, with the llm runs’ totals when the root has none', () => {
    const rows = [toRow(root), toRow(llm)];
    const found = rootOf([llm, root], ROOT)!;
    assert.equal(found.id, ROOT);
    const header = headerOf(found, rows, { traceId: ROOT, project: { id: CHILD, name: 'demo' }, shareUrl: null, readOnly: false });
    assert.ok(TraceHeader.safeParse(header).success);
    assert.equal(header.threadId, 'conv-1');
    assert.deepEqual(header.tokens, { prompt: 100, completion: 20, total: 120 });
    assert.equal(header.cost?.total, 0.0012);
    assert.equal(header.status, 'success');
  });

  it('says a trace runs while any run does and its root has not ended', () => {
    const pendingRoot = { ...root, end_time: null, status: 'pending' } as unknown as Run;
    const header = headerOf(pendingRoot, [toRow(pendingRoot), toRow(llm)], { traceId: ROOT, project: null, shareUrl: null, readOnly: true });
    assert.equal(header.status, 'pending');
  });

  it('sends rows in tree order without their dotted orders', () => {
    const a = { ...toRow(root) };
    const b = { ...toRow(llm), dottedOrder: `${a.dottedOrder}.20261127T100001000000Z${CHILD}` };
    const loose = { ...toRow({ ...llm, id: '00000000-0000-4000-8000-000000000003' } as Run), dottedOrder: '' };
    const slim = slimRows([loose, b, a]);
    assert.deepEqual(slim.map((r) => r.id), [ROOT, CHILD, loose.id]);
    assert.deepEqual(slim.map((r) => r.dottedOrder), ['', '', '']);
    assert.equal(slim[1]!.parentId, ROOT);
  });

  it('finds a root among runs whose trace id is not one of them', () => {
    const orphan = { ...llm, parent_run_ids: ['00000000-0000-4000-8000-00000000dead'] } as unknown as Run;
    assert.equal(rootOf([orphan], ROOT)?.id, CHILD);
  });

  it('makes a thread turn with small payload previews', () => {
    const turn = toTurn({
      trace_id: ROOT, root_run_id: ROOT, name: 'Turn', status: 'error', start_time: '2026-11-27T10:00:00Z', end_time: '2026-11-27T10:00:01Z', latency: 1,
      first_token_time: null, prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_cost: null, completion_cost: null, total_cost: null,
      error_preview: 'ValueError: bad\n  at x', inputs: { messages: [{ role: 'user', content: 'q'.repeat(50_000) }] }, outputs: { answer: 'a' },
    });
    assert.equal(turn.traceId, ROOT);
    assert.equal(turn.inputs?.cuts.length, 1);
    assert.equal(turn.cost, null);
    assert.equal(turn.errorPreview, 'ValueError: bad');
    assert.deepEqual(turn.tokens, { prompt: 10, completion: 5, total: 15 });
    assert.ok(JSON.stringify(turn).length < 10_000);
  });
});
