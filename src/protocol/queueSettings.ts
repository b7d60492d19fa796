// Queue settings: a queue's name, description, rubric instructions and rubric items, its default dataset,
// reviewers per item and reservations, edited in one form; and the feedback config of each rubric key (how it
// is scored: continuous within min/max, categories with labels, free text), which is the workspace's and is
// shared by every queue that uses the key.
//
// The page owns the form (its draft survives a reload through the page's own state); Save sends the whole
// form, the host writes the feedback configs that changed, then the queue, and answers with what the server
// now has. A failed save comes back as an error and the form stays as typed.
import * as z from 'zod/mini';
import { defineReady, defineRequest, inboundRecord } from './messages';
import { FeedbackConfig } from './review';

const id = z.string().check(z.minLength(1), z.maxLength(100));
const short = z.string().check(z.maxLength(2000));
const key = z.string().check(z.minLength(1), z.maxLength(180));

/** Which queue the panel edits; none: a new queue, created on Save. */
export const QueueSettingsKey = z.strictObject({ queueId: z.nullable(id) });
export type QueueSettingsKey = z.infer<typeof QueueSettingsKey>;

export const RubricItemForm = z.strictObject({
  key,
  description: z.string().check(z.maxLength(10_000)),
  required: z.boolean(),
  /** What a score means, keyed by the score as written ("0", "0.5", "1"). */
  scoreDescriptions: inboundRecord(z.string(), short),
  /** What a category means, keyed by its label. */
  valueDescriptions: inboundRecord(z.string(), short),
});
export type RubricItemForm = z.infer<typeof RubricItemForm>;

export const QueueForm = z.strictObject({
  name: z.string().check(z.maxLength(500)),
  description: z.string().check(z.maxLength(10_000)),
  instructions: z.string().check(z.maxLength(100_000)),
  rubric: z.array(RubricItemForm).check(z.maxLength(100)),
  defaultDataset: z.nullable(z.strictObject({ id, name: short })),
  /** Reviewers who must complete an item (1 or more). */
  reviewersPerItem: z.int().check(z.minimum(1), z.maximum(100)),
  reservations: z.boolean(),
  /** Minutes an opened item stays reserved (when reservations are on). */
  reservationMinutes: z.int().check(z.minimum(1), z.maximum(100_000)),
});
export type QueueForm = z.infer<typeof QueueForm>;

/** A feedback config of the workspace. */
export const ConfigEntry = z.strictObject({ key, config: FeedbackConfig, lowerIsBetter: z.boolean() });
export type ConfigEntry = z.infer<typeof ConfigEntry>;

export const QueueSettingsState = z.union([
  z.strictObject({
    kind: z.literal('settings'),
    /** The queue's id; null while the queue is new. */
    queueId: z.nullable(id),
    form: QueueForm,
    /** The workspace's feedback configs (for the rubric keys' controls and the key suggestions). */
    configs: z.array(ConfigEntry).check(z.maxLength(5000)),
  }),
  z.strictObject({ kind: z.literal('problem'), problem: z.strictObject({ code: z.enum(['notFound', 'notSignedIn', 'failed']), message: short }) }),
]);
export type QueueSettingsState = z.infer<typeof QueueSettingsState>;

export const QueueSettingsReady = defineReady('queueSettings', QueueSettingsState);

/**
 * Save: the configs given (new keys, or changed ones) are written first, then the queue (created when new).
 * Answers the state as the server now has it. Checked before any call: a name, distinct rubric keys,
 * min < max, categories with distinct values and labels.
 */
export const Save = defineRequest(
  'queueSettings/save',
  z.strictObject({ form: QueueForm, configs: z.array(ConfigEntry).check(z.maxLength(100)) }),
  z.strictObject({ state: QueueSettingsState, message: short }),
);

/** Asks for the default dataset with the host's picker; null when cancelled, `clear` to remove it. */
export const PickDataset = defineRequest(
  'queueSettings/pickDataset',
  z.strictObject({}),
  z.strictObject({ dataset: z.nullable(z.strictObject({ id, name: short })), clear: z.boolean() }),
);

/** Opens the review of this queue (after a save). */
export const OpenReview = defineRequest('queueSettings/openReview', z.strictObject({}), z.strictObject({}));

/** What Save refuses before any call, with the message shown at the field. */
export function checkForm(form: QueueForm, configs: ConfigEntry[]): Array<{ field: string; message: string }> {
  const problems: Array<{ field: string; message: string }> = [];
  if (!form.name.trim()) problems.push({ field: 'name', message: 'A queue needs a name.' });
  const seen = new Set<string>();
  form.rubric.forEach((r, i) => {
    const k = r.key.trim();
    if (!k) problems.push({ field: `rubric.${i}.key`, message: 'A rubric item needs a feedback key.' });
    else if (seen.has(k)) problems.push({ field: `rubric.${i}.key`, message: `"${k}" is already in the rubric.` });
    seen.add(k);
  });
  for (const c of configs) {
    if (c.config.type === 'continuous' && c.config.min != null && c.config.max != null && !(c.config.min < c.config.max)) {
      problems.push({ field: `config.${c.key}`, message: `${c.key}: the minimum must be below the maximum.` });
    }
    if (c.config.type === 'categorical') {
      if (c.config.categories.length < 2) problems.push({ field: `config.${c.key}`, message: `${c.key}: a categorical key needs at least two categories.` });
      const values = new Set<number>();
      const labels = new Set<string>();
      for (const cat of c.config.categories) {
        if (!cat.label.trim()) problems.push({ field: `config.${c.key}`, message: `${c.key}: every category needs a label.` });
        if (values.has(cat.value)) problems.push({ field: `config.${c.key}`, message: `${c.key}: the score ${cat.value} is used twice.` });
        if (labels.has(cat.label)) problems.push({ field: `config.${c.key}`, message: `${c.key}: the label "${cat.label}" is used twice.` });
        values.add(cat.value);
        labels.add(cat.label);
      }
    }
  }
  return problems;
}
