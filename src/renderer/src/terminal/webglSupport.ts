/**
 * Whether xterm's WebGL renderer is worth loading here. A WebGL that a CPU rasterises (Chromium's
 * SwiftShader when the GPU is off or blocklisted, Mesa's llvmpipe in VMs and remote desktops,
 * Windows' Basic Render Driver) is slower than xterm's DOM renderer: the page's main thread waits
 * on it every frame, and with software compositing each canvas is read back as well. Browsers do
 * not reliably refuse such contexts on `failIfMajorPerformanceCaveat` (Chromium hands out
 * SwiftShader with it), so the renderer's own name decides.
 */

/** Renderer names of software GL implementations (WEBGL_debug_renderer_info's UNMASKED_RENDERER_WEBGL). */
const SOFTWARE_RENDERERS = /swiftshader|llvmpipe|softpipe|software rasterizer|basic render driver/i;

let verdict: boolean | undefined;

/**
 * Whether panes on screen load xterm's WebGL renderer: where WebGL2 is drawn by a GPU, unless
 * `?renderer=dom` or `?renderer=webgl` in the address decides (tests run find on both; a user
 * whose GPU draws the terminal badly can opt out).
 */
export function isWebglWanted(): boolean {
  const requested = new URLSearchParams(location.search).get('renderer');
  if (requested === 'dom' || requested === 'webgl') return requested === 'webgl';
  verdict ??= hasHardwareWebgl();
  return verdict;
}

/** True when WebGL2 exists and is drawn by a GPU. */
function hasHardwareWebgl(): boolean {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return false;
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
  gl.getExtension('WEBGL_lose_context')?.loseContext(); // browsers cap live contexts: give this one back
  return !isSoftwareRenderer(renderer);
}

export function isSoftwareRenderer(renderer: string): boolean {
  return SOFTWARE_RENDERERS.test(renderer);
}
