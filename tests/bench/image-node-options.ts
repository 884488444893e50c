// The NODE_OPTIONS the image runs every process with (docker/Dockerfile's `ENV NODE_OPTIONS`):
// bench:catalogue's and bench:worker's processes (the services and their baselines alike) run
// with them, as deployed. Kept in the run's record as BENCH_IMAGE_NODE_OPTIONS (results.ts
// records BENCH_* settings).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './harness';

export function imageNodeOptions(): string {
  const dockerfile = readFileSync(join(REPO_ROOT, 'docker', 'Dockerfile'), 'utf8');
  const match = /^ENV NODE_OPTIONS=(?:"([^"]*)"|(\S+))\s*$/m.exec(dockerfile);
  const options = match?.[1] ?? match?.[2];
  if (!options) throw new Error('docker/Dockerfile sets no NODE_OPTIONS');
  process.env.BENCH_IMAGE_NODE_OPTIONS = options;
  return options;
}
