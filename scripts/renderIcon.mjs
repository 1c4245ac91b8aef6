// Renders resources/icon.svg with Debian's Chromium, so every icon is generated from the one source
// file: `node scripts/renderIcon.mjs`. The packaged app's resources/icon.png (1024×1024) and the
// phone view's PWA icons in src/renderer/public/icons/: 192 and 512 as drawn, and a maskable 512
// whose background fills the square and whose panes sit inside the central 80 % a launcher may keep.
import { chromium } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const svg = readFileSync(join(root, 'resources/icon.svg'), 'utf8');
const pwaIcons = join(root, 'src/renderer/public/icons');
/** The icon's own dark background (its gradient's end), behind a maskable icon's safe zone. */
const MASKABLE_BACKGROUND = '#0f1115';

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});

/** Screenshots `html`'s first element, `size` pixels square. */
async function render(html, size, path) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(`<html><body style="margin:0;background:transparent">${html}</body></html>`);
  await page.locator('body > *').first().screenshot({ path, omitBackground: true });
  await page.close();
}

const sized = (size) => svg.replace('width="1024" height="1024"', `width="${size}" height="${size}"`);

try {
  await render(svg, 1024, join(root, 'resources/icon.png'));
  await render(sized(192), 192, join(pwaIcons, 'icon-192.png'));
  await render(sized(512), 512, join(pwaIcons, 'icon-512.png'));
  // The drawn tile spans 64..960 of 1024; scaled to 80 % it fills the safe zone's square.
  const safe = Math.round(512 * 0.8 * (1024 / 896));
  await render(
    `<div style="width:512px;height:512px;background:${MASKABLE_BACKGROUND};display:flex;align-items:center;justify-content:center">${sized(safe)}</div>`,
    512,
    join(pwaIcons, 'icon-maskable-512.png'),
  );
} finally {
  await browser.close();
}
