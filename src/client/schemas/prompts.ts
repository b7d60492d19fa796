// Prompt repositories, their commits and tags, and likes.

import * as z from 'zod';
import { str, num, bool } from './fields';

export const PromptRepoSchema = z.looseObject({
  id: str,
  repo_handle: z.string(),
  owner: str,
  full_name: str,
  description: str,
  readme: str,
  tags: z.array(z.string()).nullish(),
  is_public: bool,
  is_archived: bool,
  num_likes: num,
  num_commits: num,
  last_commit_hash: str,
  created_at: str,
  updated_at: str,
  tenant_id: str,
  liked_by_auth_user: bool,
});
export type PromptRepo = z.infer<typeof PromptRepoSchema>;

export const RepoEnvelopeSchema = z.looseObject({ repo: PromptRepoSchema });
export const ListReposSchema = z.looseObject({ repos: z.array(PromptRepoSchema), total: num });

export const CommitSchema = z.looseObject({
  id: str,
  commit_hash: z.string(),
  parent_commit_hash: str,
  manifest: z.unknown(),
  examples: z.array(z.unknown()).nullish(),
  created_at: str,
});
export type Commit = z.infer<typeof CommitSchema>;
export const ListCommitsSchema = z.looseObject({ commits: z.array(CommitSchema), total: num });
export const CommitEnvelopeSchema = z.union([z.looseObject({ commit: CommitSchema }), CommitSchema]);

export const PromptCommitSchema = z.looseObject({
  commit_hash: z.string(),
  manifest: z.unknown(),
  examples: z.array(z.unknown()).nullish(),
  model_config: z.unknown().optional(),
  model_provider: z.unknown().optional(),
});

export const PromptTagSchema = z.looseObject({
  id: str,
  tag_name: z.string(),
  commit_id: z.string(),
  commit_hash: str,
  created_at: str,
  updated_at: str,
});
export type PromptTag = z.infer<typeof PromptTagSchema>;

export const LikesSchema = z.looseObject({ likes: z.number() });
