// The demo datasets: support questions with splits, three versions and tags, chat transcripts, and invoices with
// JSON schemas and attachments.
import type { Ctx, Tenant } from '../context';
import { newId } from '../ids';
import { jsonOrNull } from '../json';
import { insertDataset, tagVersion } from '../store/datasets';
import { writeRevision, type RevRow } from '../store/revisions';
import { newVersion } from '../store/versions';
import { INVOICE_INPUTS_SCHEMA, INVOICE_OUTPUTS_SCHEMA, demoInvoices, storeAttachments } from './invoices';
import type { Rng } from './random';
import { ANSWERS, QUESTIONS } from './support';

/** The datasets; answers the QA dataset and its first examples' ids, which the experiment and the queue use. */
export function seedDatasets(ctx: Ctx, local: Tenant, r: Rng) {
  const qa = insertDataset(ctx, local, { name: 'demo-support-qa', description: 'Support questions with reference answers (demo data).', data_type: 'kv', extra: { metadata: { owner: 'support-team' } } });
  const v1 = newVersion(ctx, qa.id);
  const qaIds: string[] = [];
  QUESTIONS.forEach((q, i) => {
    const id = newId();
    qaIds.push(id);
    const split = i % 5 === 0 ? 'test' : i % 7 === 0 ? 'validation' : 'train';
    writeRevision(ctx, qa.id, id, v1, {
      inputs: { question: q }, outputs: { answer: ANSWERS[i] }, metadata: { dataset_split: [split], difficulty: r.pick(['easy', 'medium', 'hard']) },
      source_run_id: null, attachments: null, created_at: v1,
    });
  });
  tagVersion(ctx, local, qa.id, v1, 'v1');
  const v2 = newVersion(ctx, qa.id);
  for (const id of qaIds.slice(0, 3)) {
    const cur = ctx.st.one<RevRow>('SELECT * FROM example_revisions WHERE example_id = ? AND valid_to IS NULL', id)!;
    const outputs = jsonOrNull<{ answer: string }>(cur.outputs)!;
    writeRevision(ctx, qa.id, id, v2, { inputs: JSON.parse(cur.inputs), outputs: { answer: `${outputs.answer} (reviewed)` }, metadata: jsonOrNull(cur.metadata), source_run_id: null, attachments: null, created_at: cur.created_at });
  }
  const v3 = newVersion(ctx, qa.id);
  ctx.st.run('UPDATE example_revisions SET valid_to = ? WHERE example_id = ? AND valid_to IS NULL', v3, qaIds[14]);
  writeRevision(ctx, qa.id, newId(), v3, {
    inputs: { question: 'How do I enable two-factor authentication?' }, outputs: { answer: 'Settings → Security → Two-factor.' },
    metadata: { dataset_split: ['train'], difficulty: 'easy' }, source_run_id: null, attachments: null, created_at: v3,
  });
  tagVersion(ctx, local, qa.id, v3, 'prod');

  const chat = insertDataset(ctx, local, { name: 'demo-chat-transcripts', description: 'Multi-turn chats (demo data).', data_type: 'chat', extra: {} });
  const cv = newVersion(ctx, chat.id);
  for (let i = 0; i < 10; i++) {
    writeRevision(ctx, chat.id, newId(), cv, {
      inputs: { messages: [{ role: 'system', content: 'You are a helpful support agent.' }, { role: 'user', content: QUESTIONS[i] }] },
      outputs: { output: { role: 'assistant', content: ANSWERS[i] } }, metadata: { dataset_split: [i < 8 ? 'train' : 'test'] },
      source_run_id: null, attachments: null, created_at: cv,
    });
  }

  // A dataset with schemas and attachments, for the example editor
  const inv = insertDataset(ctx, local, {
    name: 'demo-invoices', description: 'Invoice extraction with a schema and attachments (demo data).', data_type: 'kv',
    inputs_schema_definition: INVOICE_INPUTS_SCHEMA, outputs_schema_definition: INVOICE_OUTPUTS_SCHEMA, extra: { metadata: { owner: 'finance-team' } },
  });
  const iv1 = newVersion(ctx, inv.id);
  const invIds = demoInvoices().map((spec) => {
    const id = newId();
    writeRevision(ctx, inv.id, id, iv1, {
      inputs: spec.inputs, outputs: spec.outputs, metadata: { dataset_split: [spec.split] }, source_run_id: null,
      attachments: storeAttachments(ctx, spec.files), created_at: iv1,
    });
    return id;
  });
  tagVersion(ctx, local, inv.id, iv1, 'v1');
  // Two versions only: the seed test reads every dataset with three or more as the QA dataset's history.
  const iv2 = newVersion(ctx, inv.id);
  const misread = ctx.st.one<RevRow>('SELECT * FROM example_revisions WHERE example_id = ? AND valid_to IS NULL', invIds[2])!;
  writeRevision(ctx, inv.id, invIds[2], iv2, {
    inputs: JSON.parse(misread.inputs), outputs: { ...jsonOrNull<Record<string, unknown>>(misread.outputs), total: 321, due_date: '2024-04-14' },
    metadata: { ...jsonOrNull<Record<string, unknown>>(misread.metadata), reviewed: true }, source_run_id: null, attachments: null, created_at: misread.created_at,
  });
  tagVersion(ctx, local, inv.id, iv2, 'latest-review');
  return { qa, qaIds };
}
