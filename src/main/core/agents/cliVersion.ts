/**
 * The version of the agent CLI a run launches (docs/agent-status.md, "Version awareness"): read
 * with `<binary> --version` once per binary and cached. A CLI that updates itself replaces its
 * binary, so the cache key is the resolved path with its size and modification time: the next
 * launch after an update reads the new version, every other launch reads nothing.
 */
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';

/** `--version` of a Node CLI starts in well under a second; Copilot's launcher unpacks its bundle
 *  on first use (10 s here). Past this the version stays unknown rather than hold anything up. */
const VERSION_TIMEOUT_MS = 20_000;
const MAX_OUTPUT_BYTES = 64 * 1024;
/** `2.1.332 (Claude Code)`, `codex-cli 0.171.0`, `0.61.0`, `1.0.102-beta.1`. */
const VERSION_PATTERN = /\b\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?\b/u;

/** The first x.y.z (with a pre-release suffix) in a `--version` output. */
export function parseCliVersion(output: string): string | undefined {
  return VERSION_PATTERN.exec(output)?.[0];
}

type RunVersion = (file: string, env: NodeJS.ProcessEnv) => Promise<string>;

const runVersion: RunVersion = (file, env) =>
  new Promise((resolve, reject) => {
    execFile(
      file,
      ['--version'],
      { env, timeout: VERSION_TIMEOUT_MS, maxBuffer: MAX_OUTPUT_BYTES, windowsHide: true },
      (err, stdout, stderr) => (err ? reject(new Error(err.message)) : resolve(`${stdout}\n${stderr}`)),
    );
  });

export class CliVersionCache {
  private readonly byBinary = new Map<string, Promise<string | undefined>>();

  constructor(private readonly run: RunVersion = runVersion) {}

  /** The version of the binary at `file` (an absolute path), or undefined when it cannot say. */
  versionOf(file: string, env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
    const key = binaryKey(file);
    if (key === undefined) return Promise.resolve(undefined);
    let version = this.byBinary.get(key);
    if (!version) {
      version = this.run(file, env).then(parseCliVersion, () => undefined);
      this.byBinary.set(key, version);
    }
    return version;
  }
}

function binaryKey(file: string): string | undefined {
  try {
    const st = statSync(file);
    return `${file}\0${st.size}\0${st.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** One cache for the whole app: every entry of the same binary shares its answer. */
export const cliVersions = new CliVersionCache();
