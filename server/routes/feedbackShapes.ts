// What the feedback routes share: the answer shape of a feedback and the schemas of a score and a config.
import { z } from 'zod';
import type { FeedbackConfig, FeedbackRow } from '../store/feedback';
import { jsonOrNull } from '../json';

export function feedbackOut(f: FeedbackRow) {
  return {
    id: f.id,
    run_id: f.run_id,
    session_id: f.session_id,
    trace_id: f.trace_id,
    key: f.key,
    score: f.score,
    value: jsonOrNull(f.value) as unknown,
    correction: jsonOrNull(f.correction) as unknown,
    comment: f.comment,
    feedback_source: jsonOrNull(f.feedback_source) as unknown,
    comparative_experiment_id: f.comparative_experiment_id,
    feedback_config: jsonOrNull(f.feedback_config) as unknown,
    created_at: f.created_at,
    modified_at: f.modified_at,
    // LangSmith answers these too, null (or false) when unset; this server does not keep them.
    feedback_group_id: null,
    start_time: null,
    extra: null,
    feedback_thread_id: null,
    // Feedback on a trace's root run (the run is its own trace).
    is_root: f.run_id !== null && f.run_id === f.trace_id,
  };
}

/** A score as sent (a boolean counts as 1 or 0, as LangSmith stores it), null when not given. */
export const Score = z
  .union([z.number(), z.boolean()])
  .nullish()
  .transform((s) => (s == null ? null : typeof s === 'boolean' ? Number(s) : s));
/** A feedback config object (its type is checked by validateConfig, so the detail names the field). */
export const ConfigObject = z.record(z.string(), z.unknown()).transform((c) => c as FeedbackConfig);
