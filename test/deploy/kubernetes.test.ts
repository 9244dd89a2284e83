import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { ConfigMap, Namespace, Secret, Service } from 'kubernetes-models/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { DEFAULT_HEALTH_PORTS } from '@uptime/observability';
import { CORE_VARIABLES, ROOT } from './deploy-files';

const DIR = path.join(ROOT, 'deploy/kubernetes');

/** A schema-checked model per apiVersion/kind used here; anything else in the folder is an error. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
};

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  // The shapes below are read by the assertions; kubernetes-models has checked them against the schema.
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

interface Probe {
  httpGet: { path: string; port: string };
}
interface Container {
  name: string;
  image: string;
  ports: { name: string; containerPort: number }[];
  env?: { name: string; value: string }[];
  envFrom: ({ configMapRef: { name: string } } | { secretRef: { name: string } })[];
  livenessProbe: Probe;
  readinessProbe: Probe;
  resources: { requests: Record<string, string>; limits: Record<string, string> };
  securityContext: { allowPrivilegeEscalation: boolean; readOnlyRootFilesystem: boolean };
}
interface DeploymentSpec {
  replicas: number;
  selector: { matchLabels: Record<string, string> };
  template: {
    metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
    spec: { terminationGracePeriodSeconds: number; securityContext: { runAsNonRoot: boolean }; containers: Container[] };
  };
}

const manifestFiles = readdirSync(DIR).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
const objects: K8sObject[] = manifestFiles.flatMap((file) =>
  parseAllDocuments(readFileSync(path.join(DIR, file), 'utf8')).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('; ')}`);
    return doc.toJS() as K8sObject;
  }),
);
const find = (kind: string, name: string): K8sObject => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
};
const deploymentSpec = (name: string): DeploymentSpec => find('Deployment', name).spec as unknown as DeploymentSpec;

/** `port` is what the Service routes and the probes use; `metricsPort` is the health listener Prometheus scrapes. */
const SERVICES = [
  { name: 'uptime-api', port: 3000, portName: 'http', metricsPort: DEFAULT_HEALTH_PORTS.api },
  { name: 'uptime-check-worker', port: 9464, portName: 'metrics', metricsPort: DEFAULT_HEALTH_PORTS['check-worker'] },
  { name: 'uptime-notifier', port: 9465, portName: 'metrics', metricsPort: DEFAULT_HEALTH_PORTS.notifier },
];

describe('deploy/kubernetes manifests', () => {
  it('are valid Kubernetes objects of known kinds', () => {
    expect(objects.length).toBeGreaterThanOrEqual(12);
    for (const object of objects) {
      const Model = MODELS[`${object.apiVersion}/${object.kind}`];
      expect(Model).toEqual(expect.any(Function));
      expect(() => new Model(object as never).validate()).not.toThrow();
      expect(object.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      if (object.kind !== 'Namespace') expect(object.metadata.namespace).toBe('uptime');
    }
  });

  it('are really schema-checked: a wrong type is refused', () => {
    const broken = structuredClone(find('Deployment', 'uptime-api'));
    (broken.spec as { replicas: unknown }).replicas = 'two';
    expect(() => new Deployment(broken as never).validate()).toThrow(/replicas/);
  });

  it('are all listed in kustomization.yaml', () => {
    const kustomization = parseAllDocuments(readFileSync(path.join(DIR, 'kustomization.yaml'), 'utf8'))[0].toJS() as {
      resources: string[];
    };
    expect([...kustomization.resources].sort()).toEqual([...manifestFiles].sort());
  });

  it.each(SERVICES)('run $name with probes, resources, config and a Service', ({ name, port, portName, metricsPort }) => {
    const spec = deploymentSpec(name);
    expect(spec.replicas).toBeGreaterThanOrEqual(2);
    expect(spec.template.metadata.labels).toMatchObject(spec.selector.matchLabels);
    expect(spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(30);
    expect(spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    const [container] = spec.template.spec.containers;
    const ports = [{ name: portName, containerPort: port }, { name: 'metrics', containerPort: metricsPort }];
    expect(container.ports).toEqual([...new Map(ports.map((p) => [p.name, p])).values()].map((p) => expect.objectContaining(p)));
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: portName });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: portName });
    expect(Object.keys(container.resources.requests).sort()).toEqual(['cpu', 'memory']);
    expect(Object.keys(container.resources.limits).sort()).toEqual(['cpu', 'memory']);
    expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    expect(container.envFrom).toEqual([{ configMapRef: { name: 'uptime-config' } }, { secretRef: { name: 'uptime-secrets' } }]);
    expect(container.env).toContainEqual({ name: 'HEALTH_PORT', value: String(metricsPort) });

    const service = find('Service', name).spec as { selector: Record<string, string>; ports: { targetPort: string }[] };
    expect(spec.template.metadata.labels).toMatchObject(service.selector);
    expect(service.ports.map((p) => p.targetPort)).toEqual([portName]);

    const pdb = find('PodDisruptionBudget', name).spec as {
      selector: { matchLabels: Record<string, string> };
      minAvailable?: number;
      maxUnavailable?: number;
    };
    expect(pdb.selector.matchLabels).toEqual(spec.selector.matchLabels);
    // It must never block every eviction: with `replicas` pods, at least one may go.
    const allowedDown = pdb.maxUnavailable ?? spec.replicas - (pdb.minAvailable ?? spec.replicas);
    expect(allowedDown).toBeGreaterThanOrEqual(1);
  });

  it.each(SERVICES)("let Prometheus scrape $name on its health listener, never through the api's Service", ({ name, metricsPort }) => {
    const spec = deploymentSpec(name);
    expect(spec.template.metadata.annotations).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': String(metricsPort),
      'prometheus.io/path': '/metrics',
    });
    const [container] = spec.template.spec.containers;
    expect(container.ports).toContainEqual(expect.objectContaining({ name: 'metrics', containerPort: metricsPort }));
    // The listener binds 127.0.0.1 by default; on a pod, Prometheus and the kubelet reach its address.
    expect(find('ConfigMap', 'uptime-config').data).toMatchObject({ HEALTH_HOST: '0.0.0.0' });
    // The api's Service, the one an Ingress routes, does not carry its metrics.
    const service = find('Service', name).spec as { clusterIP?: string; ports: { port: number; targetPort: string }[] };
    if (name === 'uptime-api') expect(service.ports.map((p) => p.targetPort)).not.toContain('metrics');
    else expect(service.clusterIP).toBe('None');
  });

  it('scale the check-workers on the waiting checks and on CPU', () => {
    const hpa = find('HorizontalPodAutoscaler', 'uptime-check-worker').spec as {
      scaleTargetRef: { kind: string; name: string };
      minReplicas: number;
      maxReplicas: number;
      metrics: { type: string; external?: { metric: { name: string }; target: { type: string } }; resource?: { name: string } }[];
    };
    expect(hpa.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'uptime-check-worker' });
    expect(hpa.minReplicas).toBe(deploymentSpec('uptime-check-worker').replicas);
    expect(hpa.maxReplicas).toBeGreaterThan(hpa.minReplicas);
    expect(hpa.metrics).toContainEqual(
      expect.objectContaining({ type: 'External', external: expect.objectContaining({ metric: { name: 'uptime_checks_waiting' } }) }),
    );
    expect(hpa.metrics).toContainEqual(expect.objectContaining({ type: 'Resource', resource: expect.objectContaining({ name: 'cpu' }) }));
  });

  it('configure every core variable (docs/configuration.md) through the ConfigMap or the Secret, secrets only in the Secret', () => {
    const config = find('ConfigMap', 'uptime-config').data ?? {};
    const secret = find('Secret', 'uptime-secrets').stringData ?? {};
    const both = Object.keys(config).filter((k) => k in secret);
    expect(both).toEqual([]);
    const provider = /^(GITHUB|GOOGLE)_(AUTHORIZATION|TOKEN|USER_PROFILE|USER_EMAIL)_URL$/; // provider defaults are right in production
    const missing = CORE_VARIABLES.filter((v) => !(v in config) && !(v in secret) && !provider.test(v));
    expect(missing).toEqual([]);
    for (const key of [
      'DATABASE_URL',
      'REDIS_URL',
      'SESSION_SECRET',
      'SENDGRID_API_KEY',
      'SMTP_URL',
      'GITHUB_CLIENT_SECRET',
      'GOOGLE_CLIENT_SECRET',
    ]) {
      expect(secret).toHaveProperty(key);
    }
  });

  describe('the optional KEDA overlay', () => {
    const KEDA = path.join(DIR, 'keda');
    const kustomization = parseAllDocuments(readFileSync(path.join(KEDA, 'kustomization.yaml'), 'utf8'))[0].toJS() as {
      resources: string[];
      patches: { patch: string }[];
    };
    const scaled = parseAllDocuments(readFileSync(path.join(KEDA, 'check-worker-scaledobject.yaml'), 'utf8'))[0].toJS() as K8sObject;
    const metricsSource = readFileSync(path.join(ROOT, 'packages/observability/src/metrics.ts'), 'utf8');

    it('builds on the base manifests and replaces their check-worker HPA with the ScaledObject', () => {
      expect(kustomization.resources).toEqual(['../', 'check-worker-scaledobject.yaml']);
      const removed = parseAllDocuments(kustomization.patches[0].patch)[0].toJS() as K8sObject & { $patch: string };
      expect(removed.$patch).toBe('delete');
      // The object it deletes exists in the base, under that exact identity.
      const hpa = find('HorizontalPodAutoscaler', removed.metadata.name);
      expect(`${hpa.apiVersion} ${hpa.metadata.namespace}`).toBe(`${removed.apiVersion} ${removed.metadata.namespace}`);
    });

    it('scales the check-worker Deployment on the lag metric the check-workers export', () => {
      expect(`${scaled.apiVersion}/${scaled.kind}`).toBe('keda.sh/v1alpha1/ScaledObject');
      const spec = scaled.spec as {
        scaleTargetRef: { apiVersion: string; kind: string; name: string };
        minReplicaCount: number;
        maxReplicaCount: number;
        triggers: { type: string; metricType: string; metadata: { query: string; threshold: string; serverAddress: string } }[];
      };
      const target = find(spec.scaleTargetRef.kind, spec.scaleTargetRef.name);
      expect(target.apiVersion).toBe(spec.scaleTargetRef.apiVersion);
      expect(scaled.metadata.namespace).toBe(target.metadata.namespace);
      expect(spec.minReplicaCount).toBeGreaterThanOrEqual(1);
      expect(spec.maxReplicaCount).toBeGreaterThan(spec.minReplicaCount);
      const [trigger] = spec.triggers;
      expect(trigger).toMatchObject({ type: 'prometheus', metricType: 'Value' });
      const metric = /\b(\w+)_bucket\b/.exec(trigger.metadata.query)?.[1];
      expect(metric).toBe('uptime_check_lag_seconds');
      expect(metricsSource).toContain(`name: '${metric}'`);
      expect(Number(trigger.metadata.threshold)).toBeGreaterThan(0);
      expect(new URL(trigger.metadata.serverAddress).protocol).toBe('http:');
    });
  });
});
