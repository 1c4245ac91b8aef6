import { describe, expect, it } from 'vitest';
import { parseUrlSightings } from './urlSightings';

describe('parseUrlSightings', () => {
  it.each([
    // [line, [url, port, host]...]
    ['  ➜  Local:   http://localhost:5199/', [['http://localhost:5199/', 5199, 'localhost']]],
    [
      '  \x1b[32m➜\x1b[39m  \x1b[1mLocal\x1b[22m:   \x1b[36mhttp://localhost:\x1b[1m5199\x1b[22m/\x1b[39m',
      [['http://localhost:5199/', 5199, 'localhost']],
    ],
    ['- Network:       http://192.0.2.2:3197', [['http://192.0.2.2:3197/', 3197, '192.0.2.2']]],
    ['Starting development server at http://127.0.0.1:8197/', [['http://127.0.0.1:8197/', 8197, '127.0.0.1']]],
    ['Listening on 0.0.0.0:8000', [['http://localhost:8000/', 8000, '0.0.0.0']]],
    ['bound to [::]:5173', [['http://localhost:5173/', 5173, '[::]']]],
    ['* Listening on http://[::1]:3000', [['http://[::1]:3000/', 3000, '[::1]']]],
    ['Server listening on port 3000', [['http://localhost:3000/', 3000, 'localhost']]],
    ['open https://localhost/ in a browser', [['https://localhost/', 443, 'localhost']]],
    ['Visit http://localhost:3000/dashboard.', [['http://localhost:3000/dashboard', 3000, 'localhost']]],
    ['INFO:     Uvicorn running on http://127.0.0.1:5096 (Press CTRL+C to quit)', [['http://127.0.0.1:5096/', 5096, '127.0.0.1']]],
  ])('%j', (line, expected) => {
    expect(parseUrlSightings(line).map((s) => [s.url, s.port, s.host])).toEqual(expected);
  });

  it.each([
    ['https://nextjs.org/docs/messages/next-config-error', 'a docs link is not a place to reach the server'],
    ['12:30:45 PM [vite] page reload', 'a clock is not host:port'],
    ['Port 5173 is in use, trying another one...', 'a port being left'],
    ['Something is already running on port 3000.', 'a port taken by someone else'],
    ['Debugger listening on ws://127.0.0.1:9229/2f3c', 'a websocket debugger URL'],
    ['version 1.2.3:4567', 'not a local host'],
    ['http://localhost:99999/', 'port out of range'],
    // Addresses a program connects to, or failed to reach, are another service's
    ['Error: connect ECONNREFUSED 127.0.0.1:5432', "node's net error for a database that is down"],
    ['[vite] http proxy error: /api/users', 'a dev-server proxy whose backend is down'],
    ['MongooseServerSelectionError: connect ECONNREFUSED [::1]:27017', 'mongoose without a database'],
    [
      'consumer: Cannot connect to redis://localhost:6379/0: Error 111 connecting to localhost:6379. Connection refused.',
      'celery without a broker',
    ],
    ["Error: P1001: Can't reach database server at `localhost:5432`", 'prisma without a database'],
    ['Error connecting to Redis on 127.0.0.1:6379 (Errno::ECONNREFUSED)', 'redis-rb without redis'],
    ['Connected to MongoDB at localhost:27017', 'a client connection that worked is still not this server'],
    ['Error: listen EADDRINUSE: address already in use 127.0.0.1:3000', 'a taken port'],
  ])('%j is not a sighting (%s)', (line) => {
    expect(parseUrlSightings(line)).toEqual([]);
  });

  it('lists several URLs of one line once each, in order', () => {
    const urls = parseUrlSightings('[remix-serve] http://localhost:3000 (http://192.168.1.5:3000) http://localhost:3000').map((s) => s.url);
    expect(urls).toEqual(['http://localhost:3000/', 'http://192.168.1.5:3000/']);
  });
});
