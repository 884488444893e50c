// `npm start` builds with esbuild (scripts/build-start.mjs) instead of `tsc -b`: every source of
// what npm start runs must come out of it as the .js file tsc would emit, at the same path, and
// the services' entry points must load in Node.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '@catalogue/testing';

const PACKAGES = [
  'libs/config',
  'libs/logger',
  'libs/db',
  'libs/queue',
  'libs/egress',
  'libs/webhooks',
  'libs/credits',
  'libs/content',
  'libs/content-store',
  'libs/http',
  'libs/admin',
  'services/catalogue-api',
  'services/white-label-api',
  'services/credit-service',
  'services/generation-worker',
];

/** The .js files under a package's dist/, relative to it. */
function emitted(root: string, pkg: string): string[] {
  const dist = join(root, pkg, 'dist');
  return readdirSync(dist, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .map((file) => relative(dist, join(dist, file)))
    .sort();
}

/** What tsc emits for a package: one .js per source under src/ (declaration files emit none). */
function expected(pkg: string): string[] {
  return readdirSync(join(REPO_ROOT, pkg, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => file.replace(/\.ts$/, '.js'))
    .sort();
}

describe("npm start's build", () => {
  let out: string;

  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'build-start-'));
    execFileSync(process.execPath, [join(REPO_ROOT, 'scripts/build-start.mjs')], {
      env: { ...process.env, BUILD_START_OUT: out },
      stdio: 'pipe',
    });
  });

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  test.each(PACKAGES)('when %s is built for npm start, then it has every file tsc emits', (pkg) => {
    expect(emitted(out, pkg)).toEqual(expected(pkg));
  });

  test('when a service entry point is built, then Node accepts it', () => {
    for (const pkg of PACKAGES.filter((p) => p.startsWith('services/'))) {
      execFileSync(process.execPath, ['--check', join(out, pkg, 'dist', 'main.js')]);
    }
  });
});
