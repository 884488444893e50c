// The Helm chart, checked with the real helm (unpacked from an npm package, see tools.ts)
// and the Kubernetes schemas: what `helm install` would send is valid, and it is what an
// operator needs (probes, security, hooks, secrets kept out of ConfigMaps, grace periods).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '@catalogue/testing';
import { chartReaders, type Reader } from '@catalogue/config';
import {
  CHART_DIR,
  EVERYTHING_VALUES,
  UMBRELLA_VALUES,
  componentOf,
  describeObject,
  helmTemplate,
  leastPrivilegeErrors,
  podSpecs,
  renderChart,
  schemaErrors,
  unknownFieldErrors,
  type K8sObject,
  type PodSpec,
} from './chart';
import { layerBinary, run } from './tools';

// The first use unpacks helm from the layer (about a second); later runs reuse it.
const SETUP_TIMEOUT_MS = 120_000;

const VARIANTS: Array<[string, string[]]> = [
  ['default values', []],
  ['every optional object on', ['-f', EVERYTHING_VALUES]],
  ['umbrella-style values with global', ['-f', UMBRELLA_VALUES]],
];

const SECRET_KEYS = ['DATABASE_URL', 'DATABASE_READ_URL', 'REDIS_URL', 'OPENAI_API_KEY'];

const rendered = new Map<string, K8sObject[]>();

beforeAll(async () => {
  for (const [name, args] of VARIANTS) rendered.set(name, await renderChart(args));
}, SETUP_TIMEOUT_MS);

const objectsOf = (variant: string): K8sObject[] => rendered.get(variant)!;
const defaults = parse(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8'));
/** The values file of a variant, over the defaults (one level deep is enough here). */
const values = (variant: string) => {
  const file = VARIANTS.find(([name]) => name === variant)![1][1];
  const given = file ? parse(readFileSync(file, 'utf8')) : {};
  return { ...defaults, ...given, secrets: { ...defaults.secrets, ...given.secrets } };
};
const ofKind = (objects: K8sObject[], kind: string): K8sObject[] => objects.filter((o) => o.kind === kind);
const isHook = (o: K8sObject): boolean => Boolean(o.metadata.annotations?.['helm.sh/hook']);
const configData = (o: K8sObject): Record<string, string> => (o.data ?? {}) as Record<string, string>;

describe.each(VARIANTS)('chart with %s', (variant, args) => {
  test('when linted with --strict, then helm reports nothing', async () => {
    const result = await run(layerBinary('helm'), ['lint', '--strict', CHART_DIR, ...args]);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
    expect(result.code).toBe(0);
  });

  test('when rendered, then every object fits its Kubernetes schema', () => {
    expect(schemaErrors(objectsOf(variant))).toEqual([]);
  });

  test('when rendered, then every service has a Deployment, a Service and probes on /healthz and /readyz', () => {
    const objects = objectsOf(variant);
    const deployments = ofKind(objects, 'Deployment');
    expect(deployments.map((d) => d.metadata.labels?.['app.kubernetes.io/component']).sort()).toEqual([
      'catalogue-api',
      'credit-service',
      'generation-worker',
      'white-label-api',
    ]);
    expect(ofKind(objects, 'Service')).toHaveLength(4);
    for (const { owner, pod } of podSpecs(deployments)) {
      const [container] = pod.containers;
      const component = owner.metadata.labels!['app.kubernetes.io/component'];
      expect(container!.command).toEqual(['node', `services/${component}/dist/main.js`]);
      expect(container!.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(container!.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
    }
  });

  test('when rendered, then every container runs as non-root with a read-only root filesystem', () => {
    const pods = podSpecs(objectsOf(variant));
    expect(pods.length).toBeGreaterThanOrEqual(5);
    for (const { owner, pod } of pods) {
      expect({ owner: describeObject(owner), pod: pod.securityContext }).toMatchObject({
        pod: { runAsNonRoot: true, runAsUser: expect.any(Number) },
      });
      expect(pod.securityContext!.runAsUser).not.toBe(0);
      for (const container of [...pod.containers, ...(pod.initContainers ?? [])]) {
        expect({ owner: describeObject(owner), security: container.securityContext }).toMatchObject({
          security: {
            runAsNonRoot: true,
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
          },
        });
      }
    }
  });

  test('when rendered, then the migration Job is a pre-install/pre-upgrade hook that runs migrate.js', () => {
    const objects = objectsOf(variant);
    const [job, ...more] = ofKind(objects, 'Job');
    expect(more).toHaveLength(0);
    expect(job!.metadata.annotations).toMatchObject({ 'helm.sh/hook': 'pre-install,pre-upgrade' });
    const { pod } = podSpecs([job!])[0]!;
    expect(pod.containers[0]!.command).toEqual(['node', 'libs/content-store/dist/cli/migrate.js']);
    expect(pod.restartPolicy).toBe('Never');
    // Hooks run before the release's own objects exist: everything the Job reads is a hook
    // made before it (lower weight), or an existing Secret.
    const container = pod.containers[0]!;
    const refs = [
      ...container.envFrom!.map((e) => e.configMapRef?.name ?? e.secretRef?.name),
      ...(container.env ?? []).map((e) => e.valueFrom?.secretKeyRef?.name),
    ].filter((name): name is string => name !== undefined);
    const existing = [values(variant).secrets.existingSecret, 'catalogue-extra'];
    const weight = (o: K8sObject): number => Number(o.metadata.annotations?.['helm.sh/hook-weight'] ?? 0);
    for (const name of refs.filter((ref) => !existing.includes(ref))) {
      const source = objects.find((o) => o.metadata.name === name);
      expect({ name, hook: source && isHook(source) }).toEqual({ name, hook: true });
      expect(weight(source!)).toBeLessThan(weight(job!));
    }
  });

  test('when rendered, then no secret is in a ConfigMap and every pod gets them from a Secret', () => {
    const objects = objectsOf(variant);
    const values = parse(readFileSync(args.length ? args[1]! : join(CHART_DIR, 'values.yaml'), 'utf8'));
    values.secrets ??= {};
    const secretValues = [
      values.secrets.databaseUrl,
      values.secrets.databaseReadUrl,
      values.secrets.databaseMigrationUrl,
      values.secrets.redisUrl,
      values.secrets.openaiApiKey,
    ].filter((v: string | undefined) => v) as string[];
    for (const configMap of ofKind(objects, 'ConfigMap')) {
      const data = configData(configMap);
      for (const key of SECRET_KEYS)
        expect({ configMap: configMap.metadata.name, has: key in data }).toMatchObject({ has: false });
      const text = JSON.stringify(data);
      for (const secret of secretValues) expect(text).not.toContain(secret);
    }
    const secrets = ofKind(objects, 'Secret');
    const existingSecret: string | undefined = values.secrets.existingSecret;
    const keys = {
      DATABASE_URL: 'databaseUrl',
      DATABASE_READ_URL: 'databaseReadUrl',
      REDIS_URL: 'redisUrl',
      OPENAI_API_KEY: 'openaiApiKey',
    };
    for (const { owner, pod } of podSpecs(objects)) {
      const fromSecret = Object.fromEntries(
        (pod.containers[0]!.env ?? []).flatMap((e) =>
          e.valueFrom?.secretKeyRef ? [[e.name, e.valueFrom.secretKeyRef]] : [],
        ),
      );
      // The migration's own URL (optional key of an existing Secret) goes to the Job alone.
      const migrationUrl =
        owner.kind === 'Job' && (existingSecret || values.secrets.databaseMigrationUrl)
          ? ['DATABASE_MIGRATION_URL']
          : [];
      // Each pod gets the secrets its process reads (libs/config's table), no other.
      const component = componentOf(owner);
      const read = Object.keys(keys).filter((name) => chartReaders()[name]!.includes(component as Reader));
      expect({ owner: describeObject(owner), vars: Object.keys(fromSecret).sort() }).toEqual({
        owner: describeObject(owner),
        vars: [...read, ...migrationUrl].sort(),
      });
      if (existingSecret) {
        // The operator's Secret, under the keys the values name.
        for (const [name, key] of Object.entries(keys).filter(([name]) => read.includes(name)))
          expect(fromSecret[name]).toMatchObject({
            name: existingSecret,
            key: values.secrets.existingSecretKeys[key],
          });
        continue;
      }
      const secret = secrets.find((s) => s.metadata.name === fromSecret.DATABASE_URL!.name);
      const decoded = Object.fromEntries(
        Object.entries((secret!.data ?? {}) as Record<string, string>).map(([k, v]) => [
          k,
          Buffer.from(v, 'base64').toString(),
        ]),
      );
      expect(decoded[fromSecret.DATABASE_URL!.key]).toBe(
        values.secrets.databaseUrl ?? defaults.secrets.databaseUrl,
      );
      if (fromSecret.REDIS_URL)
        expect(decoded[fromSecret.REDIS_URL.key]).toBe(values.secrets.redisUrl ?? defaults.secrets.redisUrl);
      // Set or not at all: an empty replica URL is no key (the pods' reference is optional).
      if (fromSecret.DATABASE_READ_URL)
        expect(decoded[fromSecret.DATABASE_READ_URL.key]).toBe(values.secrets.databaseReadUrl || undefined);
      // Literal env values of containers are as visible as a ConfigMap.
      for (const env of pod.containers[0]!.env ?? [])
        for (const s of secretValues) expect(env.value ?? '').not.toContain(s);
    }
  });

  test('when rendered, then each pod has only the variables its process reads (ConfigMap and Secret alike)', () => {
    expect(leastPrivilegeErrors(objectsOf(variant))).toEqual([]);
  });

  test("when rendered, then each pod's grace period outlasts its longest piece of work", () => {
    const objects = objectsOf(variant);
    const config = configData(
      ofKind(objects, 'ConfigMap').find((c) => c.metadata.name.endsWith('-generation-worker-config'))!,
    );
    const ms = (key: string): number => Number(config[key]);
    const shutdown = ms('SHUTDOWN_TIMEOUT_MS') / 1000;
    // A generate job (libs/config, services/generation-worker): research reads 3 URLs at a
    // time; each provider attempt may take the timeout, with at most 30 s between attempts.
    const research = Math.ceil(ms('WEB_RESEARCH_MAX_URLS') / 3) * (ms('WEB_RESEARCH_TIMEOUT_MS') / 1000);
    const attempts = ms('PROVIDER_MAX_ATTEMPTS');
    const provider = attempts * (ms('PROVIDER_TIMEOUT_MS') / 1000) + (attempts - 1) * 30;
    for (const { owner, pod } of podSpecs(ofKind(objects, 'Deployment'))) {
      const component = owner.metadata.labels!['app.kubernetes.io/component'];
      const longest = component === 'generation-worker' ? research + provider + shutdown : shutdown;
      expect({ component, grace: pod.terminationGracePeriodSeconds! > longest }).toEqual({
        component,
        grace: true,
      });
    }
  });
});

describe('rendered objects', () => {
  // Deliberately broken copies prove the check finds what it must. The compiler reports the
  // first unknown field of each object, so one copy per mistake; one compiler run for all
  // (the type-check is the slow part).
  const broken = (name: string, change: (pod: PodSpec) => void): K8sObject => {
    const copy = structuredClone(ofKind(objectsOf('default values'), 'Deployment')[0]!) as K8sObject & {
      spec: { template: { spec: PodSpec } };
    };
    copy.metadata.name = name;
    change(copy.spec.template.spec);
    return copy;
  };
  let errors: string[];

  beforeAll(() => {
    const misspelt = broken('broken-misspelt', (pod) => {
      const container = pod.containers[0] as unknown as Record<string, unknown>;
      container.readinesProbe = container.readinessProbe;
    });
    const misplaced = broken('broken-misplaced', (pod) => {
      pod.securityContext = { ...pod.securityContext, readOnlyRootFilesystem: true };
    });
    errors = unknownFieldErrors([
      ...VARIANTS.flatMap(([variant]) => objectsOf(variant)),
      misspelt,
      misplaced,
    ]);
  });

  test('when rendered with either values, then no object has a field the API does not know', () => {
    expect(errors.filter((e) => !e.startsWith('Deployment broken-'))).toEqual([]);
  });

  test('when an object has a misspelt or misplaced field or a bad value, then the checks name it', () => {
    expect(errors.filter((e) => e.startsWith('Deployment broken-misspelt'))).toEqual([
      expect.stringMatching(/readinesProbe"?' does not exist/),
    ]);
    expect(errors.filter((e) => e.startsWith('Deployment broken-misplaced'))).toEqual([
      expect.stringMatching(/readOnlyRootFilesystem"?' does not exist in type 'IPodSecurityContext'/),
    ]);
    const badValue = broken('broken-value', (pod) => {
      pod.restartPolicy = 'Sometimes';
    });
    expect(schemaErrors([badValue]).join('\n')).toContain('restartPolicy');
  });
});

describe('chart options', () => {
  test('when every optional object is on, then Ingress, HPA, PDB, ServiceMonitor, PrometheusRule and the dashboard are rendered', () => {
    const kinds = new Set(objectsOf('every optional object on').map((o) => o.kind));
    for (const kind of [
      'Ingress',
      'HorizontalPodAutoscaler',
      'PodDisruptionBudget',
      'ServiceMonitor',
      'PrometheusRule',
      'NetworkPolicy',
      'ScaledObject',
    ])
      expect(kinds).toContain(kind);
    const dashboards = ofKind(objectsOf('every optional object on'), 'ConfigMap').filter(
      (c) => c.metadata.labels?.grafana_dashboard === '1',
    );
    expect(dashboards).toHaveLength(1);
    expect(() => JSON.parse(Object.values(configData(dashboards[0]!))[0]!)).not.toThrow();
  });

  test('when every optional object is on, then HPAs cover both APIs, KEDA the worker, and an Ingress never targets the worker', () => {
    const objects = objectsOf('every optional object on');
    const component = (o: K8sObject): string => o.metadata.labels!['app.kubernetes.io/component']!;
    expect(ofKind(objects, 'HorizontalPodAutoscaler').map(component).sort()).toEqual([
      'catalogue-api',
      'white-label-api',
    ]);
    expect(ofKind(objects, 'ScaledObject').map(component)).toEqual(['generation-worker']);
    expect(ofKind(objects, 'Ingress').map(component)).not.toContain('generation-worker');
    // An HPA (or KEDA's) owns the replica count.
    for (const d of ofKind(objects, 'Deployment'))
      if (component(d) !== 'credit-service')
        expect((d.spec as { replicas?: number }).replicas).toBeUndefined();
  });

  test('when an existing Secret is named, then the chart makes none and every pod reads that one', async () => {
    const objects = await renderChart(['--set', 'secrets.existingSecret=catalogue-prod']);
    expect(ofKind(objects, 'Secret')).toEqual([]);
    for (const { owner, pod } of podSpecs(objects))
      for (const [name, key] of [
        ['DATABASE_URL', 'DATABASE_URL'],
        ['REDIS_URL', 'REDIS_URL'],
      ].filter(([name]) => chartReaders()[name!]!.includes(componentOf(owner) as Reader)))
        expect(pod.containers[0]!.env).toContainEqual({
          name,
          valueFrom: { secretKeyRef: { name: 'catalogue-prod', key } },
        });
  });

  test('when a migration URL is given, then the migration Job alone gets DATABASE_MIGRATION_URL, from its hook Secret', async () => {
    const url = 'postgres://owner:pw@postgres-direct:5432/catalogue';
    const objects = await renderChart(['--set', `secrets.databaseMigrationUrl=${url}`]);
    const hookSecret = ofKind(objects, 'Secret').find(
      (o) => o.metadata.name === 'shop-catalogue-content-secrets-migration',
    );
    const serviceSecret = ofKind(objects, 'Secret').find(
      (o) => o.metadata.name === 'shop-catalogue-content-secrets',
    );
    expect((hookSecret as unknown as { data: Record<string, string> }).data.DATABASE_MIGRATION_URL).toBe(
      Buffer.from(url).toString('base64'),
    );
    expect((serviceSecret as unknown as { data: Record<string, string> }).data).not.toHaveProperty(
      'DATABASE_MIGRATION_URL',
    );
    for (const { owner: object, pod } of podSpecs(objects)) {
      const env = pod.containers[0]!.env!.filter((e) => e.name === 'DATABASE_MIGRATION_URL');
      if (object.kind === 'Job')
        expect(env).toEqual([
          {
            name: 'DATABASE_MIGRATION_URL',
            valueFrom: {
              secretKeyRef: {
                name: hookSecret!.metadata.name,
                key: 'DATABASE_MIGRATION_URL',
                optional: true,
              },
            },
          },
        ]);
      else expect({ pod: describeObject(object), env }).toEqual({ pod: describeObject(object), env: [] });
    }
    // Unset, the Job has no such variable: migrate.js uses DATABASE_URL.
    const plain = await renderChart();
    const job = ofKind(plain, 'Job')[0]!;
    expect(podSpecs([job])[0]!.pod.containers[0]!.env!.map((e) => e.name)).not.toContain(
      'DATABASE_MIGRATION_URL',
    );
  });

  test.each([
    ['an unknown key', ['--set', 'catalogueApi.replica=3'], "additional properties 'replica' not allowed"],
    [
      'a secret among the ConfigMap values',
      ['--set', 'config.DATABASE_URL=postgres://x'],
      "'DATABASE_URL' not allowed",
    ],
    ['a bad value', ['--set', 'config.LOG_LEVEL=loud'], 'LOG_LEVEL'],
    [
      'an Ingress for the worker',
      ['--set', 'generationWorker.ingress.enabled=true'],
      "'ingress' not allowed",
    ],
    ['the openai provider without a key', ['--set', 'config.GENERATION_PROVIDER=openai'], 'OPENAI_API_KEY'],
    [
      'a migration URL on a port the network policy does not open',
      [
        ...['--set', 'secrets.databaseMigrationUrl=postgres://owner@postgres-direct:5433/catalogue'],
        ...[
          '--set',
          'networkPolicy.enabled=true',
          '--set',
          'networkPolicy.extraEgress[0].ports[0].port=5432',
        ],
      ],
      'no rule for the database port 5433 (secrets.databaseMigrationUrl)',
    ],
  ])('when given %s, then helm refuses to render', async (_case, args, message) => {
    const result = await helmTemplate(args);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(message);
  });

  test('when compared with the image, then the chart runs pods as the user the Dockerfile creates', () => {
    const dockerfile = readFileSync(join(REPO_ROOT, 'docker', 'Dockerfile'), 'utf8');
    const user = /^USER (\d+):(\d+)$/m.exec(dockerfile);
    const values = parse(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8'));
    expect(user).not.toBeNull();
    expect(values.podSecurityContext.runAsUser).toBe(Number(user![1]));
    expect(values.securityContext.runAsUser).toBe(Number(user![1]));
  });
});
