// `npm start` builds with esbuild (scripts/build-start.mjs) instead of `tsc -b`: every source of
// what npm start runs must come out of it as the .js file tsc would emit, at the same path, and
// the services' entry points must load in Node.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '@catalogue/testing';

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
  /** The packages the script says it built (`[3/16] libs/db: 63 files, 0.4 s`). */
  let built: string[];

  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), 'build-start-'));
    const printed = execFileSync(process.execPath, [join(REPO_ROOT, 'scripts/build-start.mjs')], {
      env: { ...process.env, BUILD_START_OUT: out },
      encoding: 'utf8',
    });
    built = [...printed.matchAll(/^\[\d+\/\d+\] ((?:libs|services)\/[a-z-]+): \d+ files/gm)].map(
      (m) => m[1]!,
    );
  });

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  test('when it builds, then it covers the four services, each library they load and the launcher', () => {
    const services = readdirSync(join(REPO_ROOT, 'services'));
    expect(services.map((name) => `services/${name}`).filter((pkg) => !built.includes(pkg))).toEqual([]);
    expect(built).toContain('libs/admin');
    // Every package of ours that a built one depends on is built too (the editor is bundled).
    const missing = built.flatMap((pkg) => {
      const manifest = JSON.parse(readFileSync(join(REPO_ROOT, pkg, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      return Object.keys(manifest.dependencies ?? {})
        .filter((name) => name.startsWith('@catalogue/') && name !== '@catalogue/editor')
        .map((name) => `libs/${name.slice('@catalogue/'.length)}`)
        .filter((dep) => !built.includes(dep))
        .map((dep) => `${pkg} needs ${dep}`);
    });
    expect(missing).toEqual([]);
  });

  test('when a package is built for npm start, then it has every file tsc emits', () => {
    expect(built.map((pkg) => [pkg, emitted(out, pkg)])).toEqual(built.map((pkg) => [pkg, expected(pkg)]));
  });

  test('when a service entry point is built, then Node accepts it', () => {
    for (const pkg of built.filter((p) => p.startsWith('services/'))) {
      execFileSync(process.execPath, ['--check', join(out, pkg, 'dist', 'main.js')]);
    }
  });
});

describe("npm run admin's build (build-start.mjs --admin)", () => {
  test('when it builds, then it prints nothing and emits libs/admin and each library it loads, not the services', () => {
    const out = mkdtempSync(join(tmpdir(), 'build-admin-'));
    try {
      const printed = execFileSync(
        process.execPath,
        [join(REPO_ROOT, 'scripts/build-start.mjs'), '--admin'],
        {
          env: { ...process.env, BUILD_START_OUT: out },
          encoding: 'utf8',
        },
      );
      expect(printed).toBe('');
      const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'libs/admin/package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      };
      const libs = Object.keys(manifest.dependencies)
        .filter((name) => name.startsWith('@catalogue/'))
        .map((name) => `libs/${name.slice('@catalogue/'.length)}`);
      for (const pkg of ['libs/admin', ...libs])
        expect([pkg, emitted(out, pkg)]).toEqual([pkg, expected(pkg)]);
      expect(readdirSync(out)).toEqual(['libs']);
      execFileSync(process.execPath, ['--check', join(out, 'libs/admin/dist/cli.js')]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
