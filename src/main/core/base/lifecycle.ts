/**
 * Disposables and typed events, after VS Code's `base/common/lifecycle` and `event`.
 * Every owner of a PTY, timer, socket or listener registers it in a DisposableStore.
 */

export interface Disposable {
  dispose(): void;
}

export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends Disposable>(item: T): T {
    if (this.disposed) {
      // Adding to a disposed store disposes at once, so late registrations cannot leak.
      item.dispose();
      return item;
    }
    this.items.add(item);
    return item;
  }

  delete(item: Disposable): void {
    if (this.items.delete(item)) item.dispose();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of [...this.items].reverse()) {
      try {
        item.dispose();
      } catch (err) {
        errors.push(err);
      }
    }
    this.items.clear();
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'Several disposables failed');
  }
}

/** Base class: subclasses register what they own with `this.register(...)`. */
export abstract class DisposableBase implements Disposable {
  protected readonly store = new DisposableStore();
  protected register<T extends Disposable>(item: T): T {
    return this.store.add(item);
  }
  get isDisposed(): boolean {
    return this.store.isDisposed;
  }
  dispose(): void {
    this.store.dispose();
  }
}

/** Subscribe-only view of an Emitter. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

export class Emitter<T> implements Disposable {
  private listeners: Array<(value: T) => void> = [];
  private disposed = false;

  readonly event: Event<T> = (listener) => {
    if (this.disposed) return toDisposable(() => undefined);
    // A new array on every change, never a change in place: `fire` iterates the array it started
    // with, so a listener may subscribe or unsubscribe while it runs, and firing copies nothing.
    this.listeners = [...this.listeners, listener];
    return toDisposable(() => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    });
  };

  fire(value: T): void {
    if (this.disposed) return;
    for (const listener of this.listeners) listener(value);
  }

  get hasListeners(): boolean {
    return this.listeners.length > 0;
  }

  dispose(): void {
    this.disposed = true;
    this.listeners = [];
  }
}

/** Resolves with the first value an event fires that satisfies `predicate`. */
export function waitForEvent<T>(event: Event<T>, predicate: (value: T) => boolean = () => true, timeoutMs?: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const sub = event((value) => {
      if (!predicate(value)) return;
      sub.dispose();
      if (timer) clearTimeout(timer);
      resolve(value);
    });
    if (timeoutMs !== undefined) {
      timer = setTimeout(() => {
        sub.dispose();
        reject(new Error(`Timed out after ${timeoutMs} ms waiting for event`));
      }, timeoutMs);
    }
  });
}
