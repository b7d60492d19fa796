// An OpenAI-compatible chat-completions endpoint (base URL `<server>/v1`) answered by the deterministic local
// model "local-echo" (server/chatModel.ts), so the prompt playground works offline and in tests.
//
//   GET  /v1/models            the one model
//   GET  /v1/models/{id}       it, or 404
//   POST /v1/chat/completions  an answer, whole or streamed as server-sent events (`stream: true`)
//
// Authenticated like every other route (`Authorization: Bearer <key>` or `x-api-key`). Errors on these paths
// come in OpenAI's shape `{error: {message, type, param, code}}` (server/index.ts's error handlers ask
// isOpenAiPath()). Nothing is stored.
import crypto from 'node:crypto';
import type { Server } from 'node:http';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Ctx } from '../context';
import {
  LOCAL_MODEL, LOCAL_MODEL_CREATED, LOCAL_MODEL_FINGERPRINT, completeChat, streamPieces, type ChatUsage,
} from '../chatModel';
import { pText, route } from '../route';
import { OpenAiError, parseChatBody, type ChatBody } from './chatRequest';

// Still importable from here (server/index.ts's error handlers use them).

export interface ChatOptions {
  /** Pause before each streamed piece of an answer, so a person can watch it arrive (default 0). */
  delayMs?: number;
}

// ---- the streamed answer ----

interface StreamEvent {
  data: string;
  /** Sent after the pause (the answer's pieces and its end); the rest goes at once. */
  paced: boolean;
}

/** The server-sent events of one answer, one per read, with the pause before the paced ones. */
class ChatStream extends Readable {
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private hurried = false;

  constructor(
    private readonly events: StreamEvent[],
    private readonly delayMs: number,
    private readonly live: Set<ChatStream>,
  ) {
    super();
    live.add(this);
  }

  override _read(): void {
    if (this.timer) return;
    const event = this.events[this.next];
    if (!event) {
      this.push(null);
      return;
    }
    if (event.paced && this.delayMs > 0 && !this.hurried) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pushNext();
      }, this.delayMs);
      return;
    }
    this.pushNext();
  }

  private pushNext(): void {
    this.push(this.events[this.next++].data);
  }

  /** The server is closing: the rest of the answer goes out without pauses. */
  hurry(): void {
    this.hurried = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.pushNext();
    }
  }

  // Ended, or the client went away (fastify destroys the stream then): no timer stays behind.
  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.live.delete(this);
    callback(err);
  }
}

/** Streams still open per server (a test's way to see that an abandoned stream left nothing behind). */
const liveStreams = new WeakMap<Server, Set<ChatStream>>();

export function openChatStreams(server: Server): number {
  return liveStreams.get(server)?.size ?? 0;
}

function chatEvents(id: string, created: number, body: ChatBody): StreamEvent[] {
  const answer = completeChat(body);
  const includeUsage = body.stream_options?.include_usage === true;
  const head = { id, object: 'chat.completion.chunk', created, model: LOCAL_MODEL, system_fingerprint: LOCAL_MODEL_FINGERPRINT };
  const sse = (chunk: object) => `data: ${JSON.stringify(chunk)}\n\n`;
  // With include_usage, OpenAI sends `usage: null` on every chunk but the last.
  const chunk = (delta: object, finishReason: string | null) =>
    sse({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], ...(includeUsage ? { usage: null } : {}) });
  const usage: ChatUsage = answer.usage;
  return [
    { data: chunk({ role: 'assistant', content: '' }, null), paced: false },
    ...streamPieces(answer.content).map((piece) => ({ data: chunk({ content: piece }, null), paced: true })),
    { data: chunk({}, answer.finishReason), paced: true },
    ...(includeUsage ? [{ data: sse({ ...head, choices: [], usage }), paced: false }] : []),
    { data: 'data: [DONE]\n\n', paced: false },
  ];
}

// ---- routes ----

const modelOut = () => ({ id: LOCAL_MODEL, object: 'model', created: LOCAL_MODEL_CREATED, owned_by: 'langsmith-workbench' });

export function registerChat(app: FastifyInstance, _ctx: Ctx, opts: ChatOptions = {}) {
  const delayMs = opts.delayMs ?? 0;
  let live = liveStreams.get(app.server);
  if (!live) liveStreams.set(app.server, (live = new Set()));
  const streams = live;

  // close() waits for answers in flight: let streams finish at once instead of at the demo's pace.
  app.addHook('preClose', (done) => {
    for (const s of streams) s.hurry();
    done();
  });

  route(app, 'GET', '/v1/models', {}, () => ({ object: 'list', data: [modelOut()] }));

  route(app, 'GET', '/v1/models/:model', { params: z.object({ model: pText() }) }, ({ params: { model } }) => {
    if (model !== LOCAL_MODEL) throw new OpenAiError(404, `The model '${model}' does not exist or you do not have access to it.`, 'model', 'model_not_found');
    return modelOut();
  });

  // The body is checked by parseChatBody, not by route(): OpenAI answers a bad request with a 400 worded its
  // own way (`Missing required parameter: 'model'.`), where route() would answer LangSmith's 422.
  route(app, 'POST', '/v1/chat/completions', { body: z.unknown() }, ({ body: raw, reply }) => {
    const body = parseChatBody(raw);
    const id = `chatcmpl-${crypto.randomBytes(15).toString('base64url').replace(/[-_]/g, 'x')}`;
    const created = Math.floor(Date.now() / 1000);
    if (body.stream) {
      reply.header('content-type', 'text/event-stream').header('cache-control', 'no-cache').header('x-accel-buffering', 'no');
      return new ChatStream(chatEvents(id, created, body), delayMs, streams);
    }
    const answer = completeChat(body);
    return {
      id,
      object: 'chat.completion',
      created,
      model: LOCAL_MODEL,
      system_fingerprint: LOCAL_MODEL_FINGERPRINT,
      choices: [{ index: 0, message: { role: 'assistant', content: answer.content, refusal: null }, logprobs: null, finish_reason: answer.finishReason }],
      usage: answer.usage,
    };
  });
}
