/** The attached capabilities' lifecycle steps, in list order (shutdown in reverse). */
import type { AttachedCapability, Capability } from '../base';

export class CapabilityLifecycle<Host> {
  private readonly attached: AttachedCapability[] = [];

  /** Attach each capability to `host`; what undoes it goes to `track`. */
  attachAll(capabilities: readonly Capability<Host>[], host: Host, track: (attached: AttachedCapability) => void): void {
    for (const capability of capabilities) {
      const attached = capability.attach(host);
      track(attached);
      this.attached.push(attached);
    }
  }

  async beforeInit(): Promise<void> {
    for (const capability of this.attached) await capability.beforeInit?.();
  }

  async afterInit(): Promise<void> {
    for (const capability of this.attached) await capability.afterInit?.();
  }

  /** Every shutdown step, last attached first; one failing to save must not keep the others (or the process trees) from going down. */
  async beforeShutdown(): Promise<Error | undefined> {
    let failure: Error | undefined;
    for (const capability of [...this.attached].reverse()) {
      await capability.beforeShutdown?.().catch((err: unknown) => (failure ??= err instanceof Error ? err : new Error(String(err))));
    }
    return failure;
  }
}
