import type { Config } from '@catalogue/config';
import { buildBaseDeps, closeBaseDeps, type BaseDeps } from '@catalogue/http';

export type Deps = BaseDeps;

export function buildDeps(config: Config): Deps {
  return buildBaseDeps(config, 'credit-service');
}

export async function closeDeps(deps: Deps): Promise<void> {
  await closeBaseDeps(deps);
}
