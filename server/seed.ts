// Demo data for `--seed demo`.
import type { Ctx } from './context';

export function seedDemo(ctx: Ctx): void {
  void ctx;
}
