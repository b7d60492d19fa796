// The OpenAI-compatible chat endpoint (server/routes/chat.ts) and its deterministic model local-echo
// (server/chatModel.ts), driven by the official `openai` client.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionChunk, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import {
  LOCAL_MODEL_CREATED, completeChat, countTokens, cutAnswer, localEchoAnswer, promptTokens, streamPieces, type ChatMessage,
  JUDGE_HEADINGS as SERVER_JUDGE_HEADINGS, JUDGE_SYSTEM_PREFIX as SERVER_JUDGE_SYSTEM_PREFIX,
} from '../../server/chatModel';
import { JUDGE_HEADINGS, JUDGE_SYSTEM_PREFIX } from '../../src/experiments/types';
import { openChatStreams } from '../../server/routes/chat';
import type { DB } from '../../server/db';
import { startLocalServer, withLocalServer, type LocalServer } from '../harness/localServer';
import { rawRequest } from '../harness/http';
import { sleep } from './helpers';
import { bundleServerCli } from '../harness/serverCli';

const ROOT = path.resolve(__dirname, '..', '..');

function openai(srv: { url: string; apiKey: string }, opts: { apiKey?: string; headers?: Record<string, string | null> } = {}): OpenAI {
  return new OpenAI({ baseURL: `${srv.url}/v1`, apiKey: opts.apiKey ?? srv.apiKey, maxRetries: 0, timeout: 20_000, defaultHeaders: opts.headers });
}

/** The messages as the model module types them (the client's types are wider). */
const asChat = (messages: ChatCompletionMessageParam[]) => messages as unknown as ChatMessage[];

const CONVERSATION: ChatCompletionMessageParam[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: [{ type: 'text', text: 'Hello' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }, { type: 'text', text: 'world!' }] },
  { role: 'assistant', content: 'Hi.' },
  { role: 'user', content: 'What is 2+2?' },
];

/** Rows in every table: the endpoint must store nothing. */
function rowCounts(db: DB): Record<string, number> {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>;
  return Object.fromEntries(tables.map(({ name }) => [name, (db.prepare(`SELECT COUNT(*) AS n FROM "${name}"`).get() as { n: number }).n]));
}

/** Reads a stream to its end: the chunks, and the content they add up to. */
async function readStream(stream: AsyncIterable<ChatCompletionChunk>) {
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const content = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
  return { chunks, content };
}

/** Expects the promise to fail with an OpenAI API error of the given class; returns it. */
async function apiError<E extends InstanceType<typeof OpenAI.APIError>>(p: Promise<unknown>, cls: new (...args: any[]) => E): Promise<E> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof cls, `expected ${cls.name}, got ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`);
    return e;
  }
  assert.fail(`expected ${cls.name}, but the call succeeded`);
}

describe('OpenAI-compatible chat completions (local-echo)', function () {
  this.timeout(60_000);

  describe('the model', () => {
    it('answers with the documented lines, and counts tokens by the documented rule', () => {
      const answer = localEchoAnswer({ model: 'local-echo', messages: asChat(CONVERSATION), temperature: 0.5 });
      assert.equal(answer, 'local-echo heard 4 messages: system, user, assistant, user.\nLast user message: What is 2+2?\ntemperature: 0.5');
      assert.equal(
        localEchoAnswer({ model: 'gpt-4o', messages: [{ role: 'system', content: 'Be kind.' }] }),
        'local-echo heard 1 message: system.\n(Asked for gpt-4o; this local server answers with local-echo.)\nNo user message.',
      );
      assert.equal(
        localEchoAnswer({ model: 'local-echo', messages: asChat(CONVERSATION.slice(0, 2)), temperature: 0 }),
        'local-echo heard 2 messages: system, user.\nLast user message: Hello\nworld!\ntemperature: 0',
        'text parts are joined with a newline, other parts ignored; temperature 0 is shown',
      );
      // Words (letters, digits, _) are one token each; every other visible character is a token of its own.
      assert.equal(countTokens('What is 2+2?'), 6);
      assert.equal(countTokens('snake_case x1 — ünïcödé  \n'), 4);
      assert.equal(countTokens(''), 0);
      // (4+3) + (3+3) + (2+3) + (6+3) + 3
      assert.equal(promptTokens(asChat(CONVERSATION)), 30);
      // 15 + 10 + 5 tokens on the three lines
      assert.deepEqual(completeChat({ model: 'local-echo', messages: asChat(CONVERSATION), temperature: 0.5 }).usage, { prompt_tokens: 30, completion_tokens: 30, total_tokens: 60 });
      assert.deepEqual(cutAnswer('local-echo heard 2 messages', { maxTokens: 4 }), { text: 'local-echo heard', finishReason: 'length' });
      assert.deepEqual(cutAnswer('local-echo heard 2 messages', { maxTokens: 6 }), { text: 'local-echo heard 2 messages', finishReason: 'stop' });
      assert.deepEqual(cutAnswer('a b. c d', { stop: ['d', '.'], maxTokens: 1 }), { text: 'a', finishReason: 'length' });
      assert.deepEqual(cutAnswer('a b. c d', { stop: ['d', '.'], maxTokens: 2 }), { text: 'a b', finishReason: 'stop' });
      assert.deepEqual(streamPieces('local-echo heard\n2.'), ['local', '-', 'echo ', 'heard\n', '2', '.']);
    });
  });

  describe('the LLM judge rule', () => {
    /** A judge request as the extension's judge lays it out (src/experiments/types.ts). */
    const judgeMessages = (s: { rubric?: string; input?: string; reference?: string; answer?: string }): ChatCompletionMessageParam[] => [
      { role: 'system', content: `${JUDGE_SYSTEM_PREFIX} Score the answer from 0 to 1 and reply with JSON {"score": number, "comment": string}.` },
      {
        role: 'user',
        content: (['rubric', 'input', 'reference', 'answer'] as const)
          .filter((k) => s[k] !== undefined)
          .map((k) => `${JUDGE_HEADINGS[k]}\n${s[k]}`)
          .join('\n\n'),
      },
    ];
    /** The rule, computed here from its wording: the share of the reference's distinct words found in the answer. */
    const expected = (reference: string, answer: string) => {
      const words = (t: string) => [...new Set(t.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean))];
      const ref = words(reference);
      const ans = new Set(words(answer));
      const found = ref.filter((w) => ans.has(w)).length;
      const score = ans.size === 0 ? 0 : ref.length === 0 ? 1 : Number((found / ref.length).toFixed(2));
      return JSON.stringify({ score, comment: `local-echo judge: ${found} of ${ref.length} reference words found in the answer.` });
    };

    it('uses the same system prefix and headings as the extension’s judge', () => {
      assert.equal(SERVER_JUDGE_SYSTEM_PREFIX, JUDGE_SYSTEM_PREFIX);
      assert.deepEqual(SERVER_JUDGE_HEADINGS, JUDGE_HEADINGS);
    });

    it('scores the share of the reference’s distinct words found in the answer, with the documented comment', () => {
      const cases: Array<[string, string]> = [
        ['Annual plans can be refunded', 'Plans are refunded, sorry.'],
        ['US and EU.', 'We host in the EU and the US.'],
        ['Go to Settings → Security', 'no idea'],
        ['Ünïcödé WORDS words', 'ünïcödé'],
        ['', 'anything at all'],
        ['something', ''],
        ['', ''],
        ['snake_case 2+2', 'snake case 2'],
      ];
      for (const [reference, answer] of cases) {
        const text = localEchoAnswer({ model: 'gpt-4o-mini', messages: asChat(judgeMessages({ rubric: 'Is it right?', input: 'Q', reference, answer })) });
        assert.equal(text, expected(reference, answer), `reference ${JSON.stringify(reference)}, answer ${JSON.stringify(answer)}`);
      }
      // The brief's own example: two of three reference words.
      assert.equal(
        localEchoAnswer({ model: 'local-echo', messages: asChat(judgeMessages({ reference: 'red green blue', answer: 'Green and RED.' })) }),
        '{"score":0.67,"comment":"local-echo judge: 2 of 3 reference words found in the answer."}',
      );
    });

    it('reads the sections by their heading lines; the rubric and input do not count; other requests are echoed', () => {
      // Words of the rubric and the input (and a heading-like text inside a line) are not the answer's.
      const msgs = judgeMessages({ rubric: 'blue sky', input: 'blue sky ## Answer blue', reference: 'blue sky', answer: 'the sky' });
      assert.equal(localEchoAnswer({ model: 'local-echo', messages: asChat(msgs) }), expected('blue sky', 'the sky'));
      // Sections in another order and with spaces around a heading still count.
      const reordered: ChatCompletionMessageParam[] = [msgs[0]!, { role: 'user', content: `  ${JUDGE_HEADINGS.answer}  \nsky blue\n${JUDGE_HEADINGS.reference}\nblue sky` }];
      assert.equal(localEchoAnswer({ model: 'local-echo', messages: asChat(reordered) }), expected('blue sky', 'sky blue'));
      // Not the first message, or another prefix: the ordinary echo.
      const notJudge = localEchoAnswer({ model: 'local-echo', messages: asChat([{ role: 'user', content: 'hi' }, ...msgs]) });
      assert.match(notJudge, /^local-echo heard 3 messages/);
      assert.match(localEchoAnswer({ model: 'local-echo', messages: asChat([{ role: 'system', content: 'You are helpful.' }, msgs[1]!]) }), /^local-echo heard 2 messages/);
    });

    it('answers a judge request over HTTP with the verdict, counted as usual', async () => {
      const srv = await startLocalServer();
      try {
        const messages = judgeMessages({ rubric: 'Correct?', input: 'What regions do you host data in?', reference: 'US and EU.', answer: 'Only the EU.' });
        const res = await openai(srv).chat.completions.create({ model: 'gpt-4o-mini', messages, temperature: 0 });
        const content = res.choices[0]!.message.content!;
        assert.equal(content, expected('US and EU.', 'Only the EU.'));
        assert.deepEqual(JSON.parse(content), { score: 0.33, comment: 'local-echo judge: 1 of 3 reference words found in the answer.' });
        assert.deepEqual(res.usage, {
          prompt_tokens: promptTokens(asChat(messages)), completion_tokens: countTokens(content), total_tokens: promptTokens(asChat(messages)) + countTokens(content),
        });
      } finally {
        await srv.close();
      }
    });
  });

  describe('against a server', () => {
    const srv = withLocalServer();

    it('GET /v1/models lists local-echo; retrieving another model is a 404 in OpenAI shape', async () => {
      const models = await openai(srv()).models.list();
      assert.deepEqual(models.data, [{ id: 'local-echo', object: 'model', created: LOCAL_MODEL_CREATED, owned_by: 'langsmith-workbench' }]);
      const raw = await rawRequest(srv(), 'GET', '/v1/models');
      assert.deepEqual(raw.body, { object: 'list', data: models.data });
      assert.equal((await openai(srv()).models.retrieve('local-echo')).id, 'local-echo');
      const missing = await apiError(openai(srv()).models.retrieve('gpt-4o'), OpenAI.NotFoundError);
      assert.deepEqual(missing.error, {
        message: "The model 'gpt-4o' does not exist or you do not have access to it.", type: 'invalid_request_error', param: 'model', code: 'model_not_found',
      });
    });

    it('a completion: the builder’s text, the tokenizer’s usage, OpenAI’s shape; nothing stored', async () => {
      const before = rowCounts(srv().server.db);
      const params: ChatCompletionCreateParamsNonStreaming = { model: 'local-echo', messages: CONVERSATION, temperature: 0.5, seed: 7, user: 'u1', top_p: 1 };
      const t0 = Math.floor(Date.now() / 1000);
      const res = await openai(srv()).chat.completions.create(params);
      const expected = completeChat({ ...params, messages: asChat(CONVERSATION) });
      assert.equal(res.choices[0].message.content, localEchoAnswer({ model: 'local-echo', messages: asChat(CONVERSATION), temperature: 0.5 }));
      assert.equal(res.choices[0].message.content, expected.content);
      assert.deepEqual(res.usage, expected.usage);
      assert.deepEqual(res.usage, { prompt_tokens: 30, completion_tokens: 30, total_tokens: 60 });
      assert.match(res.id, /^chatcmpl-[A-Za-z0-9]+$/);
      assert.ok(res.created >= t0 && res.created <= Math.ceil(Date.now() / 1000), `created ${res.created}`);
      assert.deepEqual({ ...res, id: 'x', created: 0 }, {
        id: 'x', object: 'chat.completion', created: 0, model: 'local-echo', system_fingerprint: 'local-echo-1',
        choices: [{ index: 0, message: { role: 'assistant', content: expected.content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
        usage: expected.usage,
      });
      const again = await openai(srv()).chat.completions.create(params);
      assert.notEqual(again.id, res.id, 'every answer has its own id');
      assert.equal(again.choices[0].message.content, res.choices[0].message.content, 'the same request, the same answer');
      assert.deepEqual(rowCounts(srv().server.db), before, 'no row was written');
    });

    it('another model name is answered by local-echo, which says so', async () => {
      const messages: ChatCompletionMessageParam[] = [{ role: 'developer', content: 'Rules.' }, { role: 'user', content: 'Hi there' }];
      const res = await openai(srv()).chat.completions.create({ model: 'gpt-4o-mini', messages });
      assert.equal(res.model, 'local-echo');
      const lines = res.choices[0].message.content!.split('\n');
      assert.deepEqual(lines, [
        'local-echo heard 2 messages: developer, user.',
        '(Asked for gpt-4o-mini; this local server answers with local-echo.)',
        'Last user message: Hi there',
      ]);
      assert.equal(res.choices[0].message.content, localEchoAnswer({ model: 'gpt-4o-mini', messages: asChat(messages) }));
    });

    it('streams the same text in one-token pieces and ends with usage', async () => {
      const messages: ChatCompletionMessageParam[] = [...CONVERSATION, { role: 'user', content: 'Tell me  a story,\nplease.' }];
      const stream = await openai(srv()).chat.completions.create({ model: 'gpt-x', messages, temperature: 1.25, stream: true, stream_options: { include_usage: true } });
      const { chunks, content } = await readStream(stream);
      const expected = completeChat({ model: 'gpt-x', messages: asChat(messages), temperature: 1.25 });
      assert.equal(content, expected.content);
      assert.ok(content.includes('Last user message: Tell me  a story,\nplease.'));
      // role chunk, one chunk per token, finish chunk, usage chunk
      assert.equal(chunks.length, 1 + countTokens(expected.content) + 2);
      assert.deepEqual(chunks[0].choices, [{ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }]);
      const pieces = chunks.slice(1, -2).map((c) => c.choices[0].delta.content);
      assert.deepEqual(pieces, streamPieces(expected.content));
      assert.ok(pieces.every((p) => countTokens(p!) === 1), 'one token per piece');
      assert.deepEqual(chunks.at(-2)!.choices, [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]);
      assert.deepEqual(chunks.at(-1)!.choices, []);
      assert.deepEqual(chunks.at(-1)!.usage, expected.usage);
      assert.ok(chunks.slice(0, -1).every((c) => c.usage === null), 'usage: null on the others, as OpenAI sends it');
      for (const c of chunks) {
        assert.equal(c.id, chunks[0].id);
        assert.match(c.id, /^chatcmpl-/);
        assert.equal(c.object, 'chat.completion.chunk');
        assert.equal(c.created, chunks[0].created);
        assert.equal(c.model, 'local-echo');
        assert.equal(c.system_fingerprint, 'local-echo-1');
      }
    });

    it('a stream on the wire: event-stream headers, data: events, [DONE]; no usage chunk unless asked', async () => {
      const res = await fetch(`${srv().url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'x-api-key': srv().apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'local-echo', messages: [{ role: 'user', content: 'ping' }], stream: true }),
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/event-stream');
      assert.equal(res.headers.get('cache-control'), 'no-cache');
      const text = await res.text();
      assert.ok(text.endsWith('\n\ndata: [DONE]\n\n'), text.slice(-80));
      const events = text.split('\n\n').filter(Boolean);
      assert.ok(events.every((e) => e.startsWith('data: ') && !e.slice(6).includes('\n')), 'one data line per event');
      const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
      assert.ok(chunks.every((c) => !('usage' in c) && c.choices.length === 1), 'no usage chunk, no usage field');
      assert.equal(chunks.map((c) => c.choices[0].delta.content ?? '').join(''), localEchoAnswer({ model: 'local-echo', messages: [{ role: 'user', content: 'ping' }] }));
      assert.equal(chunks.at(-1).choices[0].finish_reason, 'stop');
    });

    it('max_tokens / max_completion_tokens cut the answer with finish_reason "length", streamed or not', async () => {
      const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'one' }, { role: 'user', content: 'two' }];
      const full = localEchoAnswer({ model: 'local-echo', messages: asChat(messages) });
      const cut = await openai(srv()).chat.completions.create({ model: 'local-echo', messages, max_tokens: 5 });
      assert.equal(cut.choices[0].message.content, 'local-echo heard 2');
      assert.equal(cut.choices[0].finish_reason, 'length');
      assert.equal(cut.usage!.completion_tokens, 5);
      assert.equal(cut.usage!.prompt_tokens, promptTokens(asChat(messages)));
      const viaNewName = await openai(srv()).chat.completions.create({ model: 'local-echo', messages, max_completion_tokens: 8 });
      assert.deepEqual(
        { content: viaNewName.choices[0].message.content, finish: viaNewName.choices[0].finish_reason },
        { content: cutAnswer(full, { maxTokens: 8 }).text, finish: 'length' },
      );
      assert.equal(countTokens(viaNewName.choices[0].message.content!), 8);
      // Room for the whole answer: nothing is cut.
      const roomy = await openai(srv()).chat.completions.create({ model: 'local-echo', messages, max_tokens: countTokens(full) });
      assert.equal(roomy.choices[0].message.content, full);
      assert.equal(roomy.choices[0].finish_reason, 'stop');
      const stream = await openai(srv()).chat.completions.create({ model: 'local-echo', messages, max_tokens: 3, stream: true, stream_options: { include_usage: true } });
      const { chunks, content } = await readStream(stream);
      assert.equal(content, 'local-echo');
      assert.equal(chunks.at(-2)!.choices[0].finish_reason, 'length');
      assert.equal(chunks.at(-1)!.usage!.completion_tokens, 3);
    });

    it('stop cuts the answer before the first stop string, finish_reason "stop"', async () => {
      const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Where is the stop?' }];
      const one = await openai(srv()).chat.completions.create({ model: 'local-echo', messages, stop: 'Last user' });
      assert.equal(one.choices[0].message.content, 'local-echo heard 1 message: user.\n');
      assert.equal(one.choices[0].finish_reason, 'stop');
      assert.equal(one.usage!.completion_tokens, countTokens('local-echo heard 1 message: user.'));
      // The earliest of several stop strings wins; one that never occurs changes nothing.
      const several = await openai(srv()).chat.completions.create({ model: 'local-echo', messages, stop: ['never there', 'stop?', ':'] });
      assert.equal(several.choices[0].message.content, 'local-echo heard 1 message');
      const none = await openai(srv()).chat.completions.create({ model: 'local-echo', messages, stop: ['never there'] });
      assert.equal(none.choices[0].message.content, localEchoAnswer({ model: 'local-echo', messages: asChat(messages) }));
      const streamed = await readStream(await openai(srv()).chat.completions.create({ model: 'local-echo', messages, stop: ['stop?'], stream: true }));
      assert.equal(streamed.content, 'local-echo heard 1 message: user.\nLast user message: Where is the ');
      assert.equal(streamed.chunks.at(-1)!.choices[0].finish_reason, 'stop');
    });

    it('401 without a key or with a wrong one (AuthenticationError, OpenAI shape); x-api-key works too', async () => {
      const params = { model: 'local-echo', messages: [{ role: 'user' as const, content: 'hi' }] };
      const wrong = await apiError(openai(srv(), { apiKey: 'not-a-key' }).chat.completions.create(params), OpenAI.AuthenticationError);
      assert.equal(wrong.status, 401);
      assert.deepEqual(wrong.error, { message: 'Unauthorized: invalid API key', type: 'authentication_error', param: null, code: 'invalid_api_key' });
      // The client insists on a key; unsetting its Authorization header sends none.
      const none = await apiError(openai(srv(), { headers: { Authorization: null } }).chat.completions.create(params), OpenAI.AuthenticationError);
      assert.equal(none.status, 401);
      assert.equal(none.type, 'authentication_error');
      assert.match(none.message, /missing API key/);
      const models = await apiError(openai(srv(), { apiKey: 'nope' }).models.list(), OpenAI.AuthenticationError);
      assert.equal(models.code, 'invalid_api_key');
      const raw = await rawRequest(srv(), 'POST', '/v1/chat/completions', params, { apiKey: null });
      assert.equal(raw.status, 401);
      assert.deepEqual(Object.keys(raw.body), ['error']);
      // The other tenant's key is as good; so is x-api-key instead of Bearer.
      assert.equal((await openai(srv(), { apiKey: srv().otherApiKey }).chat.completions.create(params)).model, 'local-echo');
      const viaHeader = await rawRequest(srv(), 'POST', '/v1/chat/completions', params);
      assert.equal(viaHeader.status, 200);
      assert.equal(viaHeader.body.choices[0].message.content, localEchoAnswer(params));
    });

    it('400s name the problem: unknown argument, n ≠ 1, empty messages, bad role, wrong types, out of range', async () => {
      const c = openai(srv());
      const ok = { model: 'local-echo', messages: [{ role: 'user', content: 'hi' }] };
      const bad = async (body: Record<string, unknown>) => {
        const e = await apiError(c.chat.completions.create(body as any), OpenAI.BadRequestError);
        assert.equal(e.status, 400);
        assert.equal(e.type, 'invalid_request_error');
        return e;
      };
      const unknown = await bad({ ...ok, foo: 1 });
      assert.deepEqual(unknown.error, { message: 'Unrecognized request argument supplied: foo', type: 'invalid_request_error', param: null, code: null });
      const two = await bad({ ...ok, foo: 1, bar: 2 });
      assert.equal((two.error as any).message, 'Unrecognized request arguments supplied: foo, bar');
      const n = await bad({ ...ok, n: 2 });
      assert.match(n.message, /only n=1 is supported/i);
      assert.equal(n.param, 'n');
      const empty = await bad({ ...ok, messages: [] });
      assert.equal(empty.param, 'messages');
      assert.equal(empty.code, 'empty_array');
      const role = await bad({ ...ok, messages: [{ role: 'robot', content: 'hi' }] });
      assert.equal(role.param, 'messages[0].role');
      assert.match(role.message, /'robot'.*'system', 'developer', 'user', 'assistant', and 'tool'/);
      const temperature = await bad({ ...ok, temperature: 'hot' });
      assert.deepEqual([temperature.param, temperature.code], ['temperature', 'invalid_type']);
      assert.match(temperature.message, /Invalid type for 'temperature': expected a decimal, but got a string/);
      assert.equal((await bad({ ...ok, temperature: 2.5 })).code, 'decimal_above_max_value');
      assert.equal((await bad({ ...ok, top_p: -1 })).param, 'top_p');
      assert.equal((await bad({ ...ok, max_tokens: 0 })).code, 'integer_below_min_value');
      assert.equal((await bad({ ...ok, max_completion_tokens: 1.5 })).param, 'max_completion_tokens');
      assert.equal((await bad({ ...ok, stop: 5 })).param, 'stop');
      assert.equal((await bad({ ...ok, stream: 'yes' })).param, 'stream');
      assert.equal((await bad({ ...ok, model: '' })).code, 'empty_string');
      const missing = await bad({ model: 'local-echo' });
      assert.deepEqual([missing.param, missing.code], ['messages', 'missing_required_parameter']);
      const content = await bad({ ...ok, messages: [{ role: 'user', content: 42 }] });
      assert.equal(content.param, 'messages[0].content');
      assert.match(content.message, /expected a string or an array, but got an integer/);
      const part = await bad({ ...ok, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'x' } }, { type: 'text' }] }] });
      assert.deepEqual([part.param, part.code], ['messages[0].content[1].text', 'missing_required_parameter']);
      assert.equal((await bad({ ...ok, messages: [{ role: 'user', content: 'hi', name: 3 }] })).param, 'messages[0].name');
      // What applies elsewhere is accepted and ignored; null means "not given".
      const accepted = await c.chat.completions.create({
        ...ok, messages: [{ role: 'user', content: 'hi', name: 'ann' }], temperature: null, presence_penalty: 0.5, frequency_penalty: -0.5, response_format: { type: 'json_object' },
        metadata: { k: 'v' }, tools: [{ type: 'function', function: { name: 'f', parameters: {} } }], tool_choice: 'auto', parallel_tool_calls: false,
        logprobs: true, top_logprobs: 2, n: 1, stream: false,
      } as any);
      assert.equal(accepted.choices[0].message.content, localEchoAnswer({ model: 'local-echo', messages: [{ role: 'user', content: 'hi' }] }));
      assert.equal(accepted.choices[0].logprobs, null);
    });

    it('malformed JSON and unknown paths answer in OpenAI shape; LangSmith routes keep {detail}', async () => {
      const malformed = await rawRequest(srv(), 'POST', '/v1/chat/completions', undefined, { rawBody: '{"model": ', headers: { 'content-type': 'application/json' } });
      assert.equal(malformed.status, 400);
      assert.equal(malformed.body.error.type, 'invalid_request_error');
      assert.match(malformed.body.error.message, /JSON/);
      const notObject = await rawRequest(srv(), 'POST', '/v1/chat/completions', [1, 2]);
      assert.equal(notObject.status, 400);
      assert.match(notObject.body.error.message, /JSON object/);
      const unknownPath = await rawRequest(srv(), 'GET', '/v1/chat/completions/nope');
      assert.equal(unknownPath.status, 404);
      assert.deepEqual(unknownPath.body, { error: { message: 'Invalid URL (GET /v1/chat/completions/nope)', type: 'invalid_request_error', param: null, code: null } });
      const wrongMethod = await apiError(openai(srv()).get('/chat/completions'), OpenAI.NotFoundError);
      assert.equal(wrongMethod.type, 'invalid_request_error');
      // Everything else is as it was.
      assert.deepEqual((await rawRequest(srv(), 'GET', '/nothing-here')).body, { detail: 'Not Found: GET /nothing-here' });
      assert.deepEqual((await rawRequest(srv(), 'GET', '/datasets', undefined, { apiKey: 'wrong' })).body, { detail: 'Unauthorized: invalid API key' });
      assert.equal((await rawRequest(srv(), 'POST', '/datasets', { name: 'chat-ds', bogus: 1 })).body.detail.includes('bogus'), true);
      assert.equal(srv().server.stats().internalErrors, 0);
    });
  });

  describe('streaming at a pace (chatDelayMs)', () => {
    let srv: LocalServer | undefined;
    afterEach(async () => {
      await srv?.close();
      srv = undefined;
    });
    const longMessages: ChatCompletionMessageParam[] = [{ role: 'user', content: Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ') }];

    it('pauses between pieces; a client aborting mid-stream stops it, leaves no timer, and close() is prompt', async () => {
      srv = await startLocalServer({ chatDelayMs: 100 });
      const pieces = streamPieces(localEchoAnswer({ model: 'local-echo', messages: asChat(longMessages) }));
      assert.ok(pieces.length > 60, 'at this pace the whole answer would take over 6 s');
      const abort = new AbortController();
      const t0 = Date.now();
      const stream = await openai(srv).chat.completions.create({ model: 'local-echo', messages: longMessages, stream: true }, { signal: abort.signal });
      const got: string[] = [];
      try {
        for await (const chunk of stream) {
          const piece = chunk.choices[0]?.delta.content;
          if (piece) got.push(piece);
          if (got.length === 4) {
            assert.equal(openChatStreams(srv.server.app.server), 1, 'one stream open while it is being read');
            abort.abort();
          }
        }
      } catch (e) {
        // The client may end the iteration quietly or with its abort error; anything else is a failure.
        if (!(e instanceof OpenAI.APIUserAbortError)) throw e;
      }
      assert.deepEqual(got, pieces.slice(0, 4), 'the read ended at the abort, with the answer’s first pieces');
      assert.ok(Date.now() - t0 >= 350, `four paced pieces took ${Date.now() - t0} ms (≥ 4 × 100 expected)`);
      // The server notices the disconnect and drops the stream and its timer.
      const deadline = Date.now() + 3_000;
      while (openChatStreams(srv.server.app.server) > 0 && Date.now() < deadline) await sleep(20);
      assert.equal(openChatStreams(srv.server.app.server), 0, 'the abandoned stream was destroyed (which clears its timer)');
      // Still healthy.
      const after = await openai(srv).chat.completions.create({ model: 'local-echo', messages: [{ role: 'user', content: 'still there?' }] });
      assert.equal(after.choices[0].message.content, localEchoAnswer({ model: 'local-echo', messages: [{ role: 'user', content: 'still there?' }] }));
      assert.equal(srv.server.stats().internalErrors, 0);
      const t1 = Date.now();
      await srv.close();
      srv = undefined;
      assert.ok(Date.now() - t1 < 1_000, `close() took ${Date.now() - t1} ms`);
    });

    it('close() while a paced stream is being read: the rest comes at once, the stream completes, close() is prompt', async () => {
      srv = await startLocalServer({ chatDelayMs: 200 });
      const expected = completeChat({ model: 'local-echo', messages: asChat(longMessages) });
      const stream = await openai(srv).chat.completions.create({ model: 'local-echo', messages: longMessages, stream: true, stream_options: { include_usage: true } });
      const iterator = stream[Symbol.asyncIterator]();
      const first = await iterator.next();
      assert.deepEqual(first.value?.choices[0].delta, { role: 'assistant', content: '' });
      const t0 = Date.now();
      const closing = srv.close();
      srv = undefined;
      const rest: ChatCompletionChunk[] = [];
      for (let r = await iterator.next(); !r.done; r = await iterator.next()) rest.push(r.value);
      await closing;
      const took = Date.now() - t0;
      assert.equal(rest.map((c) => c.choices[0]?.delta.content ?? '').join(''), expected.content, 'the whole answer arrived');
      assert.deepEqual(rest.at(-1)!.usage, expected.usage);
      assert.ok(took < 2_000, `closing took ${took} ms (the paced stream alone would take ${streamPieces(expected.content).length * 200} ms)`);
    });

    it('refuses a bad chatDelayMs', async () => {
      await assert.rejects(startLocalServer({ chatDelayMs: -1 }), /chatDelayMs/);
      await assert.rejects(startLocalServer({ chatDelayMs: 1.5 }), /chatDelayMs/);
    });
  });

  describe('fault injection', () => {
    const srv = withLocalServer({ faults: '429:1' });

    it('an injected 429 reaches the OpenAI client as a RateLimitError in OpenAI shape', async () => {
      const e = await apiError(openai(srv()).chat.completions.create({ model: 'local-echo', messages: [{ role: 'user', content: 'hi' }] }), OpenAI.RateLimitError);
      assert.equal(e.status, 429);
      assert.deepEqual(e.error, { message: 'Injected fault 429', type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' });
      assert.equal(e.headers?.get('retry-after'), '1');
      const streamed = await apiError(openai(srv()).chat.completions.create({ model: 'local-echo', messages: [{ role: 'user', content: 'hi' }], stream: true }), OpenAI.RateLimitError);
      assert.equal(streamed.status, 429);
      assert.ok(srv().server.stats().faultsInjected >= 2);
    });
  });

  describe('CLI --chat-delay-ms', function () {
    this.timeout(60_000);
    let dir: string;
    let bundle: string;
    let proc: ChildProcess | undefined;

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lsw-chat-cli-'));
      bundle = await bundleServerCli(dir);
    });
    after(() => {
      proc?.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    });

    function run(args: string[]) {
      const child = spawn(process.execPath, [bundle, ...args], { env: { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules') }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout!.on('data', (d) => (out += d));
      child.stderr!.on('data', (d) => (err += d));
      const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      return { child, out: () => out, err: () => err, exit };
    }

    it('is explained by --help, validated, and paces the stream', async () => {
      const help = run(['--help']);
      assert.equal(await help.exit, 0);
      assert.match(help.out(), /--chat-delay-ms N/);
      for (const v of ['-5', 'abc', '1.5', '10001']) {
        const bad = run(['--chat-delay-ms', v, '--db', ':memory:', '--port', '0']);
        assert.equal(await bad.exit, 2, `--chat-delay-ms ${v}`);
        assert.match(bad.err(), /--chat-delay-ms/);
      }
      const cli = run(['--chat-delay-ms', '60', '--db', ':memory:', '--port', '0', '--quiet']);
      proc = cli.child;
      const deadline = Date.now() + 20_000;
      while (!/\n {2}use: .*\n/.test(cli.out()) && Date.now() < deadline && cli.child.exitCode === null) await sleep(50);
      const url = /listening on (http:\/\/\S+)/.exec(cli.out())?.[1];
      assert.ok(url, `started: ${cli.out()} ${cli.err()}`);
      assert.match(cli.out(), new RegExp(`${url.replace(/[.]/g, '\\.')}/v1, model local-echo \\(streams with 60 ms pauses\\)`));
      const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'ok' }];
      const n = streamPieces(localEchoAnswer({ model: 'local-echo', messages: asChat(messages) })).length;
      const t0 = Date.now();
      const { content } = await readStream(await openai({ url, apiKey: 'local-dev-key' }).chat.completions.create({ model: 'local-echo', messages, stream: true }));
      const took = Date.now() - t0;
      assert.equal(content, localEchoAnswer({ model: 'local-echo', messages: asChat(messages) }));
      assert.ok(took >= (n + 1) * 60 * 0.9, `${n} pieces + the end at 60 ms took ${took} ms`);
      cli.child.kill('SIGTERM');
      assert.equal(await cli.exit, 0);
      proc = undefined;
    });
  });
});
