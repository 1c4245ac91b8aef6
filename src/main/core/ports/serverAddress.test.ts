import { describe, expect, it } from 'vitest';
import { displayUrl, hostToShow, isLoopbackOrWildcard, isValidPort, namesThisMachine, portOfUrl } from './serverAddress';

describe('serverAddress', () => {
  it.each([
    ['localhost', true, true],
    ['127.0.0.1', true, true],
    ['0.0.0.0', true, true],
    ['[::]', true, true],
    ['[::1]', true, true],
    ['app.localhost', false, true],
    ['192.168.1.4', false, false],
    ['nextjs.org', false, false],
  ])('%s: loopback or wildcard %s, names this machine %s', (host, isLoopback, isThisMachine) => {
    expect(isLoopbackOrWildcard(host)).toBe(isLoopback);
    expect(namesThisMachine(host)).toBe(isThisMachine);
  });

  it('shows wildcard binds as localhost and names in lower case', () => {
    expect(hostToShow('0.0.0.0')).toBe('localhost');
    expect(hostToShow('[::]')).toBe('localhost');
    expect(hostToShow('MyHost')).toBe('myhost');
  });

  it.each([
    ['http://localhost:5173/', 5173],
    ['http://localhost/', 80],
    ['https://example.test/', 443],
  ])('port of %s is %i', (url, port) => {
    expect(portOfUrl(new URL(url))).toBe(port);
  });

  it.each([
    [1, true],
    [65_535, true],
    [0, false],
    [65_536, false],
    [80.5, false],
    ['80', false],
  ])('port %j valid: %s', (port, valid) => {
    expect(isValidPort(port)).toBe(valid);
  });

  it('drops only a lone trailing slash when showing a URL', () => {
    expect(displayUrl('http://localhost:5173/')).toBe('http://localhost:5173');
    expect(displayUrl('http://localhost:5173/app/')).toBe('http://localhost:5173/app/');
  });
});
