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
}

const compose = parse(read('deploy/compose.yaml'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const dockerfile = read('docker/Dockerfile');
const stages = dockerfile.split(/^FROM /m).slice(1);
const finalStage = stages[stages.length - 1]!;

describe('docker/Dockerfile', () => {
  test('when read, then it builds in stages and runs on Node 20 slim as a non-root user without HEALTHCHECK', () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20[\d.]*-[a-z]+-slim$/m);
    expect(finalStage).toMatch(/^\$\{NODE_IMAGE\} AS runtime/);
    expect(finalStage).toMatch(/^USER [1-9]\d*:[1-9]\d*$/m);
    expect(dockerfile).not.toMatch(/^HEALTHCHECK/m);
    // Production dependencies only in the final image; the build's node_modules stay behind.
    expect(dockerfile).toMatch(/--omit=dev/);
    expect(finalStage).not.toMatch(/COPY --from=build \/app\/node_modules/);
    expect(finalStage).toContain('docs/openapi.yaml');
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
    expect(migrate.command).toEqual(['node', 'libs/db/dist/cli/migrate.js']);
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

  test('when the worker is stopped, then compose waits as long as Kubernetes does', () => {
    const values = parse(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8'));
    expect(compose.services['generation-worker']!.stop_grace_period).toBe(
      `${values.generationWorker.terminationGracePeriodSeconds}s`,
    );
    expect(finalStage).toContain(`USER ${compose.services['catalogue-api']!.user}`);
  });
});
