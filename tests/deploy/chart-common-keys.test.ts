// The keys operators used to the common (bitnami-style) charts reach for: each renders what it
// says on the objects it concerns, the objects stay valid (the schema checks of chart.ts), and
// a wrong value is refused with a message naming it.
import {
  componentOf,
  helmTemplate,
  podSpecs,
  renderChart,
  renderChartAs,
  schemaErrors,
  unknownFieldErrors,
  type K8sObject,
} from './chart';

const SETUP_TIMEOUT_MS = 120_000;
jest.setTimeout(SETUP_TIMEOUT_MS);

const ofKind = (objects: K8sObject[], kind: string): K8sObject[] => objects.filter((o) => o.kind === kind);
const spec = <T>(o: K8sObject): T => o.spec as T;
const set = (...pairs: string[]): string[] => pairs.flatMap((p) => ['--set', p]);

interface Probe {
  httpGet: { path: string; port: string };
  [field: string]: unknown;
}
interface FullContainer {
  name: string;
  image: string;
  args?: string[];
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
}
const mainContainer = (d: K8sObject): FullContainer =>
  spec<{ template: { spec: { containers: FullContainer[] } } }>(d).template.spec.containers[0]!;

async function refused(args: string[], message: string | RegExp): Promise<void> {
  const result = await helmTemplate(args);
  expect(result.code).not.toBe(0);
  expect(result.stderr).toMatch(message);
}

/** Objects valid against the Kubernetes (and operator) schemas, unknown fields included. */
function expectValid(objects: K8sObject[]): void {
  expect(schemaErrors(objects)).toEqual([]);
  expect(unknownFieldErrors(objects)).toEqual([]);
}

describe('probes', () => {
  test('when nothing is set, then no pod has a startup probe, and liveness and readiness are the chart-wide ones', async () => {
    const objects = await renderChart();
    for (const d of ofKind(objects, 'Deployment')) {
      expect(mainContainer(d).startupProbe).toBeUndefined();
      expect(mainContainer(d).livenessProbe).toMatchObject({ timeoutSeconds: 3, failureThreshold: 6 });
    }
  });

  test('when the startup probe is on and a component overrides fields, then each Deployment gets exactly its probes', async () => {
    const objects = await renderChart(
      set(
        'probes.startup.enabled=true',
        'generationWorker.probes.startup.failureThreshold=120',
        'generationWorker.probes.liveness.timeoutSeconds=9',
        'catalogueApi.probes.readiness.initialDelaySeconds=0',
        'creditService.probes.startup.enabled=false',
      ),
    );
    const byComponent = Object.fromEntries(
      ofKind(objects, 'Deployment').map((d) => [componentOf(d), mainContainer(d)]),
    );
    expect(byComponent['generation-worker']!.startupProbe).toEqual({
      httpGet: { path: '/healthz', port: 'http' },
      initialDelaySeconds: 0,
      periodSeconds: 5,
      timeoutSeconds: 3,
      failureThreshold: 120,
    });
    expect(byComponent['catalogue-api']!.startupProbe).toMatchObject({ failureThreshold: 30 });
    expect(byComponent['credit-service']!.startupProbe).toBeUndefined();
    expect(byComponent['generation-worker']!.livenessProbe).toMatchObject({
      timeoutSeconds: 9,
      failureThreshold: 6,
    });
    expect(byComponent['white-label-api']!.livenessProbe).toMatchObject({ timeoutSeconds: 3 });
    // A 0 replaces the chart's 2 (field by field, not a merge that skips zeros).
    expect(byComponent['catalogue-api']!.readinessProbe).toMatchObject({
      initialDelaySeconds: 0,
      periodSeconds: 5,
    });
    expect(byComponent['white-label-api']!.readinessProbe).toMatchObject({ initialDelaySeconds: 2 });
    expectValid(ofKind(objects, 'Deployment'));
  });

  test.each([
    [
      set('catalogueApi.probes.liveness.timeoutSecond=3'),
      "additional properties 'timeoutSecond' not allowed",
    ],
    [set('probes.startup.failureThreshold=0'), "at '/probes/startup/failureThreshold'"],
    [set('generationWorker.probes.startup.path=/x'), "additional properties 'path' not allowed"],
  ])('when given %j, then helm refuses it', (args, message) => refused(args, message));
});

describe('Ingress hosts, paths and pathType', () => {
  test('when extra hosts route a part of the API with their own pathType, then the Ingress has them, besides the chart paths of the main host', async () => {
    const objects = await renderChart([
      ...set(
        'catalogueApi.ingress.enabled=true',
        'catalogueApi.ingress.pathType=ImplementationSpecific',
        'catalogueApi.ingress.extraHosts[0].host=shop.example.com',
        'catalogueApi.ingress.extraHosts[0].paths[0]=/api/v2',
        'catalogueApi.ingress.extraHosts[0].paths[1].path=/content/v1',
        'catalogueApi.ingress.extraHosts[0].paths[1].pathType=Prefix',
      ),
    ]);
    const [ingress] = ofKind(objects, 'Ingress');
    const rules = spec<{
      rules: Array<{ host: string; http: { paths: Array<{ path: string; pathType: string }> } }>;
    }>(ingress!).rules;
    expect(rules.map((r) => [r.host, r.http.paths.map((p) => `${p.path} ${p.pathType}`)])).toEqual([
      [
        'catalogue-api.example.com',
        [
          '/api/v1 ImplementationSpecific',
          '/api/v2 ImplementationSpecific',
          '/content/v1 ImplementationSpecific',
          '/docs ImplementationSpecific',
        ],
      ],
      ['shop.example.com', ['/api/v2 ImplementationSpecific', '/content/v1 Prefix']],
    ]);
    expectValid([ingress!]);
  });

  test.each([
    [
      set(
        'catalogueApi.ingress.enabled=true',
        'catalogueApi.ingress.hosts[0].host=a.example.com',
        'catalogueApi.ingress.hosts[0].paths[0]=/metrics',
      ),
      'catalogueApi.ingress: host a.example.com routes /metrics, which is not a path of this API',
    ],
    [
      set(
        'whiteLabelApi.ingress.enabled=true',
        'whiteLabelApi.ingress.hosts[0].host=a.example.com',
        'whiteLabelApi.ingress.hosts[0].paths[0]=/api/v1',
      ),
      'routes /api/v1, which is not a path of this API (its paths: /api/v3',
    ],
    [set('catalogueApi.ingress.pathType=Exact'), "at '/catalogueApi/ingress/pathType'"],
    [
      set('catalogueApi.ingress.extraHosts[0].hostname=a.example.com'),
      "additional properties 'hostname' not allowed",
    ],
  ])('when given %j, then helm refuses it', (args, message) => refused(args, message));
});

describe('PodDisruptionBudget', () => {
  test('when minAvailable is set, then it replaces maxUnavailable on that component only', async () => {
    const objects = await renderChart(
      set('catalogueApi.pdb.minAvailable=50%', 'creditService.pdb.minAvailable=1'),
    );
    const budgets = Object.fromEntries(
      ofKind(objects, 'PodDisruptionBudget').map((p) => [componentOf(p), p.spec]),
    );
    expect(budgets['catalogue-api']).toMatchObject({ minAvailable: '50%' });
    expect(budgets['catalogue-api']).not.toHaveProperty('maxUnavailable');
    expect(budgets['credit-service']).toMatchObject({ minAvailable: 1 });
    expect(budgets['white-label-api']).toMatchObject({ maxUnavailable: 1 });
    expect(budgets['white-label-api']).not.toHaveProperty('minAvailable');
    expectValid(ofKind(objects, 'PodDisruptionBudget'));
  });

  test('when minAvailable is not a count or a percentage, then helm refuses it', () =>
    refused(set('catalogueApi.pdb.minAvailable=half'), "at '/catalogueApi/pdb/minAvailable'"));
});

describe('ServiceMonitor', () => {
  test('when a namespace and relabelings are given, then the ServiceMonitor lives there and still scrapes the release', async () => {
    const objects = await renderChart([
      ...set(
        'serviceMonitor.enabled=true',
        'serviceMonitor.namespace=monitoring',
        'serviceMonitor.relabelings[0].sourceLabels[0]=__meta_kubernetes_pod_node_name',
        'serviceMonitor.relabelings[0].targetLabel=node',
        'serviceMonitor.metricRelabelings[0].sourceLabels[0]=__name__',
        'serviceMonitor.metricRelabelings[0].regex=nodejs_gc_.*',
        'serviceMonitor.metricRelabelings[0].action=drop',
      ),
    ]);
    const [monitor] = ofKind(objects, 'ServiceMonitor');
    expect((monitor!.metadata as { namespace?: string }).namespace).toBe('monitoring');
    expect(monitor!.spec).toMatchObject({
      namespaceSelector: { matchNames: ['catalogue'] },
      endpoints: [
        {
          relabelings: [{ sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'node' }],
          metricRelabelings: [{ sourceLabels: ['__name__'], regex: 'nodejs_gc_.*', action: 'drop' }],
        },
      ],
    });
    expectValid([monitor!]);
    // Without them, nothing changes: the release's namespace, no relabelings.
    const [plain] = ofKind(await renderChart(set('serviceMonitor.enabled=true')), 'ServiceMonitor');
    expect((plain!.metadata as { namespace?: string }).namespace).toBeUndefined();
    expect(JSON.stringify(plain!.spec)).not.toContain('elabelings');
  });

  test.each([
    [set('serviceMonitor.relabelings[0].action=explode'), "at '/serviceMonitor/relabelings/0/action'"],
    [set('serviceMonitor.namespace=Monitoring'), "at '/serviceMonitor/namespace'"],
  ])('when given %j, then helm refuses it', (args, message) => refused(args, message));
});

describe('PrometheusRule', () => {
  const alertsOf = (objects: K8sObject[]): string[] =>
    spec<{ groups: Array<{ rules: Array<{ alert?: string }> }> }>(ofKind(objects, 'PrometheusRule')[0]!)
      .groups.flatMap((g) => g.rules.map((r) => r.alert))
      .filter((a): a is string => a !== undefined);

  test('when alerts are switched off and rules added, then those alerts are gone, the rest and the recording rules stay, and the rules are in a group of their own', async () => {
    const all = await renderChart(set('prometheusRule.enabled=true'));
    const objects = await renderChart([
      ...set(
        'prometheusRule.enabled=true',
        'prometheusRule.disabledAlerts[0]=CatalogueContentApiLatencyHigh',
        'prometheusRule.disabledAlerts[1]=CatalogueContentApiLatencyBudgetBurnSlow',
        'prometheusRule.additionalRules[0].alert=ShopImportsSlow',
        'prometheusRule.additionalRules[0].expr=vector(1)',
        'prometheusRule.additionalRules[0].for=10m',
        'prometheusRule.additionalRules[0].labels.severity=warning',
      ),
    ]);
    const before = alertsOf(all);
    expect(alertsOf(objects)).toEqual([
      ...before.filter(
        (a) => a !== 'CatalogueContentApiLatencyHigh' && a !== 'CatalogueContentApiLatencyBudgetBurnSlow',
      ),
      'ShopImportsSlow',
    ]);
    const groups = spec<{ groups: Array<{ name: string; rules: Array<{ record?: string }> }> }>(
      ofKind(objects, 'PrometheusRule')[0]!,
    ).groups;
    expect(groups.map((g) => g.name)).toEqual([
      'shop-catalogue-content.alerts',
      'shop-catalogue-content.slo',
      'shop-catalogue-content.additional',
    ]);
    const records = (o: K8sObject[]): number =>
      spec<{ groups: Array<{ rules: Array<{ record?: string }> }> }>(ofKind(o, 'PrometheusRule')[0]!)
        .groups.flatMap((g) => g.rules)
        .filter((r) => r.record).length;
    expect(records(objects)).toBe(records(all));
    expectValid(ofKind(objects, 'PrometheusRule'));
  });

  test.each([
    [
      set('prometheusRule.enabled=true', 'prometheusRule.disabledAlerts[0]=CatalogueContentApiLatencyHihg'),
      'prometheusRule.disabledAlerts: CatalogueContentApiLatencyHihg is not an alert of this chart (its alerts: CatalogueContentApiErrorRatioHigh',
    ],
    [set('prometheusRule.additionalRules[0].alert=X'), "missing property 'expr'"],
    [
      set(
        'prometheusRule.additionalRules[0].alert=X',
        'prometheusRule.additionalRules[0].expr=up',
        'prometheusRule.additionalRules[0].for=ten',
      ),
      "at '/prometheusRule/additionalRules/0/for'",
    ],
  ])('when given %j, then helm refuses it', (args, message) => refused(args, message));
});

describe('KEDA', () => {
  interface Scaled {
    fallback?: unknown;
    advanced?: { horizontalPodAutoscalerConfig: { behavior: unknown } };
    triggers: Array<{
      metadata: Record<string, string>;
      authenticationRef?: { name: string; kind?: string };
    }>;
  }

  test('when KEDA is on, then it scales the worker down slowly by default (as the HPA does), with no fallback and no credentials', async () => {
    const objects = await renderChart(set('generationWorker.keda.enabled=true'));
    const scaled = spec<Scaled>(ofKind(objects, 'ScaledObject')[0]!);
    expect(scaled.advanced!.horizontalPodAutoscalerConfig.behavior).toEqual({
      scaleDown: {
        stabilizationWindowSeconds: 600,
        policies: [{ type: 'Pods', value: 1, periodSeconds: 300 }],
      },
    });
    expect(scaled.fallback).toBeUndefined();
    expect(scaled.triggers[0]!.authenticationRef).toBeUndefined();
    expect(scaled.triggers[0]!.metadata).not.toHaveProperty('authModes');
    expect(ofKind(objects, 'TriggerAuthentication')).toEqual([]);
    // null: Kubernetes' own behaviour.
    const own = await renderChart(
      set('generationWorker.keda.enabled=true', 'generationWorker.keda.behavior=null'),
    );
    expect(spec<Scaled>(ofKind(own, 'ScaledObject')[0]!).advanced).toBeUndefined();
  });

  test('when a fallback, a behaviour and credentials are given, then the ScaledObject uses them and the chart makes the TriggerAuthentication', async () => {
    const objects = await renderChart(
      set(
        'creditService.keda.enabled=true',
        'creditService.keda.fallback.failureThreshold=3',
        'creditService.keda.fallback.replicas=2',
        'creditService.keda.behavior.scaleDown.stabilizationWindowSeconds=60',
        'creditService.keda.authentication.modes=bearer',
        'creditService.keda.authentication.secretTargetRef[0].parameter=bearerToken',
        'creditService.keda.authentication.secretTargetRef[0].name=prometheus-token',
        'creditService.keda.authentication.secretTargetRef[0].key=token',
      ),
    );
    const scaled = spec<Scaled>(ofKind(objects, 'ScaledObject')[0]!);
    expect(scaled.fallback).toEqual({ failureThreshold: 3, replicas: 2 });
    expect(scaled.advanced!.horizontalPodAutoscalerConfig.behavior).toMatchObject({
      scaleDown: { stabilizationWindowSeconds: 60 },
    });
    expect(scaled.triggers[0]!.metadata.authModes).toBe('bearer');
    expect(scaled.triggers[0]!.authenticationRef).toEqual({ name: 'shop-catalogue-content-credit-service' });
    const [auth] = ofKind(objects, 'TriggerAuthentication');
    expect(auth!.metadata.name).toBe('shop-catalogue-content-credit-service');
    expect(auth!.spec).toEqual({
      secretTargetRef: [{ parameter: 'bearerToken', name: 'prometheus-token', key: 'token' }],
    });
    expectValid([...ofKind(objects, 'ScaledObject'), auth!]);
  });

  test('when an existing ClusterTriggerAuthentication is named, then the trigger refers to it and the chart makes none', async () => {
    const objects = await renderChart(
      set(
        'generationWorker.keda.enabled=true',
        'generationWorker.keda.authentication.modes=basic',
        'generationWorker.keda.authentication.existingName=prometheus-basic',
        'generationWorker.keda.authentication.kind=ClusterTriggerAuthentication',
      ),
    );
    expect(spec<Scaled>(ofKind(objects, 'ScaledObject')[0]!).triggers[0]!.authenticationRef).toEqual({
      name: 'prometheus-basic',
      kind: 'ClusterTriggerAuthentication',
    });
    expect(ofKind(objects, 'TriggerAuthentication')).toEqual([]);
  });

  test.each([
    [
      set('generationWorker.keda.enabled=true', 'generationWorker.keda.authentication.modes=bearer'),
      'generationWorker.keda.authentication.modes is bearer, but no credentials are given',
    ],
    [
      set(
        'generationWorker.keda.enabled=true',
        'generationWorker.keda.authentication.existingName=a',
        'generationWorker.keda.authentication.secretTargetRef[0].parameter=bearerToken',
        'generationWorker.keda.authentication.secretTargetRef[0].name=s',
        'generationWorker.keda.authentication.secretTargetRef[0].key=k',
      ),
      'not both',
    ],
    [set('generationWorker.keda.fallback.replicas=2'), "properties 'failureThreshold' required"],
    [
      set('generationWorker.keda.authentication.modes=oauth'),
      "at '/generationWorker/keda/authentication/modes'",
    ],
  ])('when given %j, then helm refuses it', (args, message) => refused(args, message));
});

describe('labels of pod templates', () => {
  test('when commonLabels are set, then every pod template carries them and the version label, and no selector changes', async () => {
    const objects = await renderChart(set('commonLabels.team=catalogue', 'catalogueApi.podLabels.tier=api'));
    const plain = await renderChart();
    for (const { owner } of podSpecs(objects)) {
      const template = spec<{ template: { metadata: { labels: Record<string, string> } } }>(owner).template;
      expect(template.metadata.labels).toMatchObject({
        team: 'catalogue',
        'app.kubernetes.io/version': '0.1.0',
        'app.kubernetes.io/component': componentOf(owner),
      });
    }
    const api = ofKind(objects, 'Deployment').find((d) => componentOf(d) === 'catalogue-api')!;
    expect(
      spec<{ template: { metadata: { labels: Record<string, string> } } }>(api).template.metadata.labels.tier,
    ).toBe('api');
    const selectors = (o: K8sObject[]): unknown[] =>
      ofKind(o, 'Deployment').map((d) => spec<{ selector: unknown }>(d).selector);
    expect(selectors(objects)).toEqual(selectors(plain));
  });
});

describe('Grafana dashboard', () => {
  const dashboardOf = async (release: string, namespace: string, args: string[] = []) => {
    const objects = await renderChartAs(release, namespace, [
      '--set',
      'grafanaDashboard.enabled=true',
      ...args,
    ]);
    const [configMap] = ofKind(objects, 'ConfigMap').filter(
      (c) => c.metadata.labels?.grafana_dashboard === '1',
    );
    const [key, json] = Object.entries(configMap!.data as Record<string, string>)[0]!;
    return { key, dashboard: JSON.parse(json) as { uid: string; title: string; panels: unknown[] } };
  };

  test('when two releases render their dashboards, then uid, title and file name differ, and the panels are the same', async () => {
    const a = await dashboardOf('shop', 'catalogue');
    const b = await dashboardOf('outlet', 'catalogue');
    const c = await dashboardOf('shop', 'staging');
    expect(new Set([a.dashboard.uid, b.dashboard.uid, c.dashboard.uid]).size).toBe(3);
    expect(new Set([a.key, b.key, c.key]).size).toBe(3);
    expect(a.dashboard.title).toBe('Catalogue Content (catalogue/shop-catalogue-content)');
    expect(a.dashboard.uid).toMatch(/^[A-Za-z0-9_-]{1,40}$/);
    expect(a.dashboard.panels).toEqual(b.dashboard.panels);
    // The same release renders the same uid every time (an upgrade keeps the dashboard).
    expect((await dashboardOf('shop', 'catalogue')).dashboard.uid).toBe(a.dashboard.uid);
    expect(
      (await dashboardOf('shop', 'catalogue', ['--set', 'grafanaDashboard.uid=catalogue-prod'])).dashboard
        .uid,
    ).toBe('catalogue-prod');
  });

  test('when the uid is not one Grafana takes, then helm refuses it', () =>
    refused(set('grafanaDashboard.uid=a/b'), "at '/grafanaDashboard/uid'"));
});

describe('extra objects, sidecars and init containers', () => {
  test('when extra objects are given as a map and as a string, then both render through tpl with the common labels', async () => {
    const objects = await renderChart([
      ...set('commonLabels.team=catalogue'),
      '--set-json',
      `extraObjects=${JSON.stringify([
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: '{{ .Release.Name }}-extra', labels: { own: 'yes' } },
          data: { ns: '{{ .Release.Namespace }}' },
        },
        'apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {{ include "cc.fullname" . }}-reader\n',
      ])}`,
    ]);
    const extra = objects.find((o) => o.metadata.name === 'shop-extra')!;
    expect(extra).toMatchObject({ kind: 'ConfigMap', data: { ns: 'catalogue' } });
    expect(extra.metadata.labels).toEqual({ own: 'yes', team: 'catalogue' });
    const account = objects.find((o) => o.metadata.name === 'shop-catalogue-content-reader')!;
    expect(account.kind).toBe('ServiceAccount');
    expectValid([extra, account]);
  });

  test("when sidecars and init containers are given, then they join that component's pods after its own container, through tpl", async () => {
    const objects = await renderChart([
      '--set-json',
      `generationWorker.sidecars=${JSON.stringify([{ name: 'proxy', image: 'envoy:1', args: ['--id={{ .Release.Name }}'] }])}`,
      '--set-json',
      `generationWorker.initContainers=${JSON.stringify([{ name: 'warm', image: 'busybox:1' }])}`,
      '--set-json',
      `migration.initContainers=${JSON.stringify([{ name: 'wait-db', image: 'busybox:1' }])}`,
    ]);
    for (const { owner, pod } of podSpecs(objects)) {
      const names = [pod.containers.map((c) => c.name), (pod.initContainers ?? []).map((c) => c.name)];
      const component = componentOf(owner);
      const want =
        component === 'generation-worker'
          ? [['generation-worker', 'proxy'], ['warm']]
          : component === 'migration'
            ? [['migration'], ['wait-db']]
            : [[component], []];
      expect({ component, names }).toEqual({ component, names: want });
    }
    const worker = ofKind(objects, 'Deployment').find((d) => componentOf(d) === 'generation-worker')!;
    const sidecar = spec<{ template: { spec: { containers: FullContainer[] } } }>(worker).template.spec
      .containers[1]!;
    expect(sidecar.args).toEqual(['--id=shop']);
    expectValid([worker]);
  });

  test.each([
    [['--set-json', 'catalogueApi.sidecars=[{"name":"x"}]'], "missing property 'image'"],
    [['--set-json', 'extraObjects=[{"kind":"ConfigMap"}]'], 'extraObjects'],
    [['--set-json', 'extraObjects=["just words"]'], 'extraObjects[0] is not one Kubernetes object'],
  ])('when given %j, then helm refuses it', (args, message) => refused(args, message));
});
