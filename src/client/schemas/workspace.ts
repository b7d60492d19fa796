// What the server and the workspace answer about themselves (/info, /settings), and share records.

import * as z from 'zod';
import { str, num, bool, recordish } from './fields';

export const ShareSchema = z.looseObject({ share_token: z.string(), dataset_id: str, run_id: str });
export type ShareRecord = z.infer<typeof ShareSchema>;

export const ServerInfoSchema = z.looseObject({
  version: str,
  license_expiration_time: str,
  batch_ingest_config: z
    .looseObject({
      use_multipart_endpoint: bool,
      size_limit: num,
      size_limit_bytes: num,
      scale_up_qsize_trigger: num,
    })
    .nullish(),
  instance_flags: recordish,
});
export type ServerInfo = z.infer<typeof ServerInfoSchema>;

export const SettingsSchema = z.looseObject({
  id: z.string(),
  display_name: str,
  created_at: str,
  tenant_handle: str,
});
export type TenantSettings = z.infer<typeof SettingsSchema>;
