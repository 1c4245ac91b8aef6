/** Probe-target selection as a table: what was observed → what gets probed. */
import { describe, expect, it } from 'vitest';
import { selectProbeTarget, type ProbeTargetInput } from './probeTarget';

const seen = (url: string, port: number, host = 'localhost') => ({ url, port, host, offset: 0, at: 0 });
const place = (url: string, port: number, patternId = 'vite-local-url') => ({ url, port, patternId });

function input(patch: Partial<ProbeTargetInput>): ProbeTargetInput {
  return { places: [], sightings: [], movedAway: new Set(), listening: [], foreignPorts: new Set(), ...patch };
}

describe('selectProbeTarget', () => {
  it.each<
    [string, Partial<ProbeTargetInput>, { port: number; source?: string; url?: string; httpUrl?: string; isTrusted?: boolean } | undefined]
  >([
    ['nothing known', {}, undefined],
    [
      'config url wins over everything',
      { configUrl: 'http://localhost:8080/health', configPort: 3000, places: [place('http://localhost:5173/', 5173)] },
      { port: 8080, source: 'config url', httpUrl: 'http://localhost:8080/health', url: 'http://localhost:8080/health' },
    ],
    ['https url without a port probes 443', { configUrl: 'https://app.localhost/' }, { port: 443, source: 'config url' }],
    ['config port', { configPort: 3000 }, { port: 3000, source: 'config port', url: 'http://localhost:3000', isTrusted: true }],
    [
      'config port shows the URL the server printed for it',
      { configPort: 3000, sightings: [seen('http://127.0.0.1:3000/app', 3000, '127.0.0.1')] },
      { port: 3000, source: 'config port', url: 'http://127.0.0.1:3000/app' },
    ],
    [
      'moved port beats the config port',
      { configPort: 3000, movedAway: new Set([3000]), movedTo: 3001 },
      { port: 3001, source: 'moved port' },
    ],
    [
      'config port moved away with no new port: fall through to the framework line',
      { configPort: 3000, movedAway: new Set([3000]), places: [place('http://localhost:3002/', 3002)] },
      { port: 3002, source: 'pattern vite-local-url' },
    ],
    [
      'framework line beats sightings',
      { places: [place('http://localhost:5173/', 5173)], sightings: [seen('http://localhost:9229/', 9229)] },
      { port: 5173, source: 'pattern vite-local-url', isTrusted: true },
    ],
    [
      'untrusted sighting on loopback',
      { sightings: [seen('http://localhost:8080/', 8080)] },
      { port: 8080, source: 'url sighting', isTrusted: false },
    ],
    ['sighting on another host is not ours', { sightings: [seen('http://192.168.1.4:8080/', 8080, '192.168.1.4')] }, undefined],
    [
      'sighting of a foreign open port is skipped',
      { sightings: [seen('http://localhost:5432/', 5432)], foreignPorts: new Set([5432]) },
      undefined,
    ],
    [
      'sighting of a port the tree does not listen on is skipped while it listens elsewhere',
      { sightings: [seen('http://localhost:5432/', 5432)], listening: [8000] },
      { port: 8000, source: 'listening' },
    ],
    [
      'first sighting port, latest URL for it',
      { sightings: [seen('http://0.0.0.0:8000/', 8000, '0.0.0.0'), seen('http://127.0.0.1:8000/', 8000, '127.0.0.1')] },
      { port: 8000, url: 'http://127.0.0.1:8000' },
    ],
    ['a listening port alone', { listening: [4000] }, { port: 4000, source: 'listening' }],
  ])('%s', (_name, patch, expected) => {
    const target = selectProbeTarget(input(patch));
    if (expected === undefined) expect(target).toBeUndefined();
    else expect(target).toMatchObject(expected);
  });
});
