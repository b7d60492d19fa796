// Runnables against the real local server: its OpenAI-compatible `local-echo` model answers from the request
// (the roles it heard, the last user message), so each test can say exactly what the model was sent.
import assert from 'node:assert/strict';
import {
  AIMessage,
  DEFAULT_RECURSION_LIMIT,
  InMemoryHistoryStore,
  LangSmithClient,
  LangSmithError,
  LangSmithValidationError,
  OpenAIChatModel,
  PromptTemplate,
  RecursionLimitError,
  RunnableLambda,
  RunnableSequence,
  RunnableWithMessageHistory,
  StringOutputParser,
  collect,
  type Run,
} from '../../src/client';
import { MSG } from '../../src/client/messages';
import { chatPromptManifest } from '../../src/client/templates';
import { withLocalServer } from '../harness/localServer';
import { clientFor, setFaults, unique } from './_server';

describe('client ↔ local server: runnables, chat model, history, traces', () => {
  const srv = withLocalServer();
  let c: LangSmithClient;
  before(() => {
    c = clientFor(srv());
  });

  const model = (o: Partial<ConstructorParameters<typeof OpenAIChatModel>[0]> = {}) =>
    new OpenAIChatModel({ baseUrl: `${srv().url}/v1`, apiKey: srv().apiKey, model: 'local-echo', retryBaseDelayMs: 5, retryMaxDelayMs: 50, ...o });

  const prompt = (followUp = false) =>
    PromptTemplate.fromManifest(
      chatPromptManifest([
        { role: 'system', template: 'You summarize in {max_words} words.' },
        { role: 'human', template: 'Ticket: {ticket}' },
      ]),
      followUp ? { followUp: { historyKey: 'chat_history', inputKey: 'follow_up' } } : {},
    );

  const chain = (followUp = false) => prompt(followUp).pipe(model()).pipe(new StringOutputParser());

  /** Counts the server's chat requests by watching what goes over the wire. */
  function countingFetch(): { fetch: typeof fetch; calls: () => number } {
    let n = 0;
    const f = ((input: string | URL | Request, init?: RequestInit) => {
      if (String(input).includes('/chat/completions')) n++;
      return fetch(input, init);
    }) as typeof fetch;
    return { fetch: f, calls: () => n };
  }

  describe('recursion limit (spec §9: default 25)', () => {
    /** A lambda that hands over to itself `n` more times: n + 1 nested calls. */
    const recurse = (n: number): RunnableLambda<number, number> => new RunnableLambda((x: number) => (n > 0 ? recurse(n - 1) : x + 1), `step-${n}`);

    it('defaults to 25: 25 nested calls run, a 26th is refused naming the limit', async () => {
      assert.equal(DEFAULT_RECURSION_LIMIT, 25);
      assert.equal(await recurse(24).invoke(1), 2);
      await assert.rejects(recurse(25).invoke(1), (e: unknown) => {
        assert.ok(e instanceof RecursionLimitError);
        assert.equal(e.limit, 25);
        assert.match(e.message, /^Recursion limit of 25 reached/);
        assert.match(e.message, /recursionLimit/);
        return true;
      });
    });

    it('takes a custom limit from the call config, and refuses a limit that is not a positive integer', async () => {
      assert.equal(await recurse(4).invoke(1, { recursionLimit: 5 }), 2);
      await assert.rejects(recurse(5).invoke(1, { recursionLimit: 5 }), /Recursion limit of 5 reached/);
      assert.equal(await recurse(40).invoke(1, { recursionLimit: 50 }), 2);
      for (const bad of [0, -1, 2.5, Number.NaN]) {
        assert.throws(() => recurse(1).invoke(1, { recursionLimit: bad }), /recursionLimit must be a positive integer/);
      }
    });

    it('counts nesting through sequences too, and a refused chain calls no model', async () => {
      const wire = countingFetch();
      const deep = (n: number): RunnableLambda<Record<string, unknown>, unknown> =>
        new RunnableLambda((v: Record<string, unknown>) => (n > 0 ? deep(n - 1) : v));
      const seq = RunnableSequence.from<Record<string, unknown>, string>([deep(3) as never, prompt() as never, model({ fetch: wire.fetch }) as never, new StringOutputParser() as never]);
      // The sequence (1) → four lambdas (2..5): a limit of 4 stops it in the lambdas, before the model.
      await assert.rejects(seq.invoke({ max_words: 5, ticket: 't' }, { recursionLimit: 4 }), RecursionLimitError);
      assert.equal(wire.calls(), 0);
      assert.match(await seq.invoke({ max_words: 5, ticket: 't' }, { recursionLimit: 5 }), /^local-echo heard 2 message/);
      assert.equal(wire.calls(), 1);
    });
  });

  describe('prompt → model → parser', () => {
    const throttled = withLocalServer({ faults: '429:1' });
    const slow = withLocalServer({ chatDelayMs: 30 });

    it('invoke: the rendered messages reach the model, the answer comes back as text with usage on the message', async () => {
      const out = await chain().invoke({ max_words: 12, ticket: 'Printer jams' });
      assert.equal(out, 'local-echo heard 2 messages: system, user.\nLast user message: Ticket: Printer jams');
      const msg = await prompt().pipe(model()).invoke({ max_words: 12, ticket: 'Printer jams' });
      assert.ok(msg instanceof AIMessage);
      assert.ok(msg.usage && msg.usage.input_tokens > 0 && msg.usage.output_tokens > 0);
      assert.equal(msg.usage.total_tokens, msg.usage.input_tokens + msg.usage.output_tokens);
      assert.equal(msg.responseMetadata.finish_reason, 'stop');
      assert.equal(msg.responseMetadata.model, 'local-echo');
    });

    it('a missing f-string value gives the spec message before any model call', async () => {
      const wire = countingFetch();
      const c2 = prompt().pipe(model({ fetch: wire.fetch }));
      await assert.rejects(c2.invoke({ max_words: 3 }), (e: unknown) => e instanceof LangSmithValidationError && e.message === MSG.missingFStringInput('ticket'));
      assert.throws(() => prompt().format({ ticket: 'x' }), { message: '(f-string) Missing value for input max_words' });
      assert.equal(wire.calls(), 0);
    });

    it('stream: pieces arrive one by one and put together equal the invoked answer (undici and fetch transports)', async () => {
      const values = { max_words: 7, ticket: 'The login page shows a blank screen after the update' };
      const whole = await chain().invoke(values);
      for (const transport of ['undici', 'fetch'] as const) {
        const c2 = prompt().pipe(model(transport === 'fetch' ? { fetch: globalThis.fetch } : {})).pipe(new StringOutputParser());
        const pieces = await collect(c2.stream(values));
        assert.ok(pieces.length > 5, `${transport}: ${pieces.length} pieces`);
        assert.ok(pieces.every((p) => typeof p === 'string' && p.length > 0));
        assert.equal(pieces.join(''), whole, transport);
      }
      // The model's own stream ends with the usage the server reports.
      const chunks = await collect(prompt().pipe(model()).stream(values));
      const merged = chunks.reduce((a, b) => a.concat(b));
      assert.equal(merged.content, whole);
      assert.ok(merged.usage && merged.usage.output_tokens > 0);
      assert.equal(merged.responseMetadata.finish_reason, 'stop');
    });

    it('model settings go on the request: max tokens cuts the answer, temperature is heard', async () => {
      const out = await prompt().pipe(model({ temperature: 0.3 })).pipe(new StringOutputParser()).invoke({ max_words: 1, ticket: 'x' });
      assert.match(out, /temperature: 0\.3$/);
      const cut = await prompt().pipe(model({ maxTokens: 3 })).invoke({ max_words: 1, ticket: 'x' });
      assert.equal(cut.responseMetadata.finish_reason, 'length');
      assert.equal(cut.usage?.output_tokens, 3);
    });

    it('a string prompt goes as one user message', async () => {
      const p = new PromptTemplate({ kind: 'string', template: 'Say {thing}', templateFormat: 'f-string', inputVariables: ['thing'] });
      assert.equal(await p.pipe(model()).pipe(new StringOutputParser()).invoke({ thing: 'hi' }), 'local-echo heard 1 message: user.\nLast user message: Say hi');
    });

    it('errors of the model endpoint name the action and status: 401 with a wrong key, 404 for a wrong base URL, unreachable', async () => {
      await assert.rejects(prompt().pipe(model({ apiKey: 'wrong' })).invoke({ max_words: 1, ticket: 'x' }), (e: unknown) => {
        assert.ok(e instanceof LangSmithError);
        assert.equal(e.status, 401);
        assert.match(e.message, /^Failed to get a chat completion from local-echo: 401/);
        assert.doesNotMatch(e.message, /wrong/, 'the key is not echoed');
        return true;
      });
      await assert.rejects(prompt().pipe(model({ baseUrl: `${srv().url}/nope` })).invoke({ max_words: 1, ticket: 'x' }), (e: unknown) => e instanceof LangSmithError && e.status === 404);
      await assert.rejects(
        prompt().pipe(model({ baseUrl: 'http://127.0.0.1:9/v1', maxRetries: 0 })).invoke({ max_words: 1, ticket: 'x' }),
        (e: unknown) => e instanceof LangSmithError && /^Failed to get a chat completion from local-echo: /.test(e.message),
      );
      assert.throws(() => model({ baseUrl: 'ftp://x' }), /http or https/);
      assert.throws(() => model({ model: ' ' }), /needs a model name/);
    });

    it('a 429 from the model is retried after Retry-After; stopping a stream aborts the request', async () => {
      const retrying = new OpenAIChatModel({ baseUrl: `${throttled().url}/v1`, apiKey: throttled().apiKey, model: 'local-echo', maxRetries: 1, retryBaseDelayMs: 1, retryMaxDelayMs: 5 });
      await assert.rejects(retrying.invoke('hi'), (e: unknown) => e instanceof LangSmithError && e.status === 429);
      await setFaults(throttled(), '');
      assert.match((await retrying.invoke('hi')).content, /^local-echo heard 1/);
      const streaming = new OpenAIChatModel({ baseUrl: `${slow().url}/v1`, apiKey: slow().apiKey, model: 'local-echo' });
      const ctl = new AbortController();
      const seen: string[] = [];
      await assert.rejects(
        (async () => {
          for await (const piece of streaming.stream('one two three four five six seven eight nine ten', { signal: ctl.signal })) {
            seen.push(piece.content);
            if (seen.length === 3) ctl.abort(new Error('stopped by the user'));
          }
        })(),
        /stopped by the user/,
      );
      assert.ok(seen.length >= 3 && seen.length < 10, `${seen.length} pieces before the stop`);
    });
  });

  describe('history wrapper (spec §5: a sessionId is required)', () => {
    const store = new InMemoryHistoryStore();
    const withHistory = () =>
      new RunnableWithMessageHistory(chain(true), { getMessageHistory: (id) => store.get(id), inputMessagesKey: 'follow_up', historyMessagesKey: 'chat_history' });

    it('refuses a call without a sessionId before anything runs', async () => {
      const wire = countingFetch();
      const w = new RunnableWithMessageHistory(prompt(true).pipe(model({ fetch: wire.fetch })), { getMessageHistory: (id) => store.get(id), inputMessagesKey: 'follow_up', historyMessagesKey: 'chat_history' });
      for (const config of [undefined, {}, { configurable: {} }, { configurable: { sessionId: '' } }, { configurable: { sessionId: '  ' } }]) {
        await assert.rejects(w.invoke({ max_words: 1, ticket: 't' }, config), (e: unknown) => e instanceof LangSmithValidationError && e.message === MSG.sessionIdRequired);
        assert.throws(() => w.stream({ max_words: 1, ticket: 't' }, config), { message: MSG.sessionIdRequired });
      }
      assert.match(MSG.sessionIdRequired, /requires a sessionId/);
      assert.equal(wire.calls(), 0);
      assert.deepEqual(store.sessionIds, []);
    });

    it('keeps each session’s turns and sends them on the next call; sessions do not see each other', async () => {
      const w = withHistory();
      const values = { max_words: 5, ticket: 'Refund not received' };
      const a1 = await w.invoke({ ...values, follow_up: null }, { configurable: { sessionId: 'a' } });
      assert.equal(a1, 'local-echo heard 2 messages: system, user.\nLast user message: Ticket: Refund not received');
      const a2 = await w.invoke({ ...values, follow_up: 'Shorter, please' }, { configurable: { sessionId: 'a' } });
      assert.equal(a2, 'local-echo heard 4 messages: system, user, assistant, user.\nLast user message: Shorter, please');
      // Streamed turns count the same as invoked ones.
      const a3 = (await collect(w.stream({ ...values, follow_up: 'And in French?' }, { configurable: { sessionId: 'a' } }))).join('');
      assert.equal(a3, 'local-echo heard 6 messages: system, user, assistant, user, assistant, user.\nLast user message: And in French?');
      assert.deepEqual(
        store.get('a').getMessages().map((m) => m.role),
        ['ai', 'human', 'ai', 'human', 'ai'],
      );
      assert.equal(store.get('a').getMessages()[1]!.content, 'Shorter, please');
      // Session b starts empty.
      const b1 = await w.invoke({ ...values, follow_up: 'Hello' }, { configurable: { sessionId: 'b' } });
      assert.equal(b1, 'local-echo heard 3 messages: system, user, user.\nLast user message: Hello');
      assert.equal(store.get('b').getMessages().length, 2);
      assert.equal(store.get('a').getMessages().length, 5);
    });

    it('a failed turn adds nothing to the history', async () => {
      const store2 = new InMemoryHistoryStore();
      const failing = new RunnableWithMessageHistory(prompt(true).pipe(model({ apiKey: 'wrong', maxRetries: 0 })), {
        getMessageHistory: (id) => store2.get(id),
        inputMessagesKey: 'follow_up',
        historyMessagesKey: 'chat_history',
      });
      await assert.rejects(failing.invoke({ max_words: 1, ticket: 't', follow_up: 'hi' }, { configurable: { sessionId: 's' } }), /401/);
      assert.equal(store2.get('s').getMessages().length, 0);
    });
  });

  describe('traces: a run tree per call, sent on flush', () => {
    async function runsOf(projectName: string): Promise<Run[]> {
      return collect(c.runs.query({ projectName }));
    }

    it('chain → prompt → llm → parser with inputs, outputs, tokens and timing; nothing sent before flush', async () => {
      const projectName = unique('playground');
      const tracer = c.createTracer({ manualFlush: true, projectName });
      const requestsBefore = c.http.stats.requests;
      const out = await chain().invoke({ max_words: 4, ticket: 'Disk full' }, { tracer, runName: 'Playground', tags: ['playground'], metadata: { source: 'test' } });
      assert.equal(tracer.pendingCount, 4);
      assert.equal(c.http.stats.requests, requestsBefore, 'nothing sent before flush');
      await tracer.flush();
      assert.equal(tracer.pendingCount, 0);
      const runs = await runsOf(projectName);
      assert.equal(runs.length, 4);
      const root = runs.find((r) => !r.parent_run_id)!;
      assert.equal(root.name, 'Playground');
      assert.equal(root.run_type, 'chain');
      assert.deepEqual(root.inputs, { max_words: 4, ticket: 'Disk full' });
      assert.deepEqual(root.outputs, { output: out });
      assert.deepEqual(root.tags, ['playground']);
      const kids = runs.filter((r) => r.parent_run_id === root.id).sort((a, b) => a.dotted_order!.localeCompare(b.dotted_order!));
      assert.deepEqual(kids.map((r) => [r.name, r.run_type]), [['ChatPromptTemplate', 'prompt'], ['ChatOpenAI', 'llm'], ['StrOutputParser', 'parser']]);
      for (const k of kids) {
        assert.equal(k.trace_id, root.id);
        assert.ok(k.end_time && k.start_time);
        assert.deepEqual(k.tags, ['playground']);
        assert.equal((k.extra as { metadata?: { source?: string } }).metadata?.source, 'test');
      }
      const llm = kids[1]!;
      assert.deepEqual((llm.inputs as { messages: unknown }).messages, [
        { role: 'system', content: 'You summarize in 4 words.' },
        { role: 'user', content: 'Ticket: Disk full' },
      ]);
      assert.equal(((llm.outputs as { choices: { message: { content: string } }[] }).choices[0]!.message.content), out);
      const tokens = (k: string) => Number((llm as Record<string, unknown>)[k] ?? 0);
      assert.ok(tokens('total_tokens') > 0 && tokens('total_tokens') === tokens('prompt_tokens') + tokens('completion_tokens'));
      assert.equal((llm.extra as { metadata: Record<string, unknown> }).metadata['ls_model_name'], 'local-echo');
      assert.deepEqual(kids[2]!.outputs, { output: out });
    });

    it('a streamed call is traced the same way, and a failed call records its error on the llm run and the root', async () => {
      const projectName = unique('playground');
      const tracer = c.createTracer({ manualFlush: true, projectName });
      const runId = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
      const text = (await collect(chain().stream({ max_words: 4, ticket: 'Stream me' }, { tracer, runId }))).join('');
      await assert.rejects(prompt().pipe(model({ apiKey: 'wrong', maxRetries: 0 })).invoke({ max_words: 1, ticket: 'x' }, { tracer }), /401/);
      await tracer.flush();
      const runs = await runsOf(projectName);
      const streamed = runs.filter((r) => r.trace_id === runId);
      assert.equal(streamed.length, 4);
      assert.deepEqual(streamed.find((r) => r.id === runId)!.outputs, { output: text });
      assert.ok(Number((streamed.find((r) => r.run_type === 'llm') as Record<string, unknown>)['total_tokens'] ?? 0) > 0);
      // Steps start in the order they work, streamed or not.
      const kidsOf = (root: string) => streamed.filter((r) => r.parent_run_id === root).sort((a, b) => a.dotted_order!.localeCompare(b.dotted_order!));
      assert.deepEqual(kidsOf(runId).map((r) => r.run_type), ['prompt', 'llm', 'parser']);
      assert.deepEqual(
        kidsOf(runId).map((r) => r.start_time),
        [...kidsOf(runId)].sort((a, b) => String(a.start_time).localeCompare(String(b.start_time))).map((r) => r.start_time),
      );
      // …and a run's children are listed in that order (same-millisecond starts are told apart by dotted order).
      const listed = await collect(c.runs.query({ projectName, parentRunId: runId, order: 'asc' }));
      assert.deepEqual(listed.map((r) => r.run_type), ['prompt', 'llm', 'parser']);
      // Steps fed by a stream still record their whole input.
      const full = await Promise.all(streamed.map((r) => c.runs.read(r.id)));
      assert.deepEqual((full.find((r) => r.run_type === 'llm')!.inputs as { messages: unknown }).messages, [
        { role: 'system', content: 'You summarize in 4 words.' },
        { role: 'user', content: 'Ticket: Stream me' },
      ]);
      assert.equal((full.find((r) => r.run_type === 'parser')!.inputs as { content?: string }).content, text);
      assert.deepEqual(full.find((r) => r.run_type === 'prompt')!.inputs, { max_words: 4, ticket: 'Stream me' });
      const failed = runs.filter((r) => r.trace_id !== runId);
      assert.equal(failed.length, 3, 'sequence, prompt, llm (the failure stops the chain)');
      const failedLlm = failed.find((r) => r.run_type === 'llm')!;
      assert.match(failedLlm.error ?? '', /401/);
      assert.match(failed.find((r) => !r.parent_run_id)!.error ?? '', /401/);
    });

    it('a failed flush reports the error and keeps the runs; the next flush sends each exactly once', async () => {
      const projectName = unique('playground');
      const client = clientFor(srv(), { maxRetries: 0 });
      const tracer = client.createTracer({ manualFlush: true, projectName });
      await chain().invoke({ max_words: 2, ticket: 'a' }, { tracer });
      await setFaults(srv(), '503:1');
      try {
        await assert.rejects(tracer.flush(), (e: unknown) => e instanceof LangSmithError && e.status === 503);
        assert.equal(tracer.pendingCount, 4, 'kept');
      } finally {
        await setFaults(srv(), '');
      }
      await chain().invoke({ max_words: 2, ticket: 'b' }, { tracer });
      assert.equal(tracer.pendingCount, 8);
      await tracer.flush();
      await tracer.flush();
      assert.equal(tracer.pendingCount, 0);
      const runs = await runsOf(projectName);
      assert.equal(runs.length, 8);
      assert.equal(new Set(runs.map((r) => r.id)).size, 8);
    });
  });
});
