/**
 * Entries with a `sandbox` run inside one: the decoration wraps each run (last, after every other
 * decoration added its env and arguments) and shows what the entry may reach and what was refused.
 */
import { serviceKey, type Capability, type Disposable, type ServiceRegistry } from '../base';
import { MCP_CONNECTION } from '../app';
import { presetOf } from '../agents';
import type { DecorationKey, EntryDecoration, EntryDecorator, ProcessEntry, RunCommand } from '../sessions';
import type { ProcessInfo } from '../../../shared/model';
import { InvalidArgumentError } from '../../../shared/errors';
import { bwrapBackend } from './bwrapBackend';
import { EntrySandbox } from './entrySandbox';
import { unsupportedBackend, type SandboxBackend } from './sandboxBackend';

class SandboxDecoration implements EntryDecoration {
  private readonly runEvents: Disposable[];

  constructor(
    readonly sandbox: EntrySandbox,
    entry: ProcessEntry,
  ) {
    this.runEvents = [
      entry.onDidStartRun((run) => sandbox.runStarted(run.pid)),
      entry.onDidExitRun(() => sandbox.runEnded()),
      entry.onDidWriteOutput(() => sandbox.runPrinted()),
    ];
  }

  get onDidChange() {
    return this.sandbox.onDidChange;
  }

  describe(): Partial<ProcessInfo> {
    return { sandbox: this.sandbox.describe() };
  }

  wrapRun(run: RunCommand): RunCommand {
    return this.sandbox.wrap(run);
  }

  dispose(): void {
    for (const subscription of this.runEvents) subscription.dispose();
    this.sandbox.dispose();
  }
}

const SANDBOX: DecorationKey<SandboxDecoration> = serviceKey('sandbox');

export interface SandboxCapabilityOptions {
  /** Switchboard's data folder: hidden inside every sandbox. */
  dataDir?: string;
  /** The platform's backend (default: bubblewrap on Linux, none elsewhere). */
  backend?: SandboxBackend;
}

interface SandboxHost {
  readonly services: ServiceRegistry;
  addEntryDecorator<D extends EntryDecoration>(key: DecorationKey<D>, decorator: EntryDecorator<D>): Disposable;
}

function platformBackend(): SandboxBackend {
  return process.platform === 'linux' ? bwrapBackend : unsupportedBackend(process.platform);
}

export function sandboxCapability(options: SandboxCapabilityOptions = {}): Capability<SandboxHost> {
  return {
    name: 'sandbox',
    attach(core) {
      const backend = options.backend ?? platformBackend();
      const mcpPort = () => {
        const url = core.services.find(MCP_CONNECTION)?.url;
        return url ? Number(new URL(url).port) : undefined;
      };
      const decorator: EntryDecorator<SandboxDecoration> = (entry: ProcessEntry, context) => {
        const sandboxOptions = entry.definition.sandbox;
        if (!sandboxOptions) return undefined;
        const sandbox = new EntrySandbox({
          options: sandboxOptions,
          projectDir: context.projectDir,
          backend,
          alwaysHidden: options.dataDir ? [options.dataDir] : [],
          mcpPort,
          stateFolders: () => (entry.kind === 'agent' ? presetOf(entry).stateFolders : []),
        });
        return new SandboxDecoration(sandbox, entry);
      };
      return core.addEntryDecorator(SANDBOX, decorator);
    },
  };
}

/** A person lets a sandboxed entry reach `target` from now on (the inbox's "allow host for this agent"). */
export function allowSandboxTarget(
  core: { decorationOf<D extends EntryDecoration>(id: string, key: DecorationKey<D>): D | undefined },
  id: string,
  target: string,
): void {
  const decoration = core.decorationOf(id, SANDBOX);
  if (!decoration) throw new InvalidArgumentError(`Process ${id} is not sandboxed`);
  decoration.sandbox.allow(target);
}
