// The conventions of widely used charts that operators set without reading values.yaml:
// each is honoured on every object or pod it concerns, or refused by the schema or the
// render, never accepted and ignored.
import { helmTemplate, renderChart, type Container, type K8sObject, type PodSpec } from './chart';

const SETUP_TIMEOUT_MS = 120_000;
const COMPONENTS = [
  'catalogueApi',
  'whiteLabelApi',
  'creditService',
  'generationWorker',
  'migration',
] as const;
const NAMES: Record<(typeof COMPONENTS)[number], string> = {
  catalogueApi: 'catalogue-api',
  whiteLabelApi: 'white-label-api',
  creditService: 'credit-service',
  generationWorker: 'generation-worker',
  migration: 'migration',
};

interface Pod {
  owner: K8sObject;
  component: string;
  spec: PodSpec & Record<string, unknown>;
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
}

/** Every pod the chart makes: Deployments, the migration Job and the `helm test` Pod. */
function pods(objects: K8sObject[]): Pod[] {
  return objects.flatMap((o): Pod[] => {
    const component = o.metadata.labels?.['app.kubernetes.io/component'] ?? '';
    if (o.kind === 'Pod') return [{ owner: o, component, spec: o.spec as Pod['spec'], metadata: o.metadata }];
    if (o.kind !== 'Deployment' && o.kind !== 'Job') return [];
    const template = (o.spec as { template: { metadata: Pod['metadata']; spec: Pod['spec'] } }).template;
    return [{ owner: o, component, spec: template.spec, metadata: template.metadata }];
  });
}
const containers = (pod: Pod): Container[] => [...pod.spec.containers, ...(pod.spec.initContainers ?? [])];
const images = (objects: K8sObject[]): string[] => [
  ...new Set(
    pods(objects).flatMap((p) => containers(p).map((c) => (c as Container & { image: string }).image)),
  ),
];

describe('image registry and pull secrets', () => {
  test('when global.imageRegistry is set, then every container pulls from it, and it wins over image.registry', async () => {
    const global = await renderChart([
      '--set',
      'global.imageRegistry=mirror.example.net:5000',
      '--set',
      'image.registry=registry.example.com',
      '--set',
      'image.repository=catalogue-content',
      '--set',
      'image.tag=1.2.3',
    ]);
    expect(images(global)).toEqual(['mirror.example.net:5000/catalogue-content:1.2.3']);
    const own = await renderChart([
      '--set',
      'image.registry=registry.example.com',
      '--set',
      'image.repository=team/catalogue',
    ]);
    expect(images(own)).toEqual([expect.stringMatching(/^registry\.example\.com\/team\/catalogue:/)]);
  });

  test('when a registry is set and the repository already names one, then the render is refused, naming both', async () => {
    const result = await helmTemplate(['--set', 'global.imageRegistry=mirror.example.net']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      'image.repository "registry.example.com/catalogue-content" already names a registry',
    );
    expect(result.stderr).toContain('mirror.example.net');
  });

  test('when global.imagePullSecrets (names or objects) and imagePullSecrets are set, then every pod gets each once', async () => {
    const objects = await renderChart([
      '--set',
      'global.imagePullSecrets[0]=platform-pull',
      '--set',
      'global.imagePullSecrets[1].name=shared-pull',
      '--set',
      'imagePullSecrets[0].name=shared-pull',
      '--set',
      'imagePullSecrets[1].name=own-pull',
    ]);
    const all = pods(objects);
    expect(all.map((p) => p.component).sort()).toEqual([...Object.values(NAMES), 'test'].sort());
    for (const pod of all) {
      expect({ pod: pod.component, secrets: pod.spec.imagePullSecrets }).toEqual({
        pod: pod.component,
        secrets: [{ name: 'platform-pull' }, { name: 'shared-pull' }, { name: 'own-pull' }],
      });
    }
  });
});

describe('security contexts', () => {
  test('when containerSecurityContext (the name of other charts) sets fields, then they replace those of securityContext in every container, false included', async () => {
    const objects = await renderChart([
      '--set',
      'containerSecurityContext.seLinuxOptions.level=s0:c7',
      '--set',
      'containerSecurityContext.readOnlyRootFilesystem=false',
    ]);
    for (const pod of pods(objects)) {
      for (const c of containers(pod)) {
        expect([c.name, c.securityContext]).toEqual([
          c.name,
          expect.objectContaining({
            seLinuxOptions: { level: 's0:c7' },
            readOnlyRootFilesystem: false,
            runAsNonRoot: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
          }),
        ]);
      }
    }
  });

  test.each([
    ['podSecurityContext.enabled=true', '/podSecurityContext'],
    ['securityContext.enabled=true', '/securityContext'],
    ['podSecurityContext.runAsUsr=10001', '/podSecurityContext'],
    ['securityContext.capabilities.dropp[0]=ALL', '/securityContext/capabilities'],
    ['podSecurityContext.seccompProfile.type=Default', '/podSecurityContext/seccompProfile/type'],
    ['containerSecurityContext.enabled=true', '/containerSecurityContext'],
    ['containerSecurityContext.capabilities.dropp[0]=ALL', '/containerSecurityContext/capabilities'],
  ])('when %s is set, then the schema refuses it at %s', async (set, at) => {
    const result = await helmTemplate(['--set', set]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`at '${at}'`);
  });

  test('when valid fields are set, then every pod and container gets them', async () => {
    const objects = await renderChart([
      '--set',
      'podSecurityContext.fsGroupChangePolicy=OnRootMismatch',
      '--set',
      'securityContext.seLinuxOptions.level=s0:c123',
    ]);
    for (const pod of pods(objects)) {
      expect([pod.component, pod.spec.securityContext?.fsGroupChangePolicy]).toEqual([
        pod.component,
        'OnRootMismatch',
      ]);
      for (const c of containers(pod)) {
        expect([c.name, c.securityContext?.seLinuxOptions]).toEqual([c.name, { level: 's0:c123' }]);
      }
    }
  });
});

describe('labels and annotations', () => {
  let objects: K8sObject[];
  beforeAll(async () => {
    objects = await renderChart([
      '-f',
      'helm/catalogue-content/ci/everything-values.yaml',
      '--set',
      'commonLabels.team=catalogue',
      '--set',
      'commonAnnotations.owner=platform',
      '--set',
      'commonAnnotations.note=common',
      '--set',
      'catalogueApi.service.annotations.note=own',
    ]);
  }, SETUP_TIMEOUT_MS);

  test('when commonLabels and commonAnnotations are set, then every object carries them', () => {
    const without = objects
      .filter((o) => o.metadata.labels?.team !== 'catalogue' || o.metadata.annotations?.owner !== 'platform')
      .map((o) => `${o.kind} ${o.metadata.name}`);
    expect(without).toEqual([]);
    expect(objects.length).toBeGreaterThan(25);
  });

  test("when an object has its own annotation of the same key, then the object's wins", () => {
    const service = objects.find((o) => o.kind === 'Service' && o.metadata.name.endsWith('-catalogue-api'))!;
    expect(service.metadata.annotations).toMatchObject({ note: 'own', owner: 'platform' });
    const hook = objects.find((o) => o.kind === 'Job')!;
    expect(hook.metadata.annotations).toMatchObject({
      'helm.sh/hook': 'pre-install,pre-upgrade',
      owner: 'platform',
    });
  });
});

describe('per component: env, scheduling, pod metadata', () => {
  let objects: K8sObject[];
  beforeAll(async () => {
    const args = ['--set', 'extraEnvFrom[0].configMapRef.name=everyone'];
    for (const key of COMPONENTS) {
      args.push(
        '--set',
        `${key}.extraEnv[0].name=ONLY_${key}`,
        '--set',
        `${key}.extraEnv[0].value=yes`,
        '--set',
        `${key}.extraEnvFrom[0].secretRef.name=${key}-env`,
        '--set',
        `${key}.podAnnotations.for=${key}`,
        '--set',
        `${key}.podLabels.for=${key}`,
        '--set',
        `${key}.nodeSelector.pool=${key}`,
        '--set',
        `${key}.tolerations[0].key=${key}`,
        '--set',
        `${key}.tolerations[0].operator=Exists`,
        '--set',
        `${key}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key=${key}`,
        '--set',
        `${key}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator=Exists`,
      );
    }
    // The migration behind a pooler: a direct URL of its own, which wins over the chart's.
    args.push(
      '--set',
      'migration.extraEnv[1].name=DATABASE_URL',
      '--set',
      'migration.extraEnv[1].valueFrom.secretKeyRef.name=db-direct',
      '--set',
      'migration.extraEnv[1].valueFrom.secretKeyRef.key=url',
    );
    objects = await renderChart(args);
  }, SETUP_TIMEOUT_MS);

  test.each(COMPONENTS)('when %s sets them, then its pod alone gets them', (key) => {
    const pod = pods(objects).find((p) => p.component === NAMES[key])!;
    const container = pod.spec.containers[0]!;
    const env = (container.env ?? []).map((e) => e.name);
    expect(env).toContain(`ONLY_${key}`);
    expect(env.filter((name) => name.startsWith('ONLY_'))).toEqual([`ONLY_${key}`]);
    expect(container.envFrom?.slice(1)).toEqual([
      { configMapRef: { name: 'everyone' } },
      { secretRef: { name: `${key}-env` } },
    ]);
    expect(pod.metadata.annotations?.for).toBe(key);
    expect(pod.metadata.labels?.for).toBe(key);
    expect(pod.spec.nodeSelector).toEqual({ pool: key });
    expect(pod.spec.tolerations).toEqual([{ key, operator: 'Exists' }]);
    expect(JSON.stringify(pod.spec.affinity)).toContain(`"key":"${key}"`);
  });

  test("when the migration sets DATABASE_URL in extraEnv, then that entry replaces the chart's, and the services keep theirs", () => {
    const job = pods(objects).find((p) => p.component === 'migration')!;
    const urls = (job.spec.containers[0]!.env ?? []).filter((e) => e.name === 'DATABASE_URL');
    expect(urls).toEqual([
      { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: 'db-direct', key: 'url' } } },
    ]);
    for (const pod of pods(objects).filter((p) => p.owner.kind === 'Deployment')) {
      const env = pod.spec.containers[0]!.env ?? [];
      expect(env.filter((e) => e.name === 'DATABASE_URL')).toEqual([
        {
          name: 'DATABASE_URL',
          valueFrom: { secretKeyRef: expect.objectContaining({ key: 'DATABASE_URL' }) },
        },
      ]);
    }
  });
});
