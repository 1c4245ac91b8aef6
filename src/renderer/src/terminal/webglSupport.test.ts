import { describe, expect, it } from 'vitest';
import { isSoftwareRenderer } from './webglSupport';

describe('isSoftwareRenderer', () => {
  it('takes the GL implementations a CPU draws for software', () => {
    // Debian Chromium with --disable-gpu, as the e2e and bench browser reports it.
    expect(isSoftwareRenderer('ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)')).toBe(true);
    // Mesa in a VM or over remote desktop; Windows without a GPU driver; Chromium's old software GL.
    expect(isSoftwareRenderer('llvmpipe (LLVM 15.0.6, 256 bits)')).toBe(true);
    expect(isSoftwareRenderer('ANGLE (Microsoft, Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0, D3D11)')).toBe(true);
    expect(isSoftwareRenderer('Google SwiftShader')).toBe(true);
  });

  it('keeps WebGL for GPUs', () => {
    expect(isSoftwareRenderer('ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0, D3D11)')).toBe(false);
    expect(isSoftwareRenderer('ANGLE (Apple, ANGLE Metal Renderer: Apple M1, Unspecified Version)')).toBe(false);
    expect(isSoftwareRenderer('Mesa Intel(R) UHD Graphics 620 (KBL GT2)')).toBe(false);
  });
});
