/**
 * switchboard.json as the core runs it: load and apply it (limits, issues, settings), bring the
 * config entries in line with it (add, redefine, close), and admit each through project trust —
 * an untrusted entry is shown but held until a person trusts it.
 */
import { ConfigWatcher, loadConfig, sameDefinition, sameSpec, type LoadedConfig } from '../config';
import { DisposableStore, type Disposable } from '../base';
import { planInstances, type InstancePlan, type PortAllocator } from '../runtime';
import type { ProcessEntry, SessionManager } from '../sessions';
import type { HeldEntry, ProjectTrust } from '../trust';
import { agentSpec } from '../agents';
import { worktreesTrustRequest } from '../worktrees';
import { writeConfig } from '../projects';
import type { ConfigIssue, ProcessConfig, Settings } from '../../../shared/config';
import type { AgentConfig } from '../../../shared/agentConfig';
import type { BudgetConfig } from '../../../shared/budget';
import type { ControlEvent } from '../../../shared/api';
import type { ProcessSpec } from '../../../shared/model';
import type { ProjectTrustState } from '../../../shared/trust';
import type { ProposedEntry } from '../../../shared/proposal';
import type { EntryRestorer } from './coreServices';
import type { EntryLauncher } from './entryLauncher';
import type { EntryRegistry } from './entryRegistry';
import { configKey } from './configKey';
import { configKeyOf } from '../../../shared/configKey';

type Wanted = Map<string, { spec: ProcessSpec; autoStart: boolean }>;

interface ConfigReconcilerOptions {
  projectDir: string;
  sessions: SessionManager;
  registry: EntryRegistry;
  launcher: EntryLauncher;
  trust: ProjectTrust;
  /** The core's own limits, where switchboard.json `settings` gives none. */
  limits: { ringBytes?: number; killGraceMs?: number };
  restorer(): EntryRestorer | undefined;
  emit(event: ControlEvent): void;
  /** Where `${port}` ports come from. */
  ports: PortAllocator;
}

export class ConfigReconciler {
  private loaded: LoadedConfig | undefined;

  constructor(private readonly options: ConfigReconcilerOptions) {}

  get issues(): ConfigIssue[] {
    return this.loaded?.issues ?? [];
  }

  /** switchboard.json `settings` as last loaded. */
  get settings(): Readonly<Settings> {
    return this.loaded?.settings ?? {};
  }

  /** switchboard.json `budget` (the project's cap) as last loaded. */
  get projectBudget(): BudgetConfig | undefined {
    return this.loaded?.budget;
  }

  /** A process of switchboard.json as last loaded, by name. */
  processConfig(name: string): ProcessConfig | undefined {
    return this.loaded?.processes.get(name);
  }

  processes(): ReadonlyMap<string, ProcessConfig> {
    return this.loaded?.processes ?? new Map();
  }

  /** switchboard.json's agents as last loaded, by name. */
  agents(): ReadonlyMap<string, AgentConfig> {
    return this.loaded?.agents ?? new Map();
  }

  processNames(): string[] {
    return [...(this.loaded?.processes.keys() ?? [])];
  }

  /** Load switchboard.json now and apply it. */
  async load(): Promise<void> {
    await this.apply(loadConfig(this.options.projectDir));
  }

  /** Calls `reload` on every edit of switchboard.json until disposed. */
  watch(reload: () => Promise<void>): Disposable {
    const store = new DisposableStore();
    const watcher = store.add(new ConfigWatcher(this.options.projectDir));
    store.add(watcher.onDidChange(() => void reload()));
    return store;
  }

  /**
   * Writes the entries a person kept as switchboard.json and loads it at once (not waiting for the
   * watcher). Ticking them in the proposal, which shows each command, is the trust prompt's
   * question answered: they run without asking again.
   */
  async write(entries: readonly ProposedEntry[]): Promise<{ path: string }> {
    const path = writeConfig(this.options.projectDir, entries);
    await this.load();
    const chosen = entries.map((entry) => `${entry.section}.${entry.name}`).filter((key) => this.options.trust.isHeld(key));
    if (chosen.length > 0) await this.grantTrust(chosen);
    return { path };
  }

  /**
   * Trust held config entries (all when `keys` is absent) and apply them as the config application
   * would have: a new entry starts if it auto-starts, a changed one is redefined and restarted if it runs.
   */
  async grantTrust(keys?: readonly string[], options: { startHeld?: boolean } = {}): Promise<ProjectTrustState> {
    const granted = this.options.trust.grant(keys);
    await Promise.all(granted.map((held) => this.applyTrusted(held, options.startHeld !== false)));
    return this.options.trust.state();
  }

  /** Trust a config entry as it is now and start it: the UI's Start of an untrusted entry, once the prompt showed its command. */
  async trustAndStart(id: string): Promise<void> {
    const entry = this.options.sessions.get(id);
    if (entry.definition.configName && this.options.trust.isHeld(configKey(entry)))
      await this.grantTrust([configKey(entry)], { startHeld: false });
    if (entry.isRunning) return; // a running entry whose change was trusted restarted with it
    await this.options.launcher.start(id);
  }

  private async apply(loaded: LoadedConfig): Promise<void> {
    const { sessions, limits, projectDir } = this.options;
    const main = await this.mainCheckoutPlan(loaded);
    const config = { ...loaded, issues: [...loaded.issues, ...main.issues] };
    this.loaded = config;
    sessions.configure({
      ringBytes: config.settings.outputBufferBytes ?? limits.ringBytes,
      scrollback: config.settings.scrollbackLines,
      killGraceMs: config.settings.killGraceMs ?? limits.killGraceMs,
    });
    this.options.emit({ type: 'configChanged', issues: config.issues });
    const wanted: Wanted = new Map();
    for (const [name, { spec }] of main.instances) {
      wanted.set(configKeyOf('command', name), { spec, autoStart: config.processes.get(name)?.autoStart ?? true });
    }
    for (const [name, agentConfig] of config.agents) {
      wanted.set(configKeyOf('agent', name), agentSpec(name, agentConfig, projectDir, { configName: name }));
    }
    await this.reconcile(wanted, worktreesTrustRequest(config.worktrees, projectDir));
  }

  /** The main checkout's instances (docs/runtime.md): `${port}` and friends expanded, bad references as issues. */
  private mainCheckoutPlan(config: LoadedConfig): Promise<InstancePlan> {
    const { projectDir, ports } = this.options;
    const worktree = { id: 'main', name: 'main', path: projectDir, isMain: true };
    return planInstances({ worktree, processes: config.processes, projectDir, ports });
  }

  /**
   * Bring config-created entries in line with the file: add, redefine (restart if running), close.
   * Project trust is asked first: an entry whose command, env, cwd, argv or scopes are not trusted
   * is shown but held — it starts nothing and keeps what it had until the user trusts it.
   */
  private async reconcile(wanted: Wanted, worktrees: HeldEntry | undefined): Promise<void> {
    const { sessions, trust, launcher } = this.options;
    const existing = new Map(
      sessions
        .list()
        // A worktree's instance of a config entry is the worktree's, not the main checkout's to reconcile.
        .filter((e) => e.definition.configName && !e.definition.worktree)
        .map((e) => [configKey(e), e]),
    );
    // The `worktrees` section (dir, copy, setup) is asked about with the entries, so `--trust` and
    // trust_project cover it too; it stays held while the file sets any of them, as it is now.
    trust.retainOnly(new Set([...wanted.keys(), ...(worktrees ? [worktrees.key] : [])]));
    const work: Promise<unknown>[] = [];
    for (const [key, entry] of existing) {
      if (!wanted.has(key)) work.push(launcher.close(entry.id));
    }
    const toStart: Array<{ entry: ProcessEntry; autoStart: boolean }> = [];
    for (const [key, { spec, autoStart }] of wanted) {
      const entry = existing.get(key);
      const previous = entry && trust.isTrusted(key, entry.definition) ? entry.definition : undefined;
      const trusted = trust.admit({ key, spec, autoStart, ...(previous ? { previous } : {}) });
      if (!entry) {
        const created = sessions.create(spec, this.options.restorer()?.idFor(key));
        if (trusted) toStart.push({ entry: created, autoStart });
      } else if (!sameDefinition(entry.definition, spec) && (trusted || !previous)) {
        // A held entry that never ran shows its newest definition; a trusted one keeps what it runs.
        work.push(this.redefine(entry, spec, trusted));
      }
    }
    if (worktrees) trust.admit(worktrees);
    // Every new entry exists before any starts: a dependency may be declared after its dependent.
    for (const { entry, autoStart } of toStart) work.push(launcher.launchNew(entry, autoStart).catch(() => undefined)); // error state already shows why
    await Promise.all(work);
  }

  /**
   * A config edit of an existing entry: its new rules (readiness, restart policy, stuck
   * threshold) apply from now on, so its decorations are built again from the new definition; a
   * running entry whose run changed restarts once. A change of start order alone restarts nothing.
   */
  private async redefine(entry: ProcessEntry, spec: ProcessSpec, mayRestart = true): Promise<void> {
    const needsRestart = mayRestart && entry.isRunning && !sameSpec(entry.definition, spec);
    entry.redefine(spec);
    this.options.registry.rebuildDecorations(entry.id);
    if (needsRestart) await entry.restart().catch(() => undefined); // the entry shows a spawn error itself
  }

  private async applyTrusted(held: HeldEntry, startHeld: boolean): Promise<void> {
    const entry = this.options.sessions.list().find((e) => e.definition.configName && configKey(e) === held.key);
    if (!entry) return;
    if (!sameSpec(entry.definition, held.spec)) {
      const wasRunning = entry.isRunning;
      entry.redefine({ ...held.spec, cols: entry.info().cols, rows: entry.info().rows });
      if (wasRunning) return entry.restart().catch(() => undefined); // the entry shows a spawn error itself
    }
    // Through the start order: a trusted entry still waits for what it depends on.
    if (startHeld && !held.previous && held.autoStart && !entry.isRunning)
      await this.options.launcher.startGated(entry.id).catch(() => undefined); // error state shows why
  }
}
