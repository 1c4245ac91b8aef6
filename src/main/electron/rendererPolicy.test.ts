import { describe, expect, it } from 'vitest';
import { devRendererUrl, installPermissionPolicy, isTrustedRendererUrl } from './rendererPolicy';

describe('renderer URL', () => {
  it('ELECTRON_RENDERER_URL counts only in a development build', () => {
    expect(devRendererUrl({ ELECTRON_RENDERER_URL: 'http://localhost:5173' }, false)).toBe('http://localhost:5173');
    expect(devRendererUrl({ ELECTRON_RENDERER_URL: 'http://evil.example' }, true)).toBeUndefined();
    expect(devRendererUrl({}, false)).toBeUndefined();
  });

  it('compares origins, not prefixes: localhost:5173 does not trust localhost:51730', () => {
    const dev = 'http://localhost:5173';
    expect(isTrustedRendererUrl('http://localhost:5173/index.html', dev)).toBe(true);
    expect(isTrustedRendererUrl('http://localhost:51730/', dev)).toBe(false);
    expect(isTrustedRendererUrl('http://localhost:5173.evil.example/', dev)).toBe(false);
    expect(isTrustedRendererUrl('https://localhost:5173/', dev)).toBe(false);
    expect(isTrustedRendererUrl('file:///app/index.html', dev)).toBe(false);
    expect(isTrustedRendererUrl('file:///app/out/renderer/index.html', undefined)).toBe(true);
    expect(isTrustedRendererUrl('http://localhost:5173/', undefined)).toBe(false);
    expect(isTrustedRendererUrl('not a url', undefined)).toBe(false);
  });
});

describe('permission policy', () => {
  it('allows notifications and denies everything else the app does not use', () => {
    let request: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | undefined;
    let check: ((contents: unknown, permission: string) => boolean) | undefined;
    installPermissionPolicy({
      setPermissionRequestHandler: (handler) => void (request = handler as never),
      setPermissionCheckHandler: (handler) => void (check = handler as never),
    });
    const answers: Record<string, boolean> = {};
    for (const permission of ['notifications', 'media', 'geolocation', 'clipboard-read', 'midi', 'openExternal', 'fullscreen']) {
      request!(undefined, permission, (granted) => (answers[permission] = granted));
    }
    expect(answers).toEqual({
      notifications: true,
      media: false,
      geolocation: false,
      'clipboard-read': false,
      midi: false,
      openExternal: false,
      fullscreen: false,
    });
    expect(check!(undefined, 'notifications')).toBe(true);
    expect(check!(undefined, 'media')).toBe(false);
  });
});
