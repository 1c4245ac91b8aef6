/**
 * docker compose services, each as a `docker compose up <service>` entry. The service's single
 * published host port, when it has one, becomes the entry's readiness `port`.
 */
import { parse as parseYaml } from 'yaml';
import type { ProposedEntry } from '../../../../shared/proposal';
import type { ProjectFiles } from '../projectFiles';
import type { ProposalContext } from './context';

/** The file names `docker compose` looks for, in its own order of preference. */
const COMPOSE_FILES = ['compose.yaml', 'compose.yml', 'docker-compose.yaml', 'docker-compose.yml'] as const;

export function proposeFromCompose(files: ProjectFiles, ctx: ProposalContext): ProposedEntry[] {
  const file = files.firstOf(COMPOSE_FILES);
  const services = file ? composeServices(files.text(file) ?? '') : {};
  const hasDocker = ctx.isOnPath('docker');
  return Object.entries(services).map(([service, definition]) => {
    const port = publishedPort(definition);
    return {
      section: 'processes' as const,
      name: service,
      source: `${file} service "${service}"`,
      selected: false,
      note: hasDocker ? 'Runs in Docker' : 'Runs in Docker, which is not on your PATH',
      config: { command: 'docker', args: ['compose', 'up', service], ...(port ? { port } : {}) },
    };
  });
}

function composeServices(text: string): Record<string, unknown> {
  try {
    const doc = parseYaml(text) as { services?: unknown } | null;
    const services = doc?.services;
    return services && typeof services === 'object' && !Array.isArray(services) ? (services as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The host port of `ports:` when exactly one is published ("8080:80", "127.0.0.1:8080:80", long form). */
function publishedPort(definition: unknown): number | undefined {
  const ports = (definition as { ports?: unknown } | null)?.ports;
  if (!Array.isArray(ports)) return undefined;
  const hostPorts = ports.map(hostPortOf).filter((p): p is number => p !== undefined);
  return hostPorts.length === 1 ? hostPorts[0] : undefined;
}

function hostPortOf(spec: unknown): number | undefined {
  if (spec && typeof spec === 'object') return toPort((spec as { published?: unknown }).published);
  const parts = String(spec)
    .replace(/\/(tcp|udp)$/, '')
    .split(':');
  return parts.length >= 2 ? toPort(parts[parts.length - 2]) : undefined; // a bare "80" publishes a random host port
}

function toPort(value: unknown): number | undefined {
  const port = Number(value);
  return Number.isInteger(port) && port > 0 && port < 65_536 ? port : undefined;
}
