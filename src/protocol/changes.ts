// What a write changed, as its publisher tells it: a command, a panel or an agent tool publishes a change on the
// editor's change bus (src/common/changes.ts) once the write went through; the trees and the open panels subscribe
// and update only what changed. A change names its entity by id where the publisher has it (no id: the list of such
// entities changed, e.g. one was created or deleted), and carries the numbers the publisher already has, so a
// subscriber need not read them again. Plain TypeScript: the agent tools (plain Node) publish these too.

export type Change =
  /** A prompt's commits or tags (name and handle given), or the list of prompts (a prompt made, deleted, archived). */
  | { readonly kind: 'prompt'; readonly name?: string; readonly handle?: string | null; readonly commits?: number }
  /** A dataset's examples, splits or versions (id given), or the list of datasets. */
  | { readonly kind: 'dataset'; readonly datasetId?: string; readonly examples?: number }
  /** A queue's items (`items`: only they changed, not its settings) or settings (id given), or the list of queues. */
  | { readonly kind: 'queue'; readonly queueId?: string; readonly items?: true; readonly size?: number }
  /** A project's runs (runs were sent to it; it may be new), or the list of projects. */
  | { readonly kind: 'project'; readonly name?: string }
  /** Feedback written on a run. */
  | { readonly kind: 'feedback'; readonly runId: string; readonly key?: string }
  /** The workspace's feedback configs (how each key is scored). */
  | { readonly kind: 'feedbackConfigs' };

/** Where changes are told: the bus in the editor; nothing in the command line and the MCP server. */
export interface ChangePublisher {
  publish(change: Change): void;
}
