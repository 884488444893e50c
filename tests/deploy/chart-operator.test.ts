// What the chart gives the operator who adopts it: only the APIs behind the Ingress, their own
// Secret keys, extra env/volumes, scheduling defaults, a `helm test` that checks readiness,
// alerts that link to their runbook section, and refusals of values that would start pods
// that cannot work.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { REPO_ROOT } from '@catalogue/testing';
import { EVERYTHING_VALUES, helmTemplate, podSpecs, renderChart, type K8sObject } from './chart';

const SETUP_TIMEOUT_MS = 120_000;
let everything: K8sObject[];
let defaults: K8sObject[];

beforeAll(async () => {
  [everything, defaults] = await Promise.all([renderChart(['-f', EVERYTHING_VALUES]), renderChart()]);
}, SETUP_TIMEOUT_MS);

const ofKind = (objects: K8sObject[], kind: string): K8sObject[] => objects.filter((o) => o.kind === kind);
const component = (o: K8sObject): string => o.metadata.labels!['app.kubernetes.io/component']!;

describe('Ingress', () => {
  test('when every Ingress is on, then it routes each API, the content stylesheet and /docs only, never /metrics or the probes', () => {
    const routed = Object.fromEntries(
      ofKind(everything, 'Ingress').map((ingress) => {
        const rules = (ingress.spec as { rules: Array<{ http: { paths: Array<{ path: string }> } }> }).rules;
        // The hosts' own paths are a part of these (the test of the keys of common charts).
        return [component(ingress), rules[0]!.http.paths.map((p) => p.path)];
      }),
    );
    expect(routed).toEqual({
      // /content/v1: the content stylesheet storefronts load from either API.
      'catalogue-api': ['/api/v1', '/api/v2', '/content/v1', '/docs'],
      // what the embedded editor loads too: its bundle, design previews, the price list
      'white-label-api': [
        '/api/v3',
        '/content/v1',
        '/editor/v1',
        '/design-preview/v1',
        '/public/credit',
        '/docs',
      ],
      // ingress.docs: false in the everything values
      'credit-service': ['/public/credit'],
    });
  });
});

describe('pods', () => {
  test('when extra env, volumes and a priority class are given, then every pod, the migration included, gets them', () => {
    for (const { owner, pod } of podSpecs(everything)) {
      const spec = pod as unknown as {
        priorityClassName?: string;
        volumes: Array<{ name: string }>;
        containers: Array<{ envFrom: unknown[]; volumeMounts: Array<{ name: string; mountPath: string }> }>;
      };
      const expected = component(owner) === 'generation-worker' ? 'catalogue-workers' : 'catalogue-apis';
      expect({ owner: owner.metadata.name, priority: spec.priorityClassName }).toEqual({
        owner: owner.metadata.name,
        priority: expected,
      });
      expect(spec.volumes.map((v) => v.name)).toContain('pg-ca');
      expect(spec.containers[0]!.volumeMounts).toContainEqual({
        name: 'pg-ca',
        mountPath: '/etc/pg-ca',
        readOnly: true,
      });
      expect(spec.containers[0]!.envFrom).toContainEqual({ configMapRef: { name: 'catalogue-extra' } });
    }
  });

  test('when no affinity is given, then each Deployment prefers to spread its pods over nodes', () => {
    for (const deployment of ofKind(defaults, 'Deployment')) {
      const { pod } = podSpecs([deployment])[0]!;
      expect((pod as unknown as { affinity: unknown }).affinity).toEqual({
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 100,
              podAffinityTerm: {
                topologyKey: 'kubernetes.io/hostname',
                labelSelector: {
                  matchLabels: expect.objectContaining({
                    'app.kubernetes.io/component': component(deployment),
                  }),
                },
              },
            },
          ],
        },
      });
    }
  });
});

describe('helm test', () => {
  const testPod = (): K8sObject => defaults.find((o) => o.kind === 'Pod')!;

  test('when rendered, then a test hook pod runs as the unprivileged image user and asks every Service', () => {
    const pod = testPod();
    expect(pod.metadata.annotations).toMatchObject({ 'helm.sh/hook': 'test' });
    const spec = pod.spec as {
      containers: Array<{ command: string[]; securityContext: Record<string, unknown> }>;
    };
    expect(spec.containers[0]!.securityContext).toMatchObject({
      runAsNonRoot: true,
      readOnlyRootFilesystem: true,
    });
    const urls = spec.containers[0]!.command.slice(3);
    expect(urls.sort()).toEqual(
      ['catalogue-api', 'credit-service', 'generation-worker', 'white-label-api'].map(
        (name) => `http://shop-catalogue-content-${name}.catalogue.svc:80/readyz`,
      ),
    );
  });

  test("when its script runs, then it passes only if every service's /readyz answers 2xx, naming the one that does not", async () => {
    const [node, flag, script] = (testPod().spec as { containers: Array<{ command: string[] }> })
      .containers[0]!.command;
    expect([node, flag]).toEqual(['node', '-e']);
    const server: Server = createServer((req, res) => {
      res.statusCode = req.url === '/ready/readyz' ? 200 : 503;
      res.end(
        req.url === '/ready/readyz'
          ? '{"status":"ready"}'
          : '{"status":"not ready","checks":{"redis":"down"}}',
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const runScript = (urls: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ['-e', script!, ...urls], {
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('close', (code) => resolve({ code, out }));
      });
    try {
      expect(await runScript([`${base}/ready/readyz`, `${base}/ready/readyz`])).toMatchObject({ code: 0 });
      const failing = await runScript([`${base}/ready/readyz`, `${base}/down/readyz`]);
      expect(failing.code).toBe(1);
      expect(failing.out).toMatch(new RegExp(`NOT READY ${base}/down/readyz 503 .*redis`));
    } finally {
      server.close();
    }
  });
});

describe('alerts', () => {
  test('when rendered, then every alert links to a section of deploy/README.md that exists', () => {
    const readme = readFileSync(join(REPO_ROOT, 'deploy', 'README.md'), 'utf8');
    // GitHub's anchors: the heading in lower case, punctuation dropped, spaces as dashes.
    const anchors = new Set(
      [...readme.matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) =>
        heading!
          .trim()
          .toLowerCase()
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-'),
      ),
    );
    const rules = ofKind(everything, 'PrometheusRule').flatMap((o) =>
      (
        o.spec as {
          groups: Array<{
            name: string;
            rules: Array<{ alert: string; annotations: Record<string, string> }>;
          }>;
        }
      ).groups
        .filter((g) => !g.name.endsWith('.additional')) // the operator's own
        .flatMap((g) => g.rules.filter((r) => r.alert)),
    );
    expect(rules.length).toBeGreaterThanOrEqual(10);
    for (const rule of rules) {
      const url = rule.annotations.runbook_url ?? '';
      expect(url).toMatch(/^https:\/\/.+\/deploy\/README\.md#/);
      const anchor = url.split('#')[1]!;
      expect({ alert: rule.alert, section: anchors.has(anchor) }).toEqual({
        alert: rule.alert,
        section: true,
      });
    }
  });
});

describe('values that would start pods that cannot work', () => {
  test.each([
    [
      'a NetworkPolicy without any egress rule for the databases',
      ['--set', 'networkPolicy.enabled=true'],
      'networkPolicy.enabled needs networkPolicy.extraEgress rules for PostgreSQL and Redis',
    ],
    [
      'a NetworkPolicy whose egress misses the database port',
      [
        '--set',
        'networkPolicy.enabled=true',
        '--set-json',
        'networkPolicy.extraEgress=[{"ports":[{"port":6379,"protocol":"TCP"}]}]',
      ],
      'networkPolicy.extraEgress has no rule for the database port 5432',
    ],
    [
      'KEDA and an HPA both scaling the worker',
      ['--set', 'generationWorker.keda.enabled=true', '--set', 'generationWorker.autoscaling.enabled=true'],
      'generationWorker.keda.enabled and generationWorker.autoscaling.enabled both scale it: KEDA makes its own HPA',
    ],
    [
      'a path of its own for an Ingress',
      ['--set-json', 'catalogueApi.ingress.hosts=[{"host":"x","paths":[]}]'],
      'paths',
    ],
  ])('when given %s, then helm refuses to render, saying why', async (_case, args, message) => {
    const result = await helmTemplate(args);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(message);
  });

  test('when the NetworkPolicy allows the database port, then it renders', async () => {
    const objects = await renderChart([
      '--set',
      'networkPolicy.enabled=true',
      '--set-json',
      'networkPolicy.extraEgress=[{"ports":[{"port":5432,"protocol":"TCP"},{"port":6379,"protocol":"TCP"}]}]',
    ]);
    expect(ofKind(objects, 'NetworkPolicy')).toHaveLength(4);
  });
});

describe('the worker NetworkPolicy egress for webhooks and the provider', () => {
  const DB_EGRESS = [
    '--set',
    'networkPolicy.enabled=true',
    '--set-json',
    'networkPolicy.extraEgress=[{"ports":[{"port":5432,"protocol":"TCP"},{"port":6379,"protocol":"TCP"}]}]',
  ];
  interface Rule {
    to?: Array<{ ipBlock: { cidr: string; except?: string[] } }>;
    ports: Array<{ port: number; protocol: string }>;
  }
  const egressOf = (objects: K8sObject[], name: string): Rule[] =>
    (
      ofKind(objects, 'NetworkPolicy').find((o) => component(o) === name)!.spec as {
        egress: Rule[];
      }
    ).egress;
  const summary = (rules: Rule[]) =>
    rules
      .filter((r) => r.to)
      .map((r) => ({
        to: r.to!.map((t) => (t.ipBlock.except ? `public ${t.ipBlock.cidr}` : t.ipBlock.cidr)),
        ports: r.ports.map((p) => p.port),
      }));

  test('when nothing is set, then the worker reaches public addresses on 80 and 443 only, as before', async () => {
    const objects = await renderChart(DB_EGRESS);
    expect(summary(egressOf(objects, 'generation-worker'))).toEqual([
      { to: ['public 0.0.0.0/0', 'public ::/0'], ports: [80, 443] },
    ]);
  });

  test('when webhook and provider ports and CIDRs are set, then the worker alone gets those rules', async () => {
    const objects = await renderChart([
      ...DB_EGRESS,
      '--set-json',
      'networkPolicy.webhooks={"ports":[8443],"cidrs":["10.20.0.0/16"]}',
      '--set-json',
      'networkPolicy.provider={"cidrs":["10.96.5.0/24","fd00:1::/64"]}',
    ]);
    expect(summary(egressOf(objects, 'generation-worker'))).toEqual([
      { to: ['public 0.0.0.0/0', 'public ::/0'], ports: [80, 443] },
      { to: ['public 0.0.0.0/0', 'public ::/0'], ports: [8443] },
      { to: ['10.20.0.0/16'], ports: [8443] },
      { to: ['10.96.5.0/24', 'fd00:1::/64'], ports: [80, 443] },
    ]);
    for (const api of ['catalogue-api', 'white-label-api', 'credit-service']) {
      expect(summary(egressOf(objects, api))).toEqual([]);
    }
  });

  test.each([
    ['a port out of range', 'networkPolicy.webhooks={"ports":[70000]}', 'ports'],
    ['a CIDR that is not one', 'networkPolicy.provider={"cidrs":["ollama.svc"]}', 'cidrs'],
    ['an unknown key', 'networkPolicy.webhooks={"hosts":["x"]}', 'hosts'],
  ])('when given %s, then the schema refuses it', async (_case, value, message) => {
    const result = await helmTemplate([...DB_EGRESS, '--set-json', value]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(message);
  });
});
