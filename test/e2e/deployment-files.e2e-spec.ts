import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { AppConfig } from '../../src/config/app-config.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * docker/compose.yaml, docker/nginx.conf and the Kubernetes manifests in docker/kubernetes/ are
 * parsed (no Docker or cluster runs here) and held to the service: the ports it listens on, probe
 * paths it really answers without a key, and only variables that AppConfig reads.
 */

/** Every variable AppConfig reads, found by watching it read an empty environment: no second list to keep. */
function configVariables(): Set<string> {
  const read = new Set<string>();
  const environment = new Proxy(
    {},
    {
      get(_, name) {
        if (typeof name === 'string') read.add(name);
        return undefined;
      },
    },
  );
  AppConfig.fromEnvironment(environment);
  return read;
}

interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  ports: { name?: string; containerPort: number }[];
  env?: { name: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  resources: { requests: { cpu: string; memory: string }; limits?: { memory?: string } };
  livenessProbe: Probe;
  readinessProbe: Probe;
  startupProbe?: Probe;
}
interface Manifest {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec: Record<string, any>;
}

const KUBERNETES = 'docker/kubernetes';
const manifests: Manifest[] = readdirSync(KUBERNETES)
  .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
  .flatMap((file) => parseAllDocuments(readFileSync(join(KUBERNETES, file), 'utf8')).map((document) => document.toJS() as Manifest));
const one = (kind: string) => {
  const found = manifests.filter((manifest) => manifest.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
};
const compose = parse(readFileSync('docker/compose.yaml', 'utf8')) as { services: Record<string, any> };
const nginx = readFileSync('docker/nginx.conf', 'utf8');
const variables = configVariables();

describe('Deployment files', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const answersWithoutKey = async (path: string) => expect((await t.http.get(path)).status).toBe(200);

  it('reads the variable names from AppConfig itself', () => {
    expect([...variables]).toEqual(expect.arrayContaining(['PORT', 'DATABASE_URL', 'REDIS_URL', 'TRUST_PROXY', 'ENCRYPTION_KEY']));
  });

  describe('docker/compose.yaml', () => {
    const { api, lb, redis, postgres } = compose.services;

    it('runs PostgreSQL, Redis, a scalable api (no host port of its own) and a load balancer in front', () => {
      expect(postgres).toBeDefined();
      expect(redis).toBeDefined();
      expect(api.ports).toBeUndefined();
      expect(api.container_name).toBeUndefined();
      expect(lb.depends_on.api.condition).toBe('service_healthy');
    });

    it('sets only variables the service reads, and points it at the compose PostgreSQL and Redis', () => {
      const names = Object.keys(api.environment);
      expect(names.filter((name) => !variables.has(name))).toEqual([]);
      expect(new URL(api.environment.DATABASE_URL).hostname).toBe('postgres');
      expect(new URL(api.environment.REDIS_URL).hostname).toBe('redis');
      expect(AppConfig.fromEnvironment({ TRUST_PROXY: api.environment.TRUST_PROXY }).trustProxy).toEqual(['uniquelocal']);
    });

    it('has the load balancer forward to the port the api listens on, publish the port it listens on, and health-checks a real probe', async () => {
      const port = Number(api.environment.PORT);
      expect(api.expose).toEqual([String(port)]);
      expect(nginx).toMatch(new RegExp(`server api:${port} resolve;`));
      const listen = Number(/listen (\d+);/.exec(nginx)?.[1]);
      expect(lb.ports).toEqual([`3000:${listen}`]);
      expect(nginx).toContain('X-Forwarded-For $proxy_add_x_forwarded_for');
      const checked = /http:\/\/127\.0\.0\.1:(\d+)(\/[^'"]*)/.exec(api.healthcheck.test.join(' '));
      expect(Number(checked?.[1])).toBe(port);
      await answersWithoutKey(checked![2]);
    });
  });

  describe('docker/kubernetes', () => {
    it('has a Deployment of 3 replicas whose container port is the PORT it is given, probed on /health/live and /health/ready', async () => {
      const deployment = one('Deployment');
      expect(deployment.spec.replicas).toBe(3);
      const [container] = deployment.spec.template.spec.containers as Container[];
      const config = one('ConfigMap');
      const port = container.ports.find((candidate) => candidate.name === 'http')!.containerPort;
      expect(String(port)).toBe(config.data!.PORT);
      expect(container.livenessProbe.httpGet?.path).toBe('/health/live');
      expect(container.readinessProbe.httpGet?.path).toBe('/health/ready');
      for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe]) {
        if (probe?.httpGet === undefined) continue;
        expect([port, 'http']).toContain(probe.httpGet.port);
        await answersWithoutKey(probe.httpGet.path);
      }
      expect(container.resources.requests.memory).toMatch(/^\d+Mi$/);
      expect(container.resources.limits?.memory).toMatch(/^\d+Mi$/);
    });

    it('sets only variables the service reads, each from the ConfigMap or the Secret it names, with ENCRYPTION_KEY a placeholder the service refuses', () => {
      const config = one('ConfigMap');
      const secret = one('Secret');
      const [container] = one('Deployment').spec.template.spec.containers as Container[];
      expect(container.envFrom).toEqual([{ configMapRef: { name: config.metadata.name } }, { secretRef: { name: secret.metadata.name } }]);
      const names = [...Object.keys(config.data!), ...Object.keys(secret.stringData!), ...(container.env ?? []).map(({ name }) => name)];
      expect(names.filter((name) => !variables.has(name))).toEqual([]);
      expect(Object.keys(secret.stringData!)).toEqual(expect.arrayContaining(['ENCRYPTION_KEY', 'DATABASE_URL', 'REDIS_URL']));
      expect(() => AppConfig.fromEnvironment({ ENCRYPTION_KEY: secret.stringData!.ENCRYPTION_KEY })).toThrow(/^ENCRYPTION_KEY /);
      expect(() => AppConfig.fromEnvironment(config.data!)).not.toThrow();
    });

    it('routes the Service, the PodDisruptionBudget and the autoscaler to the Deployment', () => {
      const deployment = one('Deployment');
      const labels = deployment.spec.template.metadata.labels as Record<string, string>;
      expect(deployment.spec.selector.matchLabels).toEqual(labels);
      const service = one('Service');
      expect(service.spec.selector).toEqual(labels);
      expect(service.spec.ports.map(({ targetPort }: { targetPort: string }) => targetPort)).toEqual(['http']);
      const budget = one('PodDisruptionBudget');
      expect(budget.spec.selector.matchLabels).toEqual(labels);
      expect(budget.spec.minAvailable).toBeLessThan(deployment.spec.replicas);
      const autoscaler = one('HorizontalPodAutoscaler');
      expect(autoscaler.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata.name });
      expect(autoscaler.spec.minReplicas).toBe(deployment.spec.replicas);
    });

    it('keeps every replica that may run at once within PostgreSQL’s default max_connections (100, 3 reserved), as docs/operations.md’s connection budget says', () => {
      const poolSize = AppConfig.fromEnvironment(one('ConfigMap').data!).databasePoolSize;
      const mostReplicas = one('HorizontalPodAutoscaler').spec.maxReplicas + one('Deployment').spec.strategy.rollingUpdate.maxSurge;
      // Each replica: its pool, and one connection of its own while it migrates at start-up.
      expect(mostReplicas * (poolSize + 1)).toBeLessThanOrEqual(100 - 3);
    });

    it('lists every manifest in kustomization.yaml', () => {
      const kustomization = parse(readFileSync(join(KUBERNETES, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
      const files = readdirSync(KUBERNETES).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml');
      expect([...kustomization.resources].sort()).toEqual(files.sort());
    });
  });

  it('docker/Dockerfile exposes the port it sets', () => {
    const dockerfile = readFileSync('docker/Dockerfile', 'utf8');
    expect(/^EXPOSE (\d+)$/m.exec(dockerfile)?.[1]).toBe(/PORT=(\d+)/.exec(dockerfile)?.[1]);
  });
});
