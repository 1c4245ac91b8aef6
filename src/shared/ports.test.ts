import { describe, expect, it } from 'vitest';
import { forwardedUrl } from './ports';

describe('forwardedUrl', () => {
  const forwards = [
    { hostPort: 5173, localPort: 41000 },
    { hostPort: 443, localPort: 41001 },
    { hostPort: 8000, error: 'refused' },
  ];

  it.each([
    ['http://localhost:5173/app?x=1', 'http://127.0.0.1:41000/app?x=1'],
    ['http://devbox.internal:5173', 'http://127.0.0.1:41000/'],
    ['https://[::1]/', 'https://127.0.0.1:41001/'],
    ['http://localhost:8000/', 'http://localhost:8000/'],
    ['http://localhost:3000/', 'http://localhost:3000/'],
    ['not a url', 'not a url'],
  ])('%s → %s', (url, expected) => expect(forwardedUrl(url, forwards)).toBe(expected));

  it('without forwards the URL is as printed', () =>
    expect(forwardedUrl('http://localhost:5173/', undefined)).toBe('http://localhost:5173/'));
});
