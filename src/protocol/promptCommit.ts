// The prompt commit panel: pushes one prompt file as a commit. The host reads the file (as the editor has it,
// saved or not) and the remote prompt, and sends what a push would change; the webview owns the commit
// description and tags the user types.
import * as z from 'zod/mini';
import { defineNotification, defineReady, defineRequest } from './messages';

/** Which file a panel pushes: its URI (file:, vscode-remote:, untitled: …). */
export const PromptCommitKey = z.strictObject({ uri: z.string().check(z.minLength(1), z.maxLength(4000)) });
export type PromptCommitKey = z.infer<typeof PromptCommitKey>;

const short = z.string().check(z.maxLength(2000));

export const ProblemInfo = z.strictObject({
  message: short,
  severity: z.enum(['error', 'warning', 'info', 'hint']),
  /** 1-based, as the editor shows them. */
  line: z.number(),
  column: z.number(),
});
export type ProblemInfo = z.infer<typeof ProblemInfo>;

export const ChangeInfo = z.strictObject({
  section: short,
  kind: z.enum(['added', 'removed', 'changed']),
  attribute: z.boolean(),
  lines: z.array(z.strictObject({ type: z.enum(['add', 'del', 'same']), text: z.string() })),
});
export type ChangeInfo = z.infer<typeof ChangeInfo>;

export const CommitInfo = z.strictObject({
  hash: z.string(),
  createdAt: z.nullable(z.string()),
  tags: z.array(z.string()),
});
export type CommitInfo = z.infer<typeof CommitInfo>;

/** What the file says, read as the editor has it now. */
export const LocalInfo = z.strictObject({
  fileName: short,
  dirty: z.boolean(),
  /** `name` or `owner/name`, when the file names its prompt. */
  identifier: z.nullable(short),
  templateFormat: z.nullable(z.enum(['f-string', 'mustache'])),
  variables: z.array(short),
  problems: z.array(ProblemInfo),
  description: z.nullable(z.string()),
  visibility: z.nullable(z.enum(['public', 'private'])),
});
export type LocalInfo = z.infer<typeof LocalInfo>;

/** The prompt on LangSmith, when the file names one the host could read. */
export const RemoteInfo = z.strictObject({
  /** `owner/name` as shown; the owner is the workspace handle when it has one. */
  displayName: short,
  exists: z.boolean(),
  own: z.boolean(),
  /** The spec's message when the prompt belongs to another workspace: pushing is refused. */
  refusal: z.nullable(short),
  isPublic: z.nullable(z.boolean()),
  description: z.nullable(z.string()),
  latest: z.nullable(CommitInfo),
  /** Where the production and staging tags point now. */
  environments: z.strictObject({ production: z.nullable(z.string()), staging: z.nullable(z.string()) }),
  tags: z.array(z.string()),
});
export type RemoteInfo = z.infer<typeof RemoteInfo>;

export const PromptCommitState = z.strictObject({
  local: LocalInfo,
  remote: z.nullable(RemoteInfo),
  /** Why the remote prompt could not be read (signed out, offline …); the local part still shows. */
  remoteError: z.nullable(short),
  changes: z.array(ChangeInfo),
});
export type PromptCommitState = z.infer<typeof PromptCommitState>;

export const PromptCommitReady = defineReady('promptCommit', PromptCommitState);

const tag = z.string().check(z.minLength(1), z.maxLength(100));

export const PushResult = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('pushed'), hash: z.string(), created: z.boolean(), updated: z.array(z.string()), tags: z.array(z.string()), state: PromptCommitState }),
  z.strictObject({ status: z.literal('nothingToCommit'), hash: z.nullable(z.string()), updated: z.array(z.string()), tags: z.array(z.string()), state: PromptCommitState }),
  /** Someone committed since the panel showed `parent`: nothing was written; here is what a push would change now. */
  z.strictObject({ status: z.literal('stale'), state: PromptCommitState }),
]);
export type PushResult = z.infer<typeof PushResult>;

/** Pushes the file. `parent` is the latest commit the panel showed (null: none). */
export const PushPrompt = defineRequest(
  'promptCommit/push',
  z.strictObject({
    parent: z.nullable(z.string().check(z.maxLength(100))),
    description: z.string().check(z.maxLength(10_000)),
    tags: z.array(tag).check(z.maxLength(20)),
    create: z.nullable(z.strictObject({ description: z.string().check(z.maxLength(10_000)), isPublic: z.boolean() })),
  }),
  PushResult,
);

/** Opens VS Code's diff editor: the latest commit (as a prompt file) against the file. */
export const ShowDiff = defineRequest('promptCommit/showDiff', z.strictObject({}), z.strictObject({}));

/** Shows a commit: opens it as a prompt file and reveals it in the Prompts view. */
export const OpenCommit = defineRequest('promptCommit/openCommit', z.strictObject({ hash: z.string().check(z.maxLength(100)) }), z.strictObject({}));

/** Shows the file in the editor (at a problem's place). */
const position = z.int().check(z.minimum(1), z.maximum(100_000_000));
export const RevealFile = defineRequest('promptCommit/revealFile', z.strictObject({ line: z.optional(position), column: z.optional(position) }), z.strictObject({}));

/** The file changed in the editor (or the remote prompt was read again): the new state. */
export const PromptCommitChanged = defineNotification('promptCommit/changed', PromptCommitState);
