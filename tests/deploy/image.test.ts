// The image recipe and the laptop compose file cannot be run here (no Docker engine), so
// their promises are checked as text: what they start exists in the build, in the right
// order, as the same unprivileged user the chart expects.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '@catalogue/testing';
import { CHART_DIR } from './chart';
import { SERVICES } from './services';

const read = (path: string): string => readFileSync(join(REPO_ROOT, path), 'utf8');

interface ComposeService {
  image?: string;
  profiles?: string[];
  command?: string[];
  user?: string;
  read_only?: boolean;
  depends_on?: Record<string, { condition: string }>;
  environment?: Record<string, string>;
  stop_grace_period?: string;
  ports?: string[];
  healthcheck?: { test: string[] };
}

const compose = parse(read('deploy/compose.yaml'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const dockerfile = read('docker/Dockerfile');
const stages = dockerfile.split(/^FROM /m).slice(1);
const finalStage = stages[stages.length - 1]!;

describe('docker/Dockerfile', () => {
  test('when read, then it builds in stages and runs on Node 24 slim as a non-root user without HEALTHCHECK', () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    // The runtime CI tests on (.nvmrc; scripts/use-node24.sh).
    const nvmrc = read('.nvmrc').trim();
    expect(dockerfile).toMatch(new RegExp(`^ARG NODE_IMAGE=node:${nvmrc}[\\d.]*-[a-z]+-slim$`, 'm'));
    expect(finalStage).toMatch(/^\$\{NODE_IMAGE\} AS runtime/);
    expect(finalStage).toMatch(/^USER [1-9]\d*:[1-9]\d*$/m);
    expect(dockerfile).not.toMatch(/^HEALTHCHECK/m);
    // Production dependencies only in the final image; the build's node_modules stay behind.
    expect(dockerfile).toMatch(/--omit=dev/);
    expect(finalStage).not.toMatch(/COPY --from=build \/app\/node_modules/);
    expect(finalStage).toContain('docs/openapi.yaml');
    // The content stylesheet is read from beside libs/content at run time (served at /content/v1/).
    expect(finalStage).toMatch(/^COPY libs\/content\/assets \.\/libs\/content\/assets$/m);
  });

  test('when built, then dependencies come from the lock file alone, with npm ci', () => {
    expect(dockerfile).not.toMatch(/npm install(?! --global "npm@)/);
    expect(dockerfile.match(/^RUN npm ci /gm)).toHaveLength(2);
  });

  test('when the image is inspected, then its OCI labels say what it is and where it comes from', () => {
    const version = (JSON.parse(read('package.json')) as { version: string }).version;
    expect(finalStage).toMatch(new RegExp(`^ARG VERSION=${version.replace(/\./g, '\\.')}$`, 'm'));
    for (const [label, arg] of [
      ['source', 'SOURCE'],
      ['version', 'VERSION'],
      ['revision', 'REVISION'],
    ]) {
      expect(finalStage).toMatch(new RegExp(`^ARG ${arg}=`, 'm'));
      expect(finalStage).toContain(`org.opencontainers.image.${label}="\${${arg}}"`);
    }
  });

  test('when it runs, then npm and corepack are not in the image (nothing needs them at run time)', () => {
    const removed = /^RUN rm -rf ([^&]+)/m.exec(finalStage)![1]!.split(/\s+\\?\s*/);
    for (const path of [
      '/usr/local/lib/node_modules/npm',
      '/usr/local/lib/node_modules/corepack',
      '/usr/local/bin/npm',
      '/usr/local/bin/npx',
      '/usr/local/bin/corepack',
    ])
      expect(removed).toContain(path);
    const commands = finalStage
      .replace(/\\\n/g, ' ')
      .split('\n')
      .filter((line) => /^(RUN|CMD|ENTRYPOINT) /.test(line))
      .flatMap((line) => line.replace(/^\w+ /, '').split(/&&|;|\|\|/))
      .map((command) => command.replace(/^[\s["]+/, ''));
    expect(commands.filter((command) => /^(npm|npx|corepack)\b/.test(command))).toEqual([]);
  });

  test('when read, then the build context leaves out dependencies, outputs, secrets and git', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['**/node_modules', '**/dist', '.env', '.git', '.tools'])
      expect(ignored).toContain(entry);
  });
});

describe('deploy/compose.yaml', () => {
  const app = SERVICES.map(([name]) => name);

  test('when started without a profile, then only PostgreSQL and Redis run (what npm start needs)', () => {
    const unprofiled = Object.entries(compose.services)
      .filter(([, s]) => !s.profiles?.length)
      .map(([name]) => name);
    expect(unprofiled.sort()).toEqual(['postgres', 'redis']);
  });

  test('when started with the app profile, then the migration runs first and every service starts from the image', () => {
    const migrate = compose.services.migrate!;
    expect(migrate.command).toEqual(['node', 'libs/content-store/dist/cli/migrate.js']);
    expect(migrate.depends_on).toMatchObject({ postgres: { condition: 'service_healthy' } });
    expect(existsSync(join(REPO_ROOT, migrate.command![1]!))).toBe(true);
    for (const name of app) {
      const service = compose.services[name]!;
      expect(service.image).toBe(migrate.image);
      expect(service.command).toEqual(['node', `services/${name}/dist/main.js`]);
      expect(existsSync(join(REPO_ROOT, service.command![1]!))).toBe(true);
      expect(service.depends_on).toMatchObject({ migrate: { condition: 'service_completed_successfully' } });
      expect(service).toMatchObject({ user: '10001:10001', read_only: true });
    }
  });

  test('when pulled, then every third-party image is pinned to a minor version', () => {
    for (const name of ['postgres', 'redis'])
      expect(compose.services[name]!.image).toMatch(new RegExp(`^${name}:\\d+\\.\\d+(\\.\\d+)?-alpine$`));
  });

  test('when an app service runs, then compose checks the readiness of that same service', () => {
    for (const name of app) {
      const service = compose.services[name]!;
      const port = service.ports![0]!.split(':').pop()!;
      expect(Object.values(service.environment!)).toContain(port);
      const [kind, binary, flag, script] = service.healthcheck!.test;
      expect([kind, binary, flag]).toEqual(['CMD', 'node', '-e']);
      expect(script).toContain(`fetch('http://127.0.0.1:${port}/readyz')`);
    }
  });

  test('when the worker is stopped, then compose waits as long as Kubernetes does', () => {
    const values = parse(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8'));
    expect(compose.services['generation-worker']!.stop_grace_period).toBe(
      `${values.generationWorker.terminationGracePeriodSeconds}s`,
    );
    expect(finalStage).toContain(`USER ${compose.services['catalogue-api']!.user}`);
  });
});
