/**
 * Typed service keys (VS Code's `createDecorator`, reduced to a key): a capability provides a
 * service under its key, the façade and other capabilities look it up by the same key. The key
 * carries the service's type, so a lookup needs no cast and no `instanceof`.
 */
import { toDisposable, type Disposable } from './lifecycle';

export interface ServiceKey<T> {
  /** What the service is, for errors (e.g. `Tasks`). */
  readonly name: string;
  /** Never set: carries T for the type checker. */
  readonly type?: T;
}

export function serviceKey<T>(name: string): ServiceKey<T> {
  return { name };
}

/** The services one core was built with; each key has at most one provider at a time. */
export class ServiceRegistry {
  private readonly services = new Map<ServiceKey<unknown>, unknown>();

  provide<T>(key: ServiceKey<T>, service: T): Disposable {
    if (this.services.has(key)) throw new Error(`${key.name} is provided twice`);
    this.services.set(key, service);
    return toDisposable(() => this.services.get(key) === service && this.services.delete(key));
  }

  find<T>(key: ServiceKey<T>): T | undefined {
    return this.services.get(key) as T | undefined;
  }
}
