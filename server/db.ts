// The SQLite store: schema, pragmas and a prepared-statement cache.
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';

export type DB = Database.Database;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);

CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT,
  extra TEXT,
  reference_dataset_id TEXT,
  default_dataset_id TEXT,
  start_time TEXT NOT NULL,
  end_time TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (tenant_id, name)
);
CREATE INDEX IF NOT EXISTS sessions_ref ON sessions (tenant_id, reference_dataset_id);

CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  trace_id TEXT,
  parent_run_id TEXT,
  dotted_order TEXT,
  name TEXT,
  run_type TEXT,
  start_time TEXT,
  end_time TEXT,
  inputs TEXT,
  outputs TEXT,
  error TEXT,
  extra TEXT,
  events TEXT,
  serialized TEXT,
  tags TEXT,
  reference_example_id TEXT,
  attachments TEXT,
  prompt_tokens INTEGER,
  completion_tokens INTEGER,
  total_tokens INTEGER,
  share_token TEXT UNIQUE,
  is_stub INTEGER NOT NULL DEFAULT 0,
  received_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_session ON runs (session_id, start_time DESC, id);
CREATE INDEX IF NOT EXISTS runs_trace ON runs (trace_id, dotted_order);
-- A run's children in the order they are listed (start time, then dotted order): a page of a parent's
-- children is read from here without sorting them all or walking the tenant's other runs.
CREATE INDEX IF NOT EXISTS runs_parent_order ON runs (parent_run_id, start_time, dotted_order, id);
DROP INDEX IF EXISTS runs_parent;
CREATE INDEX IF NOT EXISTS runs_tenant_start ON runs (tenant_id, start_time DESC, id);
-- An experiment's root run for an example (experiment-runs, stats by example): found without a walk over the
-- experiment's runs.
CREATE INDEX IF NOT EXISTS runs_session_example ON runs (session_id, reference_example_id) WHERE parent_run_id IS NULL;

CREATE TABLE IF NOT EXISTS datasets (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT,
  data_type TEXT NOT NULL DEFAULT 'kv',
  inputs_schema_definition TEXT,
  outputs_schema_definition TEXT,
  extra TEXT,
  created_at TEXT NOT NULL,
  modified_at TEXT NOT NULL,
  share_token TEXT UNIQUE,
  indexed_tag TEXT,
  index_synced_version TEXT,
  UNIQUE (tenant_id, name)
);

-- Every state an example has been in: the current one has valid_to NULL. A change closes the
-- current row and opens a new one at the change's version timestamp; a delete only closes it.
CREATE TABLE IF NOT EXISTS example_revisions (
  rev INTEGER PRIMARY KEY AUTOINCREMENT,
  example_id TEXT NOT NULL,
  dataset_id TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  inputs TEXT NOT NULL,
  outputs TEXT,
  metadata TEXT,
  source_run_id TEXT,
  attachments TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS exrev_current ON example_revisions (dataset_id, created_at, example_id) WHERE valid_to IS NULL;
CREATE INDEX IF NOT EXISTS exrev_example ON example_revisions (example_id, valid_to);
CREATE INDEX IF NOT EXISTS exrev_history ON example_revisions (dataset_id, valid_from);

CREATE TABLE IF NOT EXISTS dataset_versions (
  dataset_id TEXT NOT NULL,
  as_of TEXT NOT NULL,
  PRIMARY KEY (dataset_id, as_of)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS dataset_tags (
  dataset_id TEXT NOT NULL,
  tag TEXT NOT NULL,
  as_of TEXT NOT NULL,
  PRIMARY KEY (dataset_id, tag)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS blobs (
  hash TEXT PRIMARY KEY,
  data BLOB NOT NULL
) WITHOUT ROWID;

CREATE VIRTUAL TABLE IF NOT EXISTS examples_fts USING fts5 (text, example_id UNINDEXED, dataset_id UNINDEXED);

CREATE TABLE IF NOT EXISTS comparative_experiments (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  name TEXT,
  description TEXT,
  reference_dataset_id TEXT NOT NULL,
  experiment_ids TEXT NOT NULL,
  extra TEXT,
  created_at TEXT NOT NULL,
  modified_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS feedback (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  run_id TEXT,
  session_id TEXT,
  trace_id TEXT,
  key TEXT NOT NULL,
  score REAL,
  value TEXT,
  correction TEXT,
  comment TEXT,
  feedback_source TEXT,
  comparative_experiment_id TEXT,
  feedback_config TEXT,
  created_at TEXT NOT NULL,
  modified_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS feedback_run ON feedback (run_id);
CREATE INDEX IF NOT EXISTS feedback_tenant ON feedback (tenant_id, created_at);

CREATE TABLE IF NOT EXISTS feedback_configs (
  tenant_id TEXT NOT NULL,
  feedback_key TEXT NOT NULL,
  feedback_config TEXT NOT NULL,
  is_lower_score_better INTEGER NOT NULL DEFAULT 0,
  modified_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, feedback_key)
);

CREATE TABLE IF NOT EXISTS feedback_tokens (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  feedback_key TEXT NOT NULL,
  feedback_config TEXT,
  expires_at TEXT NOT NULL,
  url TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS feedback_tokens_run ON feedback_tokens (run_id);

CREATE TABLE IF NOT EXISTS annotation_queues (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT,
  rubric_instructions TEXT,
  rubric_items TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS queue_runs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  queue_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  added_at TEXT NOT NULL,
  last_reviewed_time TEXT,
  UNIQUE (queue_id, run_id)
);

-- Each reviewer's status of a queue item (LangSmith keeps one per user and item): 'viewed' or 'completed'
-- (null: re-shown), and where a 'viewed' moved the item in this reviewer's order.
CREATE TABLE IF NOT EXISTS queue_item_status (
  item_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  queue_id TEXT NOT NULL,
  status TEXT,
  status_at TEXT,
  override_added_at TEXT,
  PRIMARY KEY (item_id, user_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS queue_item_status_queue ON queue_item_status (queue_id);

-- The users assigned to review a queue (POST /annotation-queues/{id}/reviewers).
CREATE TABLE IF NOT EXISTS queue_reviewers (
  queue_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  added_at TEXT NOT NULL,
  PRIMARY KEY (queue_id, user_id)
) WITHOUT ROWID;

-- Where each commit tag pointed before and after every change (GET /repos/{o}/{r}/tags/{tag}/history).
CREATE TABLE IF NOT EXISTS tag_transitions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  repo_id TEXT NOT NULL,
  tag_name TEXT NOT NULL,
  from_commit_id TEXT,
  to_commit_id TEXT,
  performed_by TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tag_transitions_tag ON tag_transitions (repo_id, tag_name, seq DESC);

CREATE TABLE IF NOT EXISTS repos (
  id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  repo_handle TEXT NOT NULL,
  description TEXT,
  readme TEXT,
  tags TEXT NOT NULL DEFAULT '[]',
  is_public INTEGER NOT NULL DEFAULT 0,
  is_archived INTEGER NOT NULL DEFAULT 0,
  num_downloads INTEGER NOT NULL DEFAULT 0,
  num_views INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (tenant_id, repo_handle)
);

CREATE TABLE IF NOT EXISTS commits (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  repo_id TEXT NOT NULL,
  commit_hash TEXT NOT NULL,
  parent_id TEXT,
  manifest TEXT NOT NULL,
  manifest_canonical TEXT NOT NULL,
  description TEXT,
  examples TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS commits_repo ON commits (repo_id, seq DESC);
CREATE INDEX IF NOT EXISTS commits_hash ON commits (repo_id, commit_hash);

CREATE TABLE IF NOT EXISTS repo_tags (
  id TEXT PRIMARY KEY,
  repo_id TEXT NOT NULL,
  tag_name TEXT NOT NULL,
  commit_id TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (repo_id, tag_name)
);

CREATE TABLE IF NOT EXISTS repo_likes (
  repo_id TEXT NOT NULL,
  tenant_id TEXT NOT NULL,
  PRIMARY KEY (repo_id, tenant_id)
) WITHOUT ROWID;
`;

/** The columns worked out from a run's own (see RUN_DERIVED). */
const RUN_DERIVED_COLUMNS: Array<[name: string, type: string]> = [
  ['status', 'TEXT'],
  ['latency', 'REAL'],
  ['first_token', 'REAL'],
  ['total_cost', 'REAL'],
  ['prompt_cost', 'REAL'],
  ['completion_cost', 'REAL'],
];

/** SQL over a `runs` row: the `usage_metadata` object a run reports costs in (its outputs', else its metadata's). */
export const USAGE_SQL = `CASE WHEN instr(outputs, '"usage_metadata"') > 0 AND json_type(outputs, '$.usage_metadata') = 'object' THEN json_extract(outputs, '$.usage_metadata')
  WHEN instr(extra, '"usage_metadata"') > 0 AND json_type(extra, '$.metadata.usage_metadata') = 'object' THEN json_extract(extra, '$.metadata.usage_metadata') END`;
/** A number field of the run's usage object, or NULL. */
const usageNumber = (field: string) =>
  `(SELECT CASE WHEN json_type(u.usage, '$.${field}') IN ('integer', 'real') THEN json_extract(u.usage, '$.${field}') END FROM (SELECT ${USAGE_SQL} AS usage) u)`;
/** The time of the run's first `new_token` event (ISO text or epoch milliseconds), as julianday. */
const FIRST_TOKEN_JD = `(SELECT CASE WHEN typeof(e.value ->> '$.time') IN ('integer', 'real') THEN julianday((e.value ->> '$.time') / 1000.0, 'unixepoch')
    ELSE julianday(e.value ->> '$.time') END
  FROM json_each(events) e
  WHERE e.value ->> '$.name' = 'new_token' AND (typeof(e.value ->> '$.time') IN ('integer', 'real') OR julianday(e.value ->> '$.time') IS NOT NULL)
  ORDER BY e.key LIMIT 1)`;

/**
 * The SET list that works out a run's derived columns from its own: `status` (error, success, pending), `latency`
 * (seconds, to the millisecond), `first_token` (seconds from its start to its first `new_token` event), and the
 * costs it reports in `usage_metadata` (`input_cost`, `output_cost`, `total_cost`, the total their sum when not
 * given), as the v1 run answers them. Kept by triggers on every write that changes what they come from, so
 * stats, charts and filters read a column (and an index) instead of parsing JSON per row.
 */
export const RUN_DERIVED = `status = CASE WHEN error IS NOT NULL THEN 'error' WHEN end_time IS NOT NULL THEN 'success' ELSE 'pending' END,
  latency = CASE WHEN end_time IS NOT NULL AND start_time IS NOT NULL THEN ROUND((julianday(end_time) - julianday(start_time)) * 86400.0, 3) END,
  first_token = CASE WHEN instr(events, '"new_token"') > 0 AND json_valid(events) AND json_type(events) = 'array'
    THEN ROUND((${FIRST_TOKEN_JD} - julianday(start_time)) * 86400.0, 3) END,
  prompt_cost = ${usageNumber('input_cost')},
  completion_cost = ${usageNumber('output_cost')},
  total_cost = COALESCE(${usageNumber('total_cost')}, CASE WHEN ${usageNumber('input_cost')} IS NOT NULL OR ${usageNumber('output_cost')} IS NOT NULL
    THEN IFNULL(${usageNumber('input_cost')}, 0) + IFNULL(${usageNumber('output_cost')}, 0) END)`;

/**
 * The triggers that keep a run's derived columns and the indexes over them. A row inserted with its status already
 * set (the demo seed's bulk insert works them out itself) is left as written.
 */
const RUN_DERIVED_SCHEMA = `
CREATE TRIGGER IF NOT EXISTS runs_derived_insert AFTER INSERT ON runs WHEN NEW.status IS NULL
BEGIN UPDATE runs SET ${RUN_DERIVED} WHERE rowid = NEW.rowid; END;
CREATE TRIGGER IF NOT EXISTS runs_derived_update AFTER UPDATE OF start_time, end_time, error, outputs, extra, events ON runs
BEGIN UPDATE runs SET ${RUN_DERIVED} WHERE rowid = NEW.rowid; END;
-- A project's root runs in time order (runs tables, charts, stats), its failed ones, and by latency (percentiles).
CREATE INDEX IF NOT EXISTS runs_session_roots ON runs (session_id, start_time, id) WHERE parent_run_id IS NULL;
CREATE INDEX IF NOT EXISTS runs_session_root_status ON runs (session_id, status, start_time) WHERE parent_run_id IS NULL;
CREATE INDEX IF NOT EXISTS runs_session_root_latency ON runs (session_id, latency, start_time) WHERE parent_run_id IS NULL;
-- Everything run stats, dashboards and project figures read of a project's runs, in time order: they are read from
-- this index alone (no visit to the runs' rows, which hold their inputs and outputs).
CREATE INDEX IF NOT EXISTS runs_session_stats ON runs (session_id, start_time, parent_run_id, run_type, name, status, latency,
  first_token, total_tokens, prompt_tokens, completion_tokens, total_cost, prompt_cost, completion_cost, trace_id, tenant_id);
`;

const TABLES = [
  'sessions', 'runs', 'datasets', 'example_revisions', 'dataset_versions', 'dataset_tags', 'blobs', 'examples_fts',
  'comparative_experiments', 'feedback', 'feedback_configs', 'feedback_tokens', 'annotation_queues', 'queue_runs',
  'queue_item_status', 'queue_reviewers',
  'repos', 'commits', 'repo_tags', 'repo_likes', 'tag_transitions',
];

/**
 * Columns added to tables after their first release. `CREATE TABLE IF NOT EXISTS` leaves a table of an older
 * database file as it was, so each missing column is added here when the database is opened.
 */
const ADDED_COLUMNS: Record<string, Array<[name: string, type: string]>> = {
  // Queue settings and review state (annotation queues as LangSmith has them now).
  annotation_queues: [
    ['default_dataset', 'TEXT'],
    ['num_reviewers_per_item', 'INTEGER'],
    ['enable_reservations', 'INTEGER'],
    ['reservation_minutes', 'INTEGER'],
    ['metadata', 'TEXT'],
    ['reviewer_access_mode', 'TEXT'],
    ['queue_type', 'TEXT'],
  ],
  queue_runs: [
    ['source_proposed_example_id', 'TEXT'],
    // A workspace's one reviewer's status, before statuses were kept per user (queue_item_status); moved
    // there when the server starts (store/queues.ts migrateLegacyStatuses), then left empty.
    ['status', 'TEXT'],
    ['status_at', 'TEXT'],
    ['override_added_at', 'TEXT'],
    // Worked out from queue_item_status on every status change, so the review sections need no subquery.
    ['completed_count', 'INTEGER NOT NULL DEFAULT 0'],
    ['last_completed_at', 'TEXT'],
    // The reviewer holding the item (a 'viewed' status in a queue with reservations) and until when.
    ['reserved_by', 'TEXT'],
    ['reserved_until', 'TEXT'],
    // THREAD items: the thread and its project (run_id then holds 'thread:<project>:<thread>', so a thread is
    // queued once and never matches a run).
    ['item_type', 'TEXT'],
    ['thread_id', 'TEXT'],
    ['project_id', 'TEXT'],
  ],
  // The experiment a dataset's comparisons start from (LangSmith's Dataset.baseline_experiment_id).
  datasets: [['baseline_experiment_id', 'TEXT']],
  // What a run's stats, charts and filters read, worked out from its own columns when it is written (RUN_DERIVED).
  runs: RUN_DERIVED_COLUMNS,
};

function addMissingColumns(db: DB): void {
  let runsDerivedAdded = false;
  for (const [table, columns] of Object.entries(ADDED_COLUMNS)) {
    const have = new Set((db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name));
    for (const [name, type] of columns) {
      if (have.has(name)) continue;
      db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${type}`);
      if (table === 'runs') runsDerivedAdded = true;
    }
  }
  db.exec('CREATE INDEX IF NOT EXISTS queue_runs_run ON queue_runs (run_id)');
  db.exec(RUN_DERIVED_SCHEMA);
  // A database from before these columns: fill them once for the runs it holds.
  if (runsDerivedAdded) db.exec(`UPDATE runs SET ${RUN_DERIVED}`);
}

export function openDatabase(file: string, reset = false): DB {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const db = new Database(file);
  if (file !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = OFF');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -64000');
  // Fewer, larger checkpoints: bulk example ingest would otherwise pay for one every few batches.
  if (file !== ':memory:') db.pragma('wal_autocheckpoint = 8000');
  db.pragma('temp_store = MEMORY');
  db.exec(SCHEMA);
  addMissingColumns(db);
  if (reset) {
    db.transaction(() => {
      for (const t of TABLES) db.exec(`DELETE FROM ${t}`);
    })();
  }
  return db;
}

/** True when nothing that a user would see is stored yet (the demo seed only fills an empty DB). */
export function isEmpty(db: DB): boolean {
  for (const t of ['sessions', 'datasets', 'repos', 'annotation_queues']) {
    if (db.prepare(`SELECT 1 FROM ${t} LIMIT 1`).get()) return false;
  }
  return true;
}

/**
 * Statements kept per SQL text. SQL built for a request (id lists of any length, filters) makes new texts
 * without end, so the oldest are let go past this many.
 */
const STATEMENTS_KEPT = 2000;

function remember<T>(cache: Map<string, T>, sql: string, value: T): void {
  if (cache.size >= STATEMENTS_KEPT) cache.delete(cache.keys().next().value!);
  cache.set(sql, value);
}

/** A statement that answers rows, read as arrays and turned into objects by a function made for its columns. */
interface Reader {
  stmt: Database.Statement;
  row: (values: unknown[]) => Record<string, unknown>;
}

/**
 * Prepared statements, compiled once per SQL text. Rows come out of SQLite as arrays and are turned into
 * objects by a function compiled for the statement's columns: the same objects as better-sqlite3's own (a
 * later column of the same name wins), built in a third less time than it sets them property by property.
 */
export class Statements {
  private cache = new Map<string, Database.Statement>();
  private readers = new Map<string, Reader>();
  constructor(readonly db: DB) {}
  get(sql: string): Database.Statement {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      remember(this.cache, sql, s);
    }
    return s;
  }
  private reader(sql: string): Reader {
    let r = this.readers.get(sql);
    if (!r) {
      const stmt = this.db.prepare(sql).raw(true);
      const fields = stmt.columns().map((c, i) => `${JSON.stringify(c.name)}: v[${i}]`);
      r = { stmt, row: new Function('v', `return { ${fields.join(', ')} };`) as Reader['row'] };
      remember(this.readers, sql, r);
    }
    return r;
  }
  all<T = unknown>(sql: string, ...params: unknown[]): T[] {
    const { stmt, row } = this.reader(sql);
    const rows = stmt.all(...params) as unknown[][];
    const out = new Array<T>(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = row(rows[i]!) as T;
    return out;
  }
  one<T = unknown>(sql: string, ...params: unknown[]): T | undefined {
    const { stmt, row } = this.reader(sql);
    const values = stmt.get(...params) as unknown[] | undefined;
    return values === undefined ? undefined : (row(values) as T);
  }
  run(sql: string, ...params: unknown[]) {
    return this.get(sql).run(...params);
  }
  tx<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }
}

/**
 * Checkpoints the WAL of a database file from a worker thread with its own connection, so the requests
 * that write do not pay for copying the WAL back into the database: an automatic checkpoint runs inside
 * the commit that crosses the threshold and holds that request up. PASSIVE checkpoints never block
 * readers or writers; the main connection's automatic checkpoint stays on as a backstop.
 */
export class Checkpointer {
  private worker: Worker | null;
  private stopped: Promise<void> | null = null;
  constructor(file: string, intervalMs = 100) {
    this.worker = new Worker(CHECKPOINT_WORKER, { eval: true, workerData: { file: path.resolve(file), intervalMs } });
    this.worker.unref();
    // Without it, commits checkpoint as before.
    this.worker.on('error', () => {
      this.worker = null;
    });
  }
  /** Stops the worker and closes its connection (call before the main connection's last checkpoint). */
  stop(): Promise<void> {
    if (!this.stopped) {
      const w = this.worker;
      this.worker = null;
      this.stopped = w
        ? new Promise<void>((resolve) => {
            w.once('exit', () => resolve());
            w.postMessage('stop');
          })
        : Promise.resolve();
    }
    return this.stopped;
  }
}

const CHECKPOINT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 0');
db.pragma('wal_autocheckpoint = 0');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {}
}, workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;
