// The playground: runs a prompt (a prompt file as the editor has it, or a commit) with values for its variables
// against an OpenAI-compatible chat model, streams the answer, keeps a conversation per session, and traces
// every run to a LangSmith project. The host owns the prompt, the model connection, the session's history
// and the trace queue; the webview owns the values, the model settings and the follow-up being typed.
import * as z from 'zod/mini';
import { defineNotification, defineReady, defineRequest, inboundRecord } from './messages';

const short = z.string().check(z.maxLength(2000));
const hash = z.string().check(z.regex(/^[0-9a-f]{6,64}$/i, 'a commit hash'));
const identifier = z.string().check(z.minLength(1), z.maxLength(300));

/** What a panel runs: a prompt file (its URI) or a commit of a prompt. */
export const PlaygroundKey = z.union([
  z.strictObject({ kind: z.literal('file'), uri: z.string().check(z.minLength(1), z.maxLength(4000)) }),
  z.strictObject({ kind: z.literal('commit'), identifier, commit: hash }),
]);
export type PlaygroundKey = z.infer<typeof PlaygroundKey>;

export const PromptPreview = z.strictObject({
  kind: z.enum(['chat', 'string']),
  templateFormat: z.enum(['f-string', 'mustache']),
  variables: z.array(short),
  /** The templates as written (a string prompt is one message with role "prompt"). */
  messages: z.array(z.strictObject({ role: short, template: z.string() })),
});
export type PromptPreview = z.infer<typeof PromptPreview>;

export const ModelSettings = z.strictObject({
  model: z.string().check(z.maxLength(200)),
  temperature: z.nullable(z.number().check(z.gte(0), z.lte(2))),
  maxTokens: z.nullable(z.int().check(z.gte(1), z.lte(1_000_000))),
});
export type ModelSettings = z.infer<typeof ModelSettings>;

export const ChatTurn = z.strictObject({ role: z.enum(['human', 'ai']), content: z.string() });
export type ChatTurn = z.infer<typeof ChatTurn>;

export const SessionInfo = z.strictObject({
  id: z.string().check(z.maxLength(100)),
  /** The conversation after the prompt's own messages: follow-ups and answers. */
  turns: z.array(ChatTurn),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

export const EndpointInfo = z.strictObject({
  /** The chat-completions base URL in use, or null when none is set. */
  url: z.nullable(short),
  /** How it was chosen: the setting, or the local server's own model. */
  source: z.enum(['setting', 'localServer', 'none']),
  /** Whether a key will be sent (never the key itself). */
  hasKey: z.boolean(),
});
export type EndpointInfo = z.infer<typeof EndpointInfo>;

export const TraceStatus = z.strictObject({
  /** sent: on the server; failed: kept for the next flush (`message` says why); off: not traced (signed out). */
  status: z.enum(['sent', 'failed', 'off']),
  message: z.nullable(short),
  pending: z.int(),
});
export type TraceStatus = z.infer<typeof TraceStatus>;

/** How a run ended. */
export const FinishedRun = z.strictObject({
  runId: z.string(),
  outcome: z.enum(['done', 'error', 'stopped']),
  /** The whole answer (what arrived, when stopped or failed). */
  answer: z.string(),
  usage: z.nullable(z.strictObject({ input: z.int(), output: z.int(), total: z.int() })),
  /** What went wrong, and what to do about it. */
  error: z.nullable(short),
  hint: z.nullable(short),
  trace: TraceStatus,
  session: SessionInfo,
  latencyMs: z.int(),
});
export type FinishedRun = z.infer<typeof FinishedRun>;

export const PlaygroundState = z.strictObject({
  /** The file name, or owner/name@hash. */
  title: short,
  source: z.enum(['file', 'commit']),
  /** Null when the prompt cannot be read; `problem` says why. */
  prompt: z.nullable(PromptPreview),
  problem: z.nullable(short),
  /** The values last used with this prompt. */
  values: z.record(z.string(), z.string()),
  /** The settings a run uses unless changed in the panel: remembered ones, else the file's, else the defaults. */
  model: ModelSettings,
  /** The model the prompt itself names, when it does. */
  promptModel: z.nullable(short),
  /** The prompt's own temperature and max tokens (null: it sets none); an empty field in the page uses them. */
  promptSettings: z.optional(z.strictObject({ temperature: z.nullable(z.number().check(z.gte(0), z.lte(2))), maxTokens: z.nullable(z.int().check(z.gte(1), z.lte(1_000_000))) })),
  endpoint: EndpointInfo,
  /** The LangSmith project runs are traced to. */
  project: short,
  /** Whether runs are traced (signed in to LangSmith). */
  tracing: z.boolean(),
  session: SessionInfo,
  /** Runs whose traces are waiting for the next flush (an earlier flush failed). */
  pendingTraces: z.int(),
  /** Runs still going (a page shown again after being hidden picks its run up here). */
  running: z.array(z.string()),
  /** The latest runs' ends, newest first (notifications sent while the page was hidden are not replayed). */
  finished: z.array(FinishedRun).check(z.maxLength(10)),
});
export type PlaygroundState = z.infer<typeof PlaygroundState>;

export const PlaygroundReady = defineReady('playground', PlaygroundState);

/** Starts a run; the answer arrives as `playground/delta` notifications and one `playground/finished`. */
export const RunPrompt = defineRequest(
  'playground/run',
  z.strictObject({
    values: inboundRecord(z.string().check(z.maxLength(200)), z.string().check(z.maxLength(1_000_000))),
    model: ModelSettings,
    /** Chat mode: the run is a turn of the session (with its history). */
    chat: z.boolean(),
    /** Chat mode: the new human message after the prompt and the earlier turns. */
    followUp: z.nullable(z.string().check(z.maxLength(1_000_000))),
  }),
  z.strictObject({ runId: z.string() }),
);

/** Stops a run: its request is cancelled; what arrived stays. */
export const StopRun = defineRequest('playground/stop', z.strictObject({ runId: z.string().check(z.maxLength(100)) }), z.strictObject({ stopped: z.boolean() }));

/** Forgets the conversation: a new session id, no turns. */
export const ResetSession = defineRequest('playground/resetSession', z.strictObject({}), SessionInfo);

/** Shows a run's trace in the Projects view. */
export const RevealTrace = defineRequest('playground/revealTrace', z.strictObject({ runId: z.string().check(z.maxLength(100)) }), z.strictObject({}));

/** Asks the user for the model endpoint, model and key (the host's own input boxes; the key never reaches the page). */
export const ConfigureModel = defineRequest('playground/configureModel', z.strictObject({}), z.strictObject({}));

/** Sends the traces kept after a failed flush. */
export const FlushTraces = defineRequest('playground/flushTraces', z.strictObject({}), z.strictObject({ pending: z.int() }));

/** Shows the prompt file in the editor. */
export const OpenSource = defineRequest('playground/openSource', z.strictObject({}), z.strictObject({}));

/** A piece of a run's answer. */
export const RunDelta = defineNotification('playground/delta', z.strictObject({ runId: z.string(), text: z.string() }));



export const RunFinished = defineNotification('playground/finished', FinishedRun);

/** The prompt changed (file edited), or the model settings or sign-in did: the new state. */
export const PlaygroundChanged = defineNotification('playground/changed', PlaygroundState);
