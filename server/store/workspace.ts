// What a workspace shares publicly (datasets and runs with a share token), for GET /workspaces/current/shared.
import type { Ctx, Tenant } from '../context';

export type SharedEntity =
  | { type: 'dataset'; share_token: string; created_at: string; dataset_id: string; dataset_name: string }
  | { type: 'run'; share_token: string; created_at: string; run_id: string; run_name: string | null; run_type: string | null; session_id: string; session_name: string | null };

/** Datasets first, then runs, newest first within each. */
export function sharedEntities(ctx: Ctx, tenant: Tenant, limit: number, offset: number): SharedEntity[] {
  const rows = ctx.st.all<Record<string, string | null>>(
    `SELECT * FROM (
       SELECT 'dataset' AS type, d.share_token, d.modified_at AS created_at, d.id AS dataset_id, d.name AS dataset_name,
              NULL AS run_id, NULL AS run_name, NULL AS run_type, NULL AS session_id, NULL AS session_name, 0 AS k
         FROM datasets d WHERE d.tenant_id = ? AND d.share_token IS NOT NULL
       UNION ALL
       SELECT 'run', r.share_token, r.start_time, NULL, NULL, r.id, r.name, r.run_type, r.session_id, s.name, 1
         FROM runs r LEFT JOIN sessions s ON s.id = r.session_id WHERE r.tenant_id = ? AND r.share_token IS NOT NULL
     ) ORDER BY k, created_at DESC LIMIT ? OFFSET ?`,
    tenant.id, tenant.id, limit, offset,
  );
  return rows.map((r) =>
    r['type'] === 'dataset'
      ? { type: 'dataset', share_token: r['share_token']!, created_at: r['created_at']!, dataset_id: r['dataset_id']!, dataset_name: r['dataset_name']! }
      : { type: 'run', share_token: r['share_token']!, created_at: r['created_at']!, run_id: r['run_id']!, run_name: r['run_name'], run_type: r['run_type'], session_id: r['session_id']!, session_name: r['session_name'] },
  );
}
