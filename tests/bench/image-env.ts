// The NODE_OPTIONS the production image runs every process with (docker/Dockerfile's
// `ENV NODE_OPTIONS=…`), read from the Dockerfile so that a benchmark's services run as the
// image's do and follow it when it changes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './harness';

export function imageNodeOptions(): string {
  const dockerfile = readFileSync(join(REPO_ROOT, 'docker', 'Dockerfile'), 'utf8');
  const found = /^ENV NODE_OPTIONS="([^"]*)"/m.exec(dockerfile);
  if (!found)
    throw new Error('docker/Dockerfile sets no NODE_OPTIONS: the benchmark cannot run as the image does');
  return found[1]!;
}
