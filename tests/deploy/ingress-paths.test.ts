// What the chart's Ingress routes comes from one list per service (PUBLIC_PATH_PREFIXES in
// services/*/src/paths.ts): every route of the service's app falls under one of its prefixes
// (or is a probe, /metrics or /docs), and the rendered Ingress routes exactly those prefixes
// and /docs. A new browser-facing path then cannot be served and forgotten by the Ingress.
// The Ingress also lets through the largest body the service accepts (proxy-body-size).
import type Router from '@koa/router';
import type { BaseDeps, ServiceModule } from '@catalogue/http';
import { testConfig } from '@catalogue/testing';
import { PUBLIC_PATH_PREFIXES as CATALOGUE_PATHS } from '../../services/catalogue-api/src/paths';
import { catalogueApi } from '../../services/catalogue-api/src/service';
import { PUBLIC_PATH_PREFIXES as CREDIT_PATHS } from '../../services/credit-service/src/paths';
import { creditService } from '../../services/credit-service/src/service';
import { PUBLIC_PATH_PREFIXES as WHITE_LABEL_PATHS } from '../../services/white-label-api/src/paths';
import { whiteLabelApi } from '../../services/white-label-api/src/service';
import { renderChart, type K8sObject } from './chart';

const SETUP_TIMEOUT_MS = 120_000;
const INTERNAL = ['/healthz', '/readyz', '/metrics'];

interface ServiceUnderTest {
  component: string;
  valuesKey: string;
  prefixes: readonly string[];
  routes: () => Promise<string[]>;
}

/** Route paths of a Koa app, read from the routers it mounted (@koa/router marks its dispatch). */
function appRoutes(app: { middleware: unknown[] }): string[] {
  return app.middleware
    .map((mw) => (mw as { router?: Router }).router)
    .filter((router): router is Router => router !== undefined)
    .flatMap((router) =>
      router.stack.filter((layer) => layer.methods.length > 0).map((layer) => String(layer.path)),
    );
}

function service<D extends BaseDeps>(
  component: string,
  valuesKey: string,
  prefixes: readonly string[],
  serviceModule: ServiceModule<D>,
): ServiceUnderTest {
  return {
    component,
    valuesKey,
    prefixes,
    routes: async () => {
      const deps = serviceModule.buildDeps(testConfig());
      try {
        return appRoutes(serviceModule.createApp(deps));
      } finally {
        await serviceModule.closeDeps(deps);
      }
    },
  };
}

const SERVICES: ServiceUnderTest[] = [
  service('catalogue-api', 'catalogueApi', CATALOGUE_PATHS, catalogueApi),
  service('white-label-api', 'whiteLabelApi', WHITE_LABEL_PATHS, whiteLabelApi),
  service('credit-service', 'creditService', CREDIT_PATHS, creditService),
];

const under = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);
const ingressOn = SERVICES.flatMap((s) => [
  '--set',
  `${s.valuesKey}.ingress.enabled=true`,
  '--set',
  `${s.valuesKey}.ingress.docs=true`,
]);
const ingresses = (objects: K8sObject[]) => objects.filter((o) => o.kind === 'Ingress');
const component = (o: K8sObject): string => o.metadata.labels!['app.kubernetes.io/component']!;
const routedPaths = (ingress: K8sObject): string[] =>
  (ingress.spec as { rules: Array<{ http: { paths: Array<{ path: string }> } }> }).rules.flatMap((r) =>
    r.http.paths.map((p) => p.path),
  );
const bodySizes = (objects: K8sObject[]): Record<string, string | undefined> =>
  Object.fromEntries(
    ingresses(objects).map((i) => [
      component(i),
      i.metadata.annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'],
    ]),
  );

describe.each(SERVICES)('$component', (s) => {
  test('when its app is built, then every route is under one of its public prefixes, a probe, /metrics or /docs, and every prefix serves a route', async () => {
    const routes = await s.routes();
    const outside = routes.filter(
      (path) => !INTERNAL.includes(path) && !under(path, '/docs') && !s.prefixes.some((p) => under(path, p)),
    );
    expect(outside).toEqual([]);
    const unused = s.prefixes.filter((p) => !routes.some((path) => under(path, p)));
    expect(unused).toEqual([]);
  });
});

describe('the Ingress of each API', () => {
  let objects: K8sObject[];
  beforeAll(async () => {
    objects = await renderChart(ingressOn);
  }, SETUP_TIMEOUT_MS);

  test('when every Ingress is on, then it routes exactly the service public prefixes and /docs', () => {
    const routed = Object.fromEntries(ingresses(objects).map((i) => [component(i), routedPaths(i)]));
    expect(routed).toEqual(Object.fromEntries(SERVICES.map((s) => [s.component, [...s.prefixes, '/docs']])));
  });

  test('when rendered with the default limits, then ingress-nginx accepts the largest body each service accepts', () => {
    // catalogue-api: imports up to HTTP_IMPORT_BODY_LIMIT (32mb); the others HTTP_BODY_LIMIT (5mb).
    expect(bodySizes(objects)).toEqual({
      'catalogue-api': '32m',
      'white-label-api': '5m',
      'credit-service': '5m',
    });
  });

  test('when the limits are changed, then the annotation follows the larger limit of each service', async () => {
    const changed = await renderChart([
      ...ingressOn,
      '--set',
      'config.HTTP_IMPORT_BODY_LIMIT=900kb',
      '--set',
      'config.HTTP_BODY_LIMIT=2MB',
    ]);
    expect(bodySizes(changed)).toEqual({
      'catalogue-api': '2m',
      'white-label-api': '2m',
      'credit-service': '2m',
    });
    const kb = await renderChart([...ingressOn, '--set', 'config.HTTP_BODY_LIMIT=700kb']);
    expect(bodySizes(kb)).toEqual({
      'catalogue-api': '32m',
      'white-label-api': '700k',
      'credit-service': '700k',
    });
  });

  test('when the values set the annotation, then theirs wins', async () => {
    const own = await renderChart([
      ...ingressOn,
      '--set',
      'whiteLabelApi.ingress.annotations.nginx\\.ingress\\.kubernetes\\.io/proxy-body-size=50m',
    ]);
    expect(bodySizes(own)['white-label-api']).toBe('50m');
  });
});
