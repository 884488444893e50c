// Rendering helm/catalogue-content with the real helm, and checking what it renders against
// the Kubernetes (and Prometheus Operator) schemas of kubernetes-models.
import { join } from 'node:path';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import { chartReaders } from '@catalogue/config';
import { REPO_ROOT } from '@catalogue/testing';
import { layerBinary, run } from './tools';

export const CHART_DIR = join(REPO_ROOT, 'helm', 'catalogue-content');
export const EVERYTHING_VALUES = join(CHART_DIR, 'ci', 'everything-values.yaml');
export const UMBRELLA_VALUES = join(CHART_DIR, 'ci', 'umbrella-values.yaml');
export const RELEASE = 'shop';
export const NAMESPACE = 'catalogue';

/** A rendered Kubernetes object, as plain data. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** `helm template` of the chart with extra arguments (-f, --set); throws on a failed render. */
export async function renderChart(args: string[] = []): Promise<K8sObject[]> {
  const result = await helmTemplate(args);
  if (result.code !== 0) throw new Error(`helm template failed:\n${result.stderr}`);
  return leastPrivileged(parseObjects(result.stdout));
}

/**
 * Every render of every test holds least privilege: a pod gets only the variables its process
 * reads (leastPrivilegeErrors below); a render that breaks it fails the test that made it.
 */
function leastPrivileged(objects: K8sObject[]): K8sObject[] {
  const errors = leastPrivilegeErrors(objects);
  if (errors.length)
    throw new Error(`the render gives pods variables they do not read:\n${errors.join('\n')}`);
  return objects;
}

/** renderChart() of another release name and namespace. */
export async function renderChartAs(
  release: string,
  namespace: string,
  args: string[] = [],
): Promise<K8sObject[]> {
  const result = await helmTemplate(args, release, namespace);
  if (result.code !== 0) throw new Error(`helm template failed:\n${result.stderr}`);
  return leastPrivileged(parseObjects(result.stdout));
}

export function helmTemplate(
  args: string[] = [],
  release = RELEASE,
  namespace = NAMESPACE,
): ReturnType<typeof run> {
  return run(layerBinary('helm'), [
    'template',
    release,
    CHART_DIR,
    '--namespace',
    namespace,
    '--api-versions',
    'monitoring.coreos.com/v1',
    ...args,
  ]);
}

export function parseObjects(manifest: string): K8sObject[] {
  return parseAllDocuments(manifest)
    .map((doc) => {
      if (doc.errors.length) throw new Error(`rendered YAML does not parse: ${doc.errors[0]!.message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

export const describeObject = (o: K8sObject): string => `${o.kind} ${o.metadata.name}`;

/** Where kubernetes-models keeps the model of an apiVersion/kind. */
function modelModule({ apiVersion, kind }: K8sObject): string {
  if (apiVersion.startsWith('monitoring.coreos.com/'))
    return `@kubernetes-models/prometheus-operator/${apiVersion}/${kind}`;
  if (apiVersion.startsWith('keda.sh/')) return `@kubernetes-models/keda/${apiVersion}/${kind}`;
  return `kubernetes-models/${apiVersion}/${kind}`;
}

/**
 * Schema errors of each object (types, enums, formats, required fields), from the models'
 * validate(). It lets unknown fields through, which unknownFieldErrors() catches.
 */
export function schemaErrors(objects: K8sObject[]): string[] {
  const errors: string[] = [];
  for (const o of objects) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module depends on the object's kind
    const Model = (require(modelModule(o)) as Record<string, new (data: unknown) => { validate(): void }>)[
      o.kind
    ];
    if (!Model) {
      errors.push(`${describeObject(o)}: no model for ${o.apiVersion}`);
      continue;
    }
    try {
      new Model(o).validate();
    } catch (err) {
      errors.push(`${describeObject(o)}: ${(err as Error).message}`);
    }
  }
  return errors;
}

/**
 * Fields the API does not know (a typo, a wrong nesting level), which the API server would
 * drop or refuse. Each object becomes a typed object literal of the model's TypeScript
 * interface; the compiler's excess-property check is exact at every depth, and it also
 * reports missing required fields and wrong types.
 */
export function unknownFieldErrors(objects: K8sObject[]): string[] {
  const fileName = join(REPO_ROOT, 'tests', 'deploy', '__rendered-objects__.ts');
  const lines: string[] = [];
  const owner: string[] = [];
  objects.forEach((o, i) => {
    lines.push(`import type { I${o.kind} as T${i} } from '${modelModule(o)}';`);
    owner.push(describeObject(o));
  });
  objects.forEach((o, i) => {
    const literal = JSON.stringify(o, null, 1).split('\n');
    for (let n = 0; n < literal.length; n++) owner.push(describeObject(o));
    lines.push(`export const o${i}: T${i} = ${literal.join('\n')};`);
  });
  const source = lines.join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    target: ts.ScriptTarget.ES2022,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) =>
    name === fileName ? ts.createSourceFile(name, source, version) : getSourceFile(name, version, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === fileName || fileExists(name);
  const program = ts.createProgram([fileName], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file || d.start === undefined) return text;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${owner[line] ?? d.file.fileName}: ${text}`;
  });
}

/** Every container (init containers too) of a Deployment or Job, with its pod spec. */
export function podSpecs(objects: K8sObject[]): Array<{ owner: K8sObject; pod: PodSpec }> {
  return objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
    .map((owner) => ({
      owner,
      pod: (owner as unknown as { spec: { template: { spec: PodSpec } } }).spec.template.spec,
    }));
}

export interface Container {
  name: string;
  command?: string[];
  envFrom?: Array<{ configMapRef?: { name: string }; secretRef?: { name: string } }>;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  livenessProbe?: { httpGet?: { path: string; port: string | number } };
  readinessProbe?: { httpGet?: { path: string; port: string | number } };
  securityContext?: Record<string, unknown>;
  ports?: Array<{ name: string; containerPort: number }>;
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: Record<string, unknown>;
  terminationGracePeriodSeconds?: number;
  restartPolicy?: string;
}

interface EnvSource {
  configMapRef?: { name: string; optional?: boolean };
  secretRef?: { name: string; optional?: boolean };
}
interface EnvEntry {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string; optional?: boolean };
    configMapKeyRef?: { name: string; key: string; optional?: boolean };
  };
}

/**
 * The environment a container of the render would start with, as Kubernetes builds it: its
 * envFrom sources in order, then its env entries (which win). A key of a ConfigMap or Secret the
 * render does not hold (an existing Secret, an operator's ConfigMap) reads `<name>/<key>`; an
 * optional key that is missing is no variable.
 */
export function containerEnvironment(objects: K8sObject[], container: Container): Record<string, string> {
  const dataOf = (kind: 'ConfigMap' | 'Secret', name: string): Record<string, string> | undefined => {
    const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
    if (!o) return undefined;
    const data = (o.data ?? {}) as Record<string, string>;
    return kind === 'ConfigMap'
      ? data
      : Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]));
  };
  const env: Record<string, string> = {};
  for (const source of (container.envFrom ?? []) as EnvSource[]) {
    const ref = source.configMapRef ?? source.secretRef!;
    Object.assign(env, dataOf(source.configMapRef ? 'ConfigMap' : 'Secret', ref.name) ?? {});
  }
  for (const entry of (container.env ?? []) as EnvEntry[]) {
    delete env[entry.name];
    if (entry.value !== undefined) {
      env[entry.name] = entry.value;
      continue;
    }
    const secret = entry.valueFrom?.secretKeyRef;
    const config = entry.valueFrom?.configMapKeyRef;
    const ref = secret ?? config;
    if (!ref) continue;
    const data = dataOf(secret ? 'Secret' : 'ConfigMap', ref.name);
    if (!data) env[entry.name] = `${ref.name}/${ref.key}`;
    else if (ref.key in data) env[entry.name] = data[ref.key]!;
    else if (!ref.optional) throw new Error(`${entry.name}: ${ref.name} has no key ${ref.key}`);
  }
  return env;
}

/** The component (app.kubernetes.io/component) of a Deployment or the migration Job. */
export const componentOf = (o: K8sObject): string => o.metadata.labels!['app.kubernetes.io/component']!;

/**
 * Where a render gives a variable of libs/config's table to a pod whose process does not read
 * it (the table's readBy, files/readers.yaml): in the container's environment, or as a key of
 * the component's own ConfigMap. Empty when least privilege holds.
 */
export function leastPrivilegeErrors(objects: K8sObject[]): string[] {
  const readers = chartReaders() as Record<string, string[]>;
  const errors: string[] = [];
  for (const { owner, pod } of podSpecs(objects)) {
    const component = componentOf(owner);
    const env = containerEnvironment(objects, pod.containers[0]!);
    for (const name of Object.keys(env))
      if (readers[name] && !readers[name].includes(component))
        errors.push(`${describeObject(owner)}: ${name}, which ${component} does not read`);
  }
  for (const o of objects.filter((x) => x.kind === 'ConfigMap' && x.metadata.name.endsWith('-config'))) {
    const component = componentOf(o);
    for (const name of Object.keys((o.data ?? {}) as Record<string, string>))
      if (!readers[name]?.includes(component))
        errors.push(`${describeObject(o)}: ${name}, which ${component} does not read`);
  }
  return errors;
}
